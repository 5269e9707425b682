# compare counts the discrepancies and the open ones as the TUI's header
# and the report do (issue 35 QA 2; src/corr/corr_disc.h): |error| over
# the limit, not within the reference's noise, not excluded; open = no
# annotation, open or investigating; the limit is the last recorded
# review's, else 10%. Before, compare printed only `outliers` (a
# different thing: far from the median error), 0 here beside the TUI's
# "6 open of 6". The counts are checked against the TUI's header and
# against python3 over compare's own --points json.
. "$(dirname "$0")/../tui/libtui.sh"
build_db
P="--model archsim --ref h100-lab"

header() { # the TUI's "N open of M" at 140 columns
	tui_script 140 30 $P <<KEYS
:save-screen $T/head.screen
KEYS
	sed -n 2p "$T/head.screen" | grep -o '[0-9]* open of [0-9]*'
}
# python3: the definition over the points (limit $1)
ref_count() {
	pc compare $P --points --format json | python3 -c '
import json, math, sys
lim = float(sys.argv[1]); n = o = 0
for p in json.load(sys.stdin)["points"]:
    e = p["err"]
    if e is None or not math.isfinite(e) or abs(e) <= lim or p["within_noise"]:
        continue
    n += 1
    a = p["annotation"]
    o += a is None or a["status"] in ("open", "investigating")
print("%d open of %d" % (o, n))' "$1"
}

run pc compare $P
expect_rc 0 "compare"
expect_in "discrepancies: 6 open of 6 (|error| > 10%" "$out" "compare's count"
expect_in "the default limit, no review recorded" "$out" "the limit's origin"
expect_in "outliers (below): pairs whose error is far from the median" "$out" \
	"what an outlier is, beside"
expect_eq "$(header)" "6 open of 6" "the TUI's header"
expect_eq "$(ref_count 0.10)" "6 open of 6" "python3's count"

# one explained, one investigating: 5 open of 6 everywhere
pc annotate -w llama3-8b/decode/bs=32/seq=2048/bf16 -o gemm_qkv -m time \
	--status explained --note tiles >/dev/null 2>&1 || fail "annotate 1"
pc annotate -w llama3-8b/decode/bs=32/seq=2048/bf16 -o allreduce -m time \
	--status investigating >/dev/null 2>&1 || fail "annotate 2"
run pc compare $P
expect_in "discrepancies: 5 open of 6 (" "$out" "compare after annotating"
expect_eq "$(header)" "5 open of 6" "the TUI after annotating"
expect_eq "$(ref_count 0.10)" "5 open of 6" "python3 after annotating"
run pc compare $P --format json
expect_eq "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["discrepancies"])')" \
	"{'n': 6, 'open': 5, 'limit': 0.1, 'limit_from': 'default', 'bound': False}" \
	"json"

# a review recorded at 20%: compare takes its limit, as the TUI does
pc report $P --record --limit 0.2 -o "$T/r.md" >/dev/null 2>&1 || fail "report --record"
run pc compare $P
expect_in "discrepancies: 2 open of 3 (|error| > 20%" "$out" "compare: the review's limit"
expect_in "the last recorded review's limit" "$out" "said"
expect_eq "$(header)" "2 open of 3" "the TUI at the review's limit"
expect_eq "$(ref_count 0.20)" "2 open of 3" "python3 at 20%"

# a roofline model is a bound: nothing counted, said
run pc compare --model roofline --ref h100-lab
expect_in "discrepancies: none counted: the model is a roofline" "$out" "a bound"
finish
