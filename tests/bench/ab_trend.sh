#!/usr/bin/env bash
# trend and report side by side, two binaries on one database (the
# change-point series' memory, issue 34 item 5): user + sys CPU and peak
# RSS (/usr/bin/time) of `trend` (text, json) and `report -f json`, the
# two binaries interleaved rep by rep (which goes first alternates);
# medians of CPU, the largest RSS; and cmp of their outputs (a report's
# ISO times masked). Read-only but for the report's cached summaries,
# which both share.
#   bash tests/bench/ab_trend.sh OLD/perfcorr NEW/perfcorr DB MODEL REF [REPS]
# REPS default 3. Exit 1 when an output differs. Not part of ctest; run
# it under `nice` on a shared machine.
set -uo pipefail
OLD=$(realpath "${1:?usage: ab_trend.sh OLD NEW DB MODEL REF [REPS]}")
NEW=$(realpath "${2:?usage: ab_trend.sh OLD NEW DB MODEL REF [REPS]}")
DB=${3:?usage: ab_trend.sh OLD NEW DB MODEL REF [REPS]}
M=${4:?usage: ab_trend.sh OLD NEW DB MODEL REF [REPS]}
R=${5:?usage: ab_trend.sh OLD NEW DB MODEL REF [REPS]}
REPS=${6:-3}
W=$(mktemp -d /tmp/pc-abtrend.XXXXXX)
trap 'rm -rf "$W"' EXIT
: >"$W/times"
# one SIDE NAME ARGS...: time one command of SIDE's binary
one() {
	local side=$1 name=$2 bin=$OLD
	shift 2
	[ "$side" = new ] && bin=$NEW
	/usr/bin/time -f "$name $side %U %S %M" -a -o "$W/times" \
		"$bin" --db "$DB" "$@" >"$W/$side.$name" 2>"$W/$side.$name.err" ||
		{ echo "ab_trend: $side $name failed:" >&2; tail -3 "$W/$side.$name.err" >&2; exit 2; }
}
for r in $(seq 1 "$REPS"); do
	sides="old new"
	[ $((r % 2)) = 0 ] && sides="new old"
	for s in $sides; do
		one "$s" trend trend -m "$M" -r "$R"
		one "$s" trend_json trend -m "$M" -r "$R" --format json
		one "$s" report_json report -m "$M" -r "$R" -f json
	done
done
bad=0
for f in trend trend_json report_json; do
	if ! cmp -s <(sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIME/g' "$W/old.$f") \
		<(sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIME/g' "$W/new.$f"); then
		echo "ab_trend: $f differs" >&2
		bad=1
	fi
done
python3 - "$W/times" <<'PY'
import statistics, sys
cpu, rss = {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) != 5 or not f[2][0].isdigit():
        continue
    k = (f[0], f[1])
    cpu.setdefault(k, []).append(float(f[2]) + float(f[3]))
    rss.setdefault(k, []).append(int(f[4]) / 1024)
print("| command | old CPU s | new CPU s | new/old | old RSS MB | new RSS MB | new/old | reps |")
print("|---|---|---|---|---|---|---|---|")
for c in ("trend", "trend_json", "report_json"):
    o, n = (c, "old"), (c, "new")
    if o not in cpu or n not in cpu:
        continue
    co, cn = statistics.median(cpu[o]), statistics.median(cpu[n])
    ro, rn = max(rss[o]), max(rss[n])
    print("| %s | %.2f | %.2f | %.2fx | %.1f | %.1f | %.2fx | %d |" % (
        c, co, cn, cn / co if co else 0, ro, rn, rn / ro, len(cpu[n])))
PY
[ $bad = 0 ] && echo "ab_trend: outputs equal" || exit 1
