# sbpmg: the two commands of the README (make demo, make test) and a few conveniences.
# Everything is built by CMake in $(BUILD); this file only sequences install-deps, configure, build, run.

BUILD      ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS       ?= $(shell nproc)
PREFIX     ?= /usr/local
CTEST_ARGS ?=
DEMO_ARGS  ?=

.PHONY: all deps configure build demo test test-asan test-valgrind install format clean

all: build

deps:
	@scripts/install-deps

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_INSTALL_PREFIX=$(PREFIX)

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	scripts/demo $(BUILD) $(DEMO_ARGS)

# Everything: the suite (with its valgrind runs), then the sanitizer build and its tests (docs/reliability.md)
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)
	$(MAKE) --no-print-directory test-asan

# The tests labelled asan, built with -fsanitize=address,undefined (docs/reliability.md)
test-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSBPMG_SANITIZE=ON -DSBPMG_POCL_CACHE=$(abspath $(BUILD))/pocl-cache
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS) -L asan $(CTEST_ARGS)

# The tests labelled valgrind, under valgrind with the committed suppressions (docs/reliability.md)
test-valgrind: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L valgrind -T memcheck $(CTEST_ARGS)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) build-asan
