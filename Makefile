# gatepower: the two commands README promises, plus bench and clean.
#   make demo    install what is missing, build, run the main job on an example
#   make test    install what is missing, build, run every test, then the
#                sanitizer build (ASan + UBSan) and its tests
#   make bench   the long measurements (bench/), not part of make test
#   make clean   remove the build trees
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)

.PHONY: all deps build demo test test-asan bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j$(JOBS) -- --no-print-directory

demo: build
	@scripts/demo $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	@scripts/skipped-tests $(BUILD)
	@$(MAKE) --no-print-directory test-asan

# Everything but the slow example flow, built by clang with the sanitizers,
# plus the readers' fuzz targets for a bounded time; CUDA off (its runtime and
# ASan's shadow memory do not mix; device code is not instrumented anyway).
test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DGATEPOWER_SANITIZE=ON \
	       -DGATEPOWER_CUDA=OFF -DCMAKE_C_COMPILER=clang >/dev/null
	@cmake --build $(ASAN_BUILD) -j$(JOBS) -- --no-print-directory
	cd $(ASAN_BUILD) && ctest --output-on-failure -j$(JOBS) -LE flow
	@scripts/skipped-tests $(ASAN_BUILD)

bench: build
	@bench/run $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
