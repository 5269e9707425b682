#!/usr/bin/env bash
# Build and run tests/bench/sim_change.c (issue 34): the simulated
# false-alarm and power figures of docs/statistics.md and docs/gate.md.
#   bash tests/bench/sim_change.sh [BUILD_DIR] [STUDIES]
set -euo pipefail
build=${1:-build}
cmake --build "$build" --target sim_change >/dev/null
exec "$build/tests/sim_change" "${2:-1000}"
