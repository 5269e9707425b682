#!/usr/bin/env bash
# Key latency of the review TUI on the demo at 80x24 (not part of ctest):
#   tests/bench/tui_demo_keys.sh [PERFCORR] [RUNS]
# Builds the demo database in a temporary directory (scripts/demo.sh),
# then replays keys through every view headless (PERFCORR_HEADLESS=1,
# PERFCORR_SCRIPT, LINES=24 COLUMNS=80) with PERFCORR_TIMING, RUNS times
# (default 3; the first opens the pairings uncached). Prints each run's
# first screen and key summary, the slowest keys of the last run (wall
# ms, CPU ms) and the largest CPU ms of any key over runs 2.. (the
# target: < 15 ms CPU a key, docs/tui.md).
set -euo pipefail
PC=$(realpath "${1:-build/perfcorr}")
RUNS=${2:-3}
T=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/../.."
bash scripts/demo.sh "$PC" "$T/demo.db" </dev/null >/dev/null 2>&1
export PERFCORR_DB="$T/demo.db"
cat > "$T/keys" <<'KEYS'
jjjjjjjjjj
<PgDn><PgUp>Gg
llhh
s
s
fop=gemm*<Enter>
F
/rmsnorm<Enter>
nN
<Enter>
jjjjjjjjjj
]][[
q
2
b
b
m
jj
b
b
b
3
jj
b
b
4
llll
5
llll
hhhh
jjjj
6
7
jj
1
p
2
1
p
1
KEYS
for i in $(seq 1 "$RUNS"); do
	PERFCORR_HEADLESS=1 PERFCORR_SCRIPT="$T/keys" PERFCORR_TIMING="$T/t$i" \
		LINES=24 COLUMNS=80 TERM=dumb "$PC" tui 2>/dev/null
	[ "$i" = 1 ] && what="first open, uncached" || what="pair cache"
	echo "run $i ($what): $(head -1 "$T/t$i")"
	tail -2 "$T/t$i"
done
echo "slowest keys of the last run (wall ms, cpu ms):"
grep '^key' "$T/t$RUNS" | sort -k5 -g -r | head -8
if [ "$RUNS" -gt 1 ]; then
	cat $(seq -f "$T/t%g" 2 "$RUNS") | grep '^key' | sort -k5 -g -r |
		head -1 | awk '{ print "largest cpu ms a key, runs 2..: " $5 \
			" (" $2 ")" }'
fi
