# make test: install what is missing, configure, build and run every test (ctest).
PRESET ?= dev
JOBS ?= $(shell nproc)

.PHONY: setup configure build test asan lint format clean

setup:
	./scripts/setup-debian.sh

configure: setup
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

test: build
	ctest --preset $(PRESET) -j $(JOBS)

asan:
	$(MAKE) test PRESET=asan-ubsan

lint: configure
	./scripts/lint.sh build/$(PRESET)

format:
	find include src tools tests fuzz bench examples -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	rm -rf build
