#!/usr/bin/env bash
# Byte-equality of two binaries' outputs (a speed change must not move a
# byte): compare (text, json, csv, --group-by op), report (md, html,
# json), gate (text, json), trend (table, json), matrix (table, json,
# csv, --keys, --pairwise-keys), diff, explain and the TUI's screens
# (headless :save-screen of every view), each run by both binaries on
# the same database; cmp of every pair of outputs.
#   bash tests/bench/ab_equal.sh A/perfcorr B/perfcorr DB [MODEL REF [POLICY]]
# DB is read-only here (gate --dry-run, report without --record), except
# the TUI's pair cache and the report's cached summaries, which both
# binaries share (index --clear runs before each TUI). Defaults: the
# demo's archsim / h100-lab and fixtures/policy/example.json. Exit 1
# when an output differs (the first lines of its diff are printed).
# A report's time of generation (UTC, to the second) is the one thing
# allowed to differ: ISO times are masked in both files before cmp.
# Not part of ctest.
set -uo pipefail
A=$(realpath "${1:?usage: ab_equal.sh A B DB [MODEL REF [POLICY]]}")
B=$(realpath "${2:?usage: ab_equal.sh A B DB [MODEL REF [POLICY]]}")
DB=${3:?usage: ab_equal.sh A B DB [MODEL REF [POLICY]]}
M=${4:-archsim}
R=${5:-h100-lab}
HERE=$(cd "$(dirname "$0")" && pwd)
POLICY=${6:-$HERE/../../fixtures/policy/example.json}
W=$(mktemp -d /tmp/pc-abeq.XXXXXX)
[ -n "${AB_KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
cat >"$W/keys" <<KEYS
:save-screen $W/SIDE.v1.screen
<Enter>
:save-screen $W/SIDE.detail.screen
q
2
:save-screen $W/SIDE.v2.screen
3
:save-screen $W/SIDE.v3.screen
4
:save-screen $W/SIDE.v4.screen
5
:save-screen $W/SIDE.v5.screen
6
:save-screen $W/SIDE.v6.screen
7
:save-screen $W/SIDE.v7.screen
q
KEYS
n=0
bad=0
# same FILE_A FILE_B: equal but for ISO times
same() {
	cmp -s <(sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIME/g' "$1") \
		<(sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIME/g' "$2")
}
# each NAME ARGS...: run ARGS under both binaries, compare stdout and
# any file named W/SIDE.* they write
each() {
	local name=$1 side bin
	shift
	for side in a b; do
		bin=$A
		[ $side = b ] && bin=$B
		"$bin" --db "$DB" "${@//SIDE/$side}" >"$W/$side.$name.out" \
			2>"$W/$side.$name.err"
		echo "rc $?" >>"$W/$side.$name.err"
	done
	for f in "$W"/a.$name.*; do
		n=$((n + 1))
		if ! same "$f" "${f/\/a./\/b.}"; then
			bad=$((bad + 1))
			echo "DIFFERS: $name ($(basename "$f"))"
			diff "$f" "${f/\/a./\/b.}" | head -6 | cut -c1-300
		fi
	done
}
sel=(-m "$M" -r "$R")
each compare compare "${sel[@]}"
if [ "$(tail -1 "$W/a.compare.err")" != "rc 0" ] ||
	[ "$(tail -1 "$W/b.compare.err")" != "rc 0" ]; then
	echo "ab_equal: compare failed, nothing to compare:" >&2
	cat "$W/a.compare.err" "$W/b.compare.err" >&2
	exit 2
fi
each compare_json compare "${sel[@]}" -f json
each compare_csv compare "${sel[@]}" -f csv
each group compare "${sel[@]}" -f json --group-by op
each group_text compare "${sel[@]}" --group-by workload
each report_md report "${sel[@]}" -f md -o "$W/SIDE.report_md.file"
each report_html report "${sel[@]}" -f html --policy "$POLICY" -o "$W/SIDE.report_html.file"
each report_json report "${sel[@]}" -f json -o "$W/SIDE.report_json.file"
each gate gate --policy "$POLICY" --model "$M" --ref "$R" --dry-run
each gate_json gate --policy "$POLICY" --model "$M" --ref "$R" --dry-run -f json
each trend trend "${sel[@]}"
each trend_json trend "${sel[@]}" -f json
each matrix matrix
each matrix_json matrix -f json
each matrix_csv matrix -f csv
each matrix_keys matrix -f csv --keys
each matrix_pair matrix -f json --pairwise-keys
each explain explain "${sel[@]}"
for side in a b; do
	bin=$A
	[ $side = b ] && bin=$B
	"$bin" --db "$DB" index --clear >/dev/null
	sed "s/SIDE/$side/" "$W/keys" >"$W/keys.$side"
	PERFCORR_HEADLESS=1 PERFCORR_SCRIPT=$W/keys.$side COLUMNS=140 LINES=40 \
		TERM=dumb "$bin" --db "$DB" tui "${sel[@]}" >/dev/null \
		2>"$W/tui.$side.err" || echo "tui $side: rc $?: $(tail -2 "$W/tui.$side.err")"
done
for v in v1 detail v2 v3 v4 v5 v6 v7; do
	f=$W/a.$v.screen
	n=$((n + 1))
	if [ ! -f "$f" ] || [ ! -f "$W/b.$v.screen" ]; then
		bad=$((bad + 1))
		echo "MISSING: tui screen $v ($(ls "$W"/?."$v".screen 2>/dev/null | tr '\n' ' '))"
		continue
	fi
	if ! same "$f" "${f/\/a./\/b.}"; then
		bad=$((bad + 1))
		echo "DIFFERS: tui $(basename "$f")"
		diff "$f" "${f/\/a./\/b.}" | head -6 | cut -c1-300
	fi
done
echo "ab_equal: $n outputs compared, $bad differ"
[ "$bad" = 0 ]
