"""Parsers for the tool reports the example flow keeps: yosys `stat` output,
the OpenSTA timing log written by scripts/example-flow, and its flow.json."""

import json
import os
import re


def flow_period(out_dir):
    """The flow's clock period (flow.json) as gatepower's --period takes it."""
    with open(os.path.join(out_dir, "flow.json")) as stream:
        return "%gns" % json.load(stream)["clock_period_ns"]


def read_yosys_stat(path):
    """Counts from `stat -liberty`: wires, wire_bits, cells, area and
    cell_types {type: count}."""
    with open(path) as stream:
        text = stream.read()
    stat = {"cell_types": {}}
    for key, label in (("wires", "Number of wires"), ("wire_bits", "Number of wire bits"),
                       ("cells", "Number of cells")):
        match = re.search(label + r":\s+(\d+)", text)
        stat[key] = int(match.group(1)) if match else None
    area = re.search(r"Chip area for module \S+:\s+([\d.]+)", text)
    stat["area"] = float(area.group(1)) if area else None
    cells_block = text.partition("Number of cells:")[2]
    for line in cells_block.splitlines()[1:]:
        match = re.match(r"\s+(\S+)\s+(\d+)\s*$", line)
        if not match:
            break
        stat["cell_types"][match.group(1)] = int(match.group(2))
    return stat


def read_sta_log(path):
    """worst_slack_max_ns, worst_slack_min_ns and reg2reg_delay_ns (the worst
    register-to-register arrival) from the flow's sta.log."""
    with open(path) as stream:
        text = stream.read()
    result = {}
    for key in ("max", "min"):
        match = re.search(r"^worst_slack_%s\s+(\S+)" % key, text, re.M)
        result["worst_slack_%s_ns" % key] = round(float(match.group(1)), 3) if match else None
    block = text.partition("register-to-register paths")[2]
    row = re.search(r"^\S+\s+\(\S+\)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)", block, re.M)
    result["reg2reg_delay_ns"] = float(row.group(2)) if row else None
    return result
