# Thin wrapper around CMake: the two README commands live here.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEMO_DB ?= $(BUILD)/demo.db
# WERROR=ON turns warnings into errors (.ci/run sets it).
WERROR ?= OFF

.PHONY: all build demo demo-reset test test-asan fuzz valgrind bench clean bootstrap deb install

all: build

bootstrap:
	@bash scripts/bootstrap.sh

build: bootstrap
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPERFCORR_WERROR=$(WERROR) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# keeps $(DEMO_DB) (and the review in it) when it exists
demo: build
	@bash scripts/demo.sh $(BUILD)/perfcorr $(DEMO_DB)

# deletes $(DEMO_DB) and imports the demo afresh
demo-reset: build
	@bash scripts/demo.sh $(BUILD)/perfcorr $(DEMO_DB) --reset

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: bootstrap
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPERFCORR_SANITIZE=ON -DPERFCORR_WERROR=$(WERROR) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	@cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS)

# The Debian package in $(BUILD)/pkg/, built and checked by the pkg/deb test
# (which reuses a package that is newer than everything it holds, so CI
# builds it once).
deb: build
	@cd $(BUILD) && ctest --output-on-failure -R '^pkg/deb$$'
	@ls $(BUILD)/pkg/perfcorr_*.deb

# cmake --install; PREFIX=/usr/local by default, DESTDIR honoured.
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

fuzz: bootstrap
	@bash scripts/fuzz.sh

valgrind: build
	@bash scripts/valgrind.sh $(BUILD)

bench: build
	@$(if $(TIERS),BENCH_TIERS="$(TIERS)" )$(if $(SHAPES),BENCH_SHAPES="$(SHAPES)" )bash tests/bench/run.sh $(BUILD)/perfcorr

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
