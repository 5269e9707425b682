#!/usr/bin/env bash
# Benchmarks for the correlation core (not part of ctest).
#   tests/bench/run_bench.sh [BUILD_DIR] [N]
# 1. stats_compute over N pairs (tests/bench/bench_stats.c, -O2).
# 2. perfcorr compare over N pairs read from SQLite: the database is built
#    with the sqlite3 shell (fast), then compare --format json is timed
#    (pairing query + statistics + JSON of the summary).
set -euo pipefail
B=${1:-build}
N=${2:-1000000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$ROOT" \
	"$ROOT/tests/bench/bench_stats.c" "$B/libpc_core.a" "$B/libpc_db.a" \
	"$B/libpc_importers.a" "$B/libpc_base.a" \
	$(pkg-config --cflags --libs gsl sqlite3 libcjson) -lm -o "$T/bench_stats"
"$T/bench_stats" "$N" 5

export PERFCORR_DB="$T/bench.db"
. "$(dirname "$0")/lib_pairs.sh"
build_pairs_db "$B" "$N"
echo "database: $(sqlite3 "$PERFCORR_DB" 'SELECT count(*) FROM results') results, $(du -h "$PERFCORR_DB" | cut -f1)"
for i in 1 2 3; do
	/usr/bin/time -f "compare (json summary): %e s wall, %U s user, %S s sys, %M KiB max RSS" \
		"$B/perfcorr" compare --model sim --ref hw --format json >/dev/null
done
/usr/bin/time -f "compare --group-by op: %e s wall, %U s user, %S s sys, %M KiB max RSS" \
	"$B/perfcorr" compare --model sim --ref hw --format json --group-by op >/dev/null
