#!/usr/bin/env bash
# The first screen of the review TUI on N pairs of one dimensionless
# metric (not part of ctest), two builds side by side:
#   tests/bench/tui_plain_open.sh NEW_PERFCORR OLD_PERFCORR [N] [RUNS]
# Builds N pairs (default 1,000,000; tests/bench/lib_pairs.sh) and makes
# their metric dimensionless (unit ''), opens once to fill the pair
# cache, then alternates the two binaries RUNS times (default 5) at
# 80x24 with PERFCORR_TIMING and prints each first screen (wall, CPU):
# what the list's value columns cost when their width is the widest
# value printed without an SI prefix (tui/view_discrep.c plain_width,
# issue 35 item 8), one pass over the values.
set -euo pipefail
NEW=$(realpath "$1")
OLD=$(realpath "$2")
N=${3:-1000000}
RUNS=${4:-5}
T=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
export PERFCORR_DB="$T/bench.db"
. "$(dirname "$0")/lib_pairs.sh"
build_pairs_db "$(dirname "$NEW")" "$N"
sqlite3 "$PERFCORR_DB" "UPDATE metrics SET unit = '', dimension = 'count' \
	WHERE id = 1"
printf 'j\nq\n' >"$T/keys"
open1() {
	PERFCORR_HEADLESS=1 PERFCORR_SCRIPT="$T/keys" PERFCORR_TIMING="$T/t" \
		LINES=24 COLUMNS=80 TERM=dumb "$1" tui 2>/dev/null
	head -1 "$T/t"
}
echo "first open (pairs, fills the cache): $(open1 "$NEW")"
for i in $(seq 1 "$RUNS"); do
	echo "new: $(open1 "$NEW")"
	echo "old: $(open1 "$OLD")"
done
