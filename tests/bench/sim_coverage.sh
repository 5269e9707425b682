#!/usr/bin/env bash
# Build and run tests/bench/sim_coverage.c (issue 34): the coverage of
# every printed interval on simulated studies, then the false-alarm rate
# and power of Deming's and the proportional bias's p (STUDIES / 2 per
# cell, SIM_AGREE_STUDIES to change it), docs/statistics.md ("What each
# interval resamples", "The agreement tests' error rates"). About 45 s CPU.
# SIM_COVERAGE_FEW=1: only the coverage with 2-10 workloads, no minimum of
# workloads, as computed and cut to the range (docs/statistics.md, "How few
# workloads": the table that chose STATS_CI_MIN_WORKLOADS; 2000 1000, ~40 s).
#   bash tests/bench/sim_coverage.sh [BUILD_DIR] [STUDIES] [RESAMPLES]
set -euo pipefail
build=${1:-build}
cmake --build "$build" --target sim_coverage >/dev/null
exec "$build/tests/sim_coverage" "${2:-4000}" "${3:-1000}"
