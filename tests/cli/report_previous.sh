# perfcorr report, "Against the previous model version": the pairs whose
# |error| grew (regressions) and shrank (improvements) by a point or more
# between the version before the reported one and it, against the same
# reference, largest change first; the same pairs as perfcorr diff, in
# md, html and json; no section for a first version.
. "$(dirname "$0")/../cli/lib.sh"

# time in us; errors by hand (model - ref) / ref:
#              ref   sim 1.0        sim 1.1         |err| change
# bs=1 gemm_qkv 100  110 (+10%)     101 (+1%)       -9 pt  improved
# bs=1 flash_attn 50  50 (0%)        60 (+20%)      +20 pt regressed
# bs=1 lm_head   10   10 (0%)        10 (0%)          0    unchanged
# bs=8 gemm_qkv 200  220 (+10%)     200 (0%)       -10 pt  improved
# bs=8 flash_attn 100 100 (0%)      130 (+30%)     +30 pt  regressed
# bs=8 lm_head   20   20 (0%)        23 (+15%)     +15 pt  regressed
# bs=1 rmsnorm  100   92 (-8%)      104 (+4%)       -4 pt  improved
# (rmsnorm's signed error moved by 12 points, more than gemm's 9 and 10:
# improvements are ordered by the change of |error|, not by diff's order)
# MAPE 1.0: 28/7 = 4.00%, 1.1: 70/7 = 10.00%
printf '%s\n' "workload,op,metric,value,unit,n,stddev" \
	"m/bs=1,gemm_qkv,time,100,us,10,0.1" "m/bs=1,flash_attn,time,50,us,10,0.1" \
	"m/bs=1,lm_head,time,10,us,10,0.01" "m/bs=8,gemm_qkv,time,200,us,10,0.1" \
	"m/bs=8,flash_attn,time,100,us,10,0.1" "m/bs=8,lm_head,time,20,us,10,0.01" \
	"m/bs=1,rmsnorm,time,100,us,10,0.1" >"$T/ref.csv"
printf '%s\n' "workload,op,metric,value,unit" "m/bs=1,gemm_qkv,time,110,us" \
	"m/bs=1,flash_attn,time,50,us" "m/bs=1,lm_head,time,10,us" \
	"m/bs=8,gemm_qkv,time,220,us" "m/bs=8,flash_attn,time,100,us" \
	"m/bs=8,lm_head,time,20,us" "m/bs=1,rmsnorm,time,92,us" >"$T/sim-1.0.csv"
printf '%s\n' "workload,op,metric,value,unit" "m/bs=1,gemm_qkv,time,101,us" \
	"m/bs=1,flash_attn,time,60,us" "m/bs=1,lm_head,time,10,us" \
	"m/bs=8,gemm_qkv,time,200,us" "m/bs=8,flash_attn,time,130,us" \
	"m/bs=8,lm_head,time,23,us" "m/bs=1,rmsnorm,time,104,us" >"$T/sim-1.1.csv"
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
pc import -q --source sim --kind perfsim --version 1.0 "$T/sim-1.0.csv"
pc import -q --source sim --kind perfsim --version 1.1 "$T/sim-1.1.csv"
pc annotate --workload m/bs=8 --op flash_attn --metric time --model sim \
	--ref lab --status investigating --category modeling-error \
	--note "kv layout" --author ann >/dev/null 2>&1 || fail "annotate"

run pc report --model sim --ref lab --format md
expect_rc 0 "report md"
sec=$(printf '%s\n' "$out" | sed -n '/^## Against the previous model version$/,/^## Speed/p')
expect_in "Version 1.0 to 1.1, both against the same reference: MAPE 4.00% to 10.00%; 7 pairs in both, 3 regressed and 3 improved" \
	"$sec" "md headline"
# the regressions under their heading, the improvements folded
# (issue 35 item 6: <details><summary>Improvements (N)</summary>)
rows() { printf '%s\n' "$sec" | sed -n "/^### $1\\|^<details><summary>$1/,/^###\\|^## \\|^<details>\\|^<\\/details>/p" |
	awk -F' [|] ' '/^\| m\// { sub(/^\| /, "", $1); print $1, $2, $4, $5, $6, $7, $8 }' |
	sed 's/ |$//' | tr '\n' ';'; }
expect_eq "$(rows Regressions)" \
	"m/bs=8 flash_attn 0.00% +30.00% +30.00 pt model investigating;m/bs=1 flash_attn 0.00% +20.00% +20.00 pt model open;m/bs=8 lm_head 0.00% +15.00% +15.00 pt model open;" \
	"md regressions, largest first"
expect_eq "$(rows Improvements)" \
	"m/bs=8 gemm_qkv +10.00% 0.00% -10.00 pt model open;m/bs=1 gemm_qkv +10.00% +1.00% -9.00 pt model open;m/bs=1 rmsnorm -8.00% +4.00% -4.00 pt model open;" \
	"md improvements, largest first"
# the release-change line is diff's, word for word (one test: issue 34)
dline=$(pc diff --model sim@1.0..1.1 --ref lab | grep '^MAPE change on the')
expect_in "$dline (the release-change test, as trend and diff)." "$sec" \
	"md: the release change as diff says it"
expect_in "MAPE change on the 7 common pairs: +6.00 pt (4.00% -> 10.00%)" "$dline" \
	"the change by hand: 70/7 - 28/7 points"
# perfcorr diff moves the same pairs by the same amounts
run pc diff --model sim@1.0..1.1 --ref lab --format csv
expect_eq "$(printf '%s\n' "$out" | awk -F, 'NR > 1 { printf "%s %s;", $1, $2 }')" \
	"m/bs=8 flash_attn;m/bs=1 flash_attn;m/bs=8 lm_head;m/bs=1 rmsnorm;m/bs=8 gemm_qkv;m/bs=1 gemm_qkv;" \
	"diff lists the same six pairs (by its signed change)"

# html: the same rows in two tables
pc report --model sim --ref lab -o "$T/r.html" && ok || fail "html"
run python3 - "$T/r.html" <<'PY'
import sys, xml.etree.ElementTree as ET
H = "{http://www.w3.org/1999/xhtml}"
root = ET.parse(sys.argv[1]).getroot()
sec = [s for s in root.iter(H + "section") if s.get("id") == "previous"][0]
got = {}
det = sec.find(H + "details")
if det is None or "".join(det.find(H + "summary").itertext()) != "Improvements (3)" \
        or det.find(H + "table") is None:
    print("the improvements are not folded"); sys.exit(1)
for t in sec.iter(H + "table"):
    got[t.get("class")] = [["".join(td.itertext()) for td in tr][:2] +
                           ["".join(tr[5].itertext())]
                           for tr in t.find(H + "tbody")]
want = {"pts reg": [["m/bs=8", "flash_attn", "+30.00 pt"],
                    ["m/bs=1", "flash_attn", "+20.00 pt"],
                    ["m/bs=8", "lm_head", "+15.00 pt"]],
        "pts imp": [["m/bs=8", "gemm_qkv", "-10.00 pt"],
                    ["m/bs=1", "gemm_qkv", "-9.00 pt"],
                    ["m/bs=1", "rmsnorm", "-4.00 pt"]]}
print(got if got != want else "", end="")
sys.exit(got != want)
PY
expect_rc 0 "html regressions and improvements: $out"

run pc report --model sim --ref lab --format json
expect_in '"previous":{"version":"1.0","common":7,"regressed":3,"improved":3,"only_before":0,"only_after":0,"change":{' \
	"$out" "json previous"
got=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["previous"]["change"], sort_keys=True))')
want=$(pc diff --model sim@1.0..1.1 --ref lab --format json | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["change"], sort_keys=True))')
expect_eq "$got" "$want" "json: the same change object as diff's"
# --no-trend loads no other version: no section
run pc report --model sim --ref lab --format json --no-trend
expect_in '"previous":null' "$out" "json previous null with --no-trend"
# the first version has nothing before it: no section, json null
run pc report --model sim@1.0 --ref lab --format md
expect_not_in "Against the previous model version" "$out" "no section for 1.0"
run pc report --model sim@1.0 --ref lab --format json
expect_in '"previous":null' "$out" "json previous null for 1.0"
finish
