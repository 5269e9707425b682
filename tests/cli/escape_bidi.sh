#!/usr/bin/env bash
# Bidi controls (U+202A..U+202E, U+2066..U+2069) and C1 controls in names
# never reach a report raw (issue 36 item 7): JSON has them as \u202e,
# \u009b; HTML and Markdown show them (\u202e, \x9b) instead of letting
# them reorder or drive what the reader sees.
. "$(dirname "$0")/lib.sh"
RLO=$(printf '\xe2\x80\xae') LRI=$(printf '\xe2\x81\xa6') CSI=$(printf '\xc2\x9b')
printf 'workload,op,metric,value,unit\nw%s1,ge%smm,time,1.0,ms\nw2%s,gemm,time,2.0,ms\nw3,conv,time,3.0,ms\n' \
	"$RLO" "$CSI" "$LRI" >"$T/hw.csv"
sed 's/1\.0/1.1/;s/2\.0/2.2/;s/3\.0/2.9/' "$T/hw.csv" >"$T/sim.csv"
pc import -q --source hw --kind silicon "$T/hw.csv" || fail "import hw"
pc import -q --source sim --kind perfsim "$T/sim.csv" || fail "import sim"
for f in json html md; do
	run pc report --model sim --ref hw --format $f -o "$T/r.$f"
	expect_rc 0 "report --format $f"
	for c in "$RLO" "$LRI" "$CSI"; do
		grep -q "$c" "$T/r.$f" && fail "$f: a raw control in the report" || ok
	done
	grep -q 'u202e' "$T/r.$f" && ok || fail "$f: U+202E not shown"
	grep -q 'u2066' "$T/r.$f" && ok || fail "$f: U+2066 not shown"
done
grep -q 'w\\u202e1' "$T/r.json" && ok || fail "json: the name as w\\u202e1"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=json.dumps(d, ensure_ascii=False); sys.exit(0 if "w\u202e1" in s else 1)' "$T/r.json" &&
	ok || fail "json: reads back as the original name"
finish
