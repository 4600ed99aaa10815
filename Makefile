# make test: install what is missing, configure, build and run every test (ctest).
# make demo: the same set-up and build, then a real climatology through the command line.
# make unit: build what changed and run the unit tests only (the fast inner loop).
PRESET ?= dev
JOBS ?= $(shell nproc)

.PHONY: setup configure build test unit demo asan lint lint-format lint-changed format clean

setup:
	./scripts/setup-debian.sh

configure: setup
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

test: build
	ctest --preset $(PRESET) -j $(JOBS)

unit:
	@test -f build/$(PRESET)/CMakeCache.txt || $(MAKE) configure
	cmake --build --preset $(PRESET) -j $(JOBS)
	ctest --preset $(PRESET) -L unit -j $(JOBS)

demo: build
	./scripts/demo.sh build/$(PRESET)

asan:
	$(MAKE) test PRESET=asan-ubsan

# Everything: clang-format on the whole tree and clang-tidy on every source of src/ and tools/.
lint: configure
	./scripts/lint.sh build/$(PRESET)

# What CI runs: clang-format on the whole tree (no build needed) ...
lint-format:
	./scripts/lint.sh build/$(PRESET) --format-only

# ... and clang-tidy on the lines changed since LINT_BASE (default HEAD^1).
lint-changed: configure
	./scripts/lint.sh build/$(PRESET) --tidy-only --changed

format:
	find include src tools tests fuzz bench examples python -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	rm -rf build
