/* resim_rules.h: the re-simulation's rules, once, as GP_HOSTDEV functions
 * over plain values, for the CPU re-simulation (resim_gate.c) and the GPU
 * one to come: a gate's input state, its evaluation from the truth table
 * with X, the inertial schedule of a wake-up, and the delay of a
 * transition to X.  The loops over events, the wake-up queue and the
 * layouts stay each engine's own.
 *
 * A gate's input values are a state of 2 bits per input, input k's value
 * (0, 1 or EVENTS_X) at bits 2k and 2k + 1; input k is variable k of the
 * cell's function (inputs come first among its pins). */
#ifndef GP_RESIM_RESIM_RULES_H
#define GP_RESIM_RESIM_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "events/events.h"
#include "util/hostdev.h"

/* Bit `row` of a truth table (a lib_expr's tt: row r holds the value when
 * variable k is bit k of r). */
GP_HOSTDEV uint8_t resim_tt_bit(const uint64_t *tt, uint32_t row)
{
    return (uint8_t)(tt[row >> 6] >> (row & 63) & 1);
}

/* The state with input k's value set to v. */
GP_HOSTDEV uint32_t resim_state_set(uint32_t state, uint32_t k, uint8_t v)
{
    return (state & ~(3u << 2 * k)) | (uint32_t)v << 2 * k;
}

/* The output value in `state` of the n inputs: with X inputs, 0 or 1 when
 * every completion of them agrees, else X. */
GP_HOSTDEV uint8_t resim_eval(const uint64_t *tt, uint32_t state, uint32_t n)
{
    uint32_t ones = 0, xs = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v = state >> 2 * k & 3;
        ones |= (uint32_t)(v == 1) << k;
        xs |= (uint32_t)(v == EVENTS_X) << k;
    }
    uint8_t first = resim_tt_bit(tt, ones);
    for (uint32_t sub = xs; sub; sub = (sub - 1) & xs)
        if (resim_tt_bit(tt, ones | sub) != first)
            return EVENTS_X;
    return first;
}

/* The inertial (module-path) schedule of a new value evaluated now that
 * wakes at `at`: the earliest pending wake-up, *wake (INT64_MAX: none),
 * keeps its time unless this one comes first.  Returns the wake-up that
 * is left pending besides *wake (INT64_MAX: none); a wake-up puts the
 * newest evaluated value on the net, so a pulse shorter than the delay
 * is swallowed. */
GP_HOSTDEV int64_t resim_schedule(int64_t *wake, int64_t at)
{
    if (at >= *wake)
        return at;
    int64_t pending = *wake;
    *wake = at;
    return pending;
}

/* Verilog's delay of a transition to X: the smaller of the rise and the
 * fall delay. */
GP_HOSTDEV int64_t resim_x_delay(int64_t rise, int64_t fall)
{
    return fall < rise ? fall : rise;
}

/* A wire whose delay depends on the value its net goes to (an SDF
 * INTERCONNECT whose rise and fall differ; an X arrives without delay)
 * can bring a net's event to the pin before the one that came before it.
 * The earlier one is then cancelled: IEEE 1364's negative pulse, a pulse
 * whose trailing edge arrives before its leading edge, does not
 * propagate; so a pin's events stay in time order.  Whether an event at
 * `time` arrives over `wire` before `arrival`: with the event's wire, it
 * overtakes an event arriving then; with the wire's smallest delay, it is
 * near enough to (so later events need not be looked at). */
GP_HOSTDEV bool resim_arrives_before(int64_t time, int64_t wire, int64_t arrival)
{
    return time + wire < arrival;
}

/* The smallest of an input's wire delays by value (0, 1, X). */
GP_HOSTDEV int64_t resim_min_wire(const int64_t wire[3])
{
    int64_t m = wire[0] < wire[1] ? wire[0] : wire[1];
    return m < wire[EVENTS_X] ? m : wire[EVENTS_X];
}

/* Whether the wire's delays differ by value, so that overtaking can happen. */
GP_HOSTDEV bool resim_uneven_wire(const int64_t wire[3])
{
    return wire[0] != wire[1] || wire[0] != wire[EVENTS_X];
}

#endif
