# The roofline is a bound in the archsim review (issue 35): on the demo,
# archsim and h100-lab are both faster than the roofline on the three
# prefill lm_head keys; the Discrepancies header says SoL 3, the rows
# carry S, the detail says which side beats it, and the HTML report
# lists the three (a simulator, not a roofline model).
. "$(dirname "$0")/../tui/libtui.sh"
export NO_COLOR=1
cd "$FIXTURES/.."
bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB" </dev/null >/dev/null 2>&1 ||
	fail "demo import"

tui_script 120 30 --model archsim --ref h100-lab <<KEYS
:save-screen $T/start.screen
fflag=sol<Enter>
:save-screen $T/sol.screen
<Enter>
:save-screen $T/detail.screen
q
q
KEYS
expect_rc 0 "review"
expect_in "SoL 3" "$(screen_line "$T/start.screen" 2)" "header counts the violations"
expect_eq "$(grep -c ' lm_head .* S  ' "$T/start.screen")" 3 "three rows flagged S"
expect_in "row 1/3" "$(screen_line "$T/sol.screen" 1)" "flag=sol: three rows"
expect_eq "$(sed -n '4,6p' "$T/sol.screen" | grep -c 'prefill/bs=.*lm_head')" 3 \
	"the prefill lm_head keys"
expect_in "S: model and reference beat the roofline" "$(cat "$T/detail.screen")" \
	"the detail says which side"

run pc report --model archsim --ref h100-lab --format html
expect_rc 0 "report html"
printf '%s\n' "$out" >"$T/r.html"
run python3 - "$T/r.html" <<'PY'
import re, sys
h = open(sys.argv[1]).read()
m = re.search(r'<section id="sol">(.*?)</section>', h, re.S)
bad = []
if not m:
    bad.append("no sol section")
else:
    s = m.group(1)
    if "Speed-of-light violations (3)" not in s:
        bad.append("heading")
    rows = re.findall(r"<tr[^>]*>.*?</tr>", s, re.S)
    lm = [r for r in rows if "lm_head" in r and "prefill" in r]
    if len(lm) != 3:
        bad.append("%d lm_head rows" % len(lm))
    if "not a roofline" in s:
        bad.append("says not applicable")
print("; ".join(bad), end="")
sys.exit(1 if bad else 0)
PY
expect_rc 0 "report lists the three: $out"
finish
