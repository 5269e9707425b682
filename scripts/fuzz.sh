#!/usr/bin/env bash
# Fuzz smoke run: build tests/fuzz with clang + libFuzzer (ASan+UBSan) in
# build-fuzz/ and run every target for PERFCORR_FUZZ_SECONDS each (default
# 8, about a minute in all), seeded from tests/fuzz/corpus/. A longer hunt:
#   PERFCORR_FUZZ_SECONDS=600 scripts/fuzz.sh
# Skips (exit 0, with a message) when clang or the libFuzzer runtime is
# missing, so CI on a machine without them still works.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${FUZZ_BUILD:-build-fuzz}
if ! command -v clang >/dev/null; then
	echo "fuzz: clang not installed (scripts/bootstrap.sh installs it); skipped" >&2
	exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }\n' >"$probe/t.c"
if ! clang -fsanitize=fuzzer,address,undefined "$probe/t.c" -o "$probe/t" 2>/dev/null; then
	echo "fuzz: clang has no libFuzzer runtime (Debian: libclang-rt-dev); skipped" >&2
	exit 0
fi
export PERFCORR_FUZZ_SECONDS=${PERFCORR_FUZZ_SECONDS:-8}
CC=clang cmake -S . -B "$BUILD" -DPERFCORR_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)" --target \
	$(cd tests/fuzz && ls fuzz_*.c | sed 's/\.c$//' | while read -r t; do
		grep -q "^/\* REQUIRES: " "$t.c" &&
		! [ -e "../../$(sed -n 's|^/\* REQUIRES: \([^ ]*\).*|\1|p' "$t.c")" ] ||
		echo "$t"; done) >/dev/null
cd "$BUILD" && ctest -L fuzz --output-on-failure
