#!/usr/bin/env bash
# Build and run tests/bench/sim_coverage.c (issue 34): the coverage of
# every printed interval on simulated studies, docs/statistics.md.
#   bash tests/bench/sim_coverage.sh [BUILD_DIR] [STUDIES] [RESAMPLES]
set -euo pipefail
build=${1:-build}
cmake --build "$build" --target sim_coverage >/dev/null
exec "$build/tests/sim_coverage" "${2:-4000}" "${3:-1000}"
