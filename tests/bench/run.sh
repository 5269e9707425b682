#!/usr/bin/env bash
# perfcorr benchmarks (issues 9, 21): make bench, or
#   tests/bench/run.sh build/perfcorr
# BENCH_TIERS="100k 1M" (default; add 10M for the big tier: make bench
# TIERS=...), BENCH_SHAPES="kernel sweep" (make bench SHAPES=...),
# BENCH_REPS=3 (medians; 10M runs once), BENCH_REPS2 (the derived commands),
# BENCH_RSS_BIG=1 (the opt-in 2 GB import RSS tier), BENCH_DIR=build/bench,
# BENCH_RESULTS=tests/bench/results/last-run.json (merged per shape and
# tier), BENCH_OUT=docs/benchmarks.md, BENCH_PEERS=0 to skip pandas/scipy.
# `python3 tests/bench/bench.py --render` re-renders the markdown.
# Run it under `nice` on a shared machine. Not part of `make test`.
set -euo pipefail
PERFCORR=${1:?usage: run.sh PATH/TO/perfcorr}
HERE=$(cd "$(dirname "$0")" && pwd)
missing=0
need() { # command-or-file hint
	if ! command -v "$1" >/dev/null 2>&1 && [ ! -x "$1" ]; then
		echo "bench: '$1' is missing: $2" >&2
		missing=1
	fi
}
[ -x "$PERFCORR" ] || { echo "bench: no perfcorr binary at '$PERFCORR' (make build)" >&2; exit 2; }
need /usr/bin/time "apt-get install -y time"
need sqlite3 "apt-get install -y sqlite3"
need python3 "apt-get install -y python3"
need cc "apt-get install -y gcc (tests/bench/floor_compare.c)"
[ "$missing" -eq 0 ] || exit 2
if [ "${BENCH_PEERS:-1}" != 0 ]; then
	if ! /usr/bin/python3 -c 'import pandas, numpy, scipy' 2>/dev/null; then
		echo "bench: the peers need Debian's pandas and scipy:" \
			"apt-get install -y python3-pandas python3-scipy" \
			"(or BENCH_PEERS=0 to run without the peers)" >&2
		exit 2
	fi
fi
exec python3 "$HERE/bench.py" "$PERFCORR"
