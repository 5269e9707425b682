# perfcorr report --record / --since-last-review across two recorded
# reviews: what is new, what was resolved and why, what is still listed.
. "$(dirname "$0")/../cli/lib.sh"
F=$FIXTURES/report

pc import -q --source lab --kind silicon --version 2026-01 "$F/lab.csv"
pc import -q --source sim --kind perfsim --version 1.0 "$F/sim-1.0.csv"

# no review yet: everything is new, and a plain report records nothing
run pc report --model sim --ref lab --since-last-review --format json
expect_rc 0 "first report"
printf '%s\n' "$out" >"$T/r0.json"
expect_eq "$(pcsql 'SELECT count(*) FROM reviews')" 0 \
	"a report without --record records nothing"
run pc report --model sim --ref lab --since-last-review
expect_in "No review recorded yet for these sources: all 5 discrepancies" \
	"$out" "md: no review yet"

# review 1 on sim 1.0
run pc report --model sim --ref lab --record --format md -o "$T/w1.md"
expect_rc 0 "record review 1"
expect_in "recorded review #1 (5 discrepancies)" "$err" "review 1 message"
expect_eq "$(pcsql 'SELECT count(*) FROM review_items')" 5 \
	"review 1 items"
expect_eq "$(pcsql 'SELECT model_version || " " ||
	ref_version || " " || runs || " " || lim FROM reviews')" \
	"1.0 2026-01 [2,1] 0.1" "review 1 sides and runs"

# the model improves in places and regresses in others
pc import -q --source sim --kind perfsim --version 1.1 "$F/sim-1.1.csv"
run pc report --model sim --ref lab --since-last-review --record \
	--format json -o "$T/w2.json"
expect_rc 0 "review 2"
expect_in "recorded review #2 (4 discrepancies)" "$err" "review 2 message"
run python3 - "$T/w2.json" "$T/r0.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["review"]
r0 = json.load(open(sys.argv[2]))["review"]
bad = []
def eq(a, b, what):
    if a != b:
        bad.append("%s: %r != %r" % (what, a, b))
W1 = "tiny/prefill/bs=1/seq=128/fp16"
W2 = "tiny/decode/bs=8/seq=128/fp16"
eq(r0["last"], None, "no earlier review")
eq(len(r0["new"]), 5, "all new without a review")
eq(r["last"]["id"], 1, "compared with review 1")
eq(r["last"]["model_version"], "1.0", "review 1 version")
eq(sorted((n["workload"], n["op"], n["metric"]) for n in r["new"]),
   [(W2, "e2e", "time"), (W2, "flash_attn", "time")], "new")
res = {(x["workload"], x["op"], x["metric"]): x for x in r["resolved"]}
eq(sorted(res), [(W2, "lm_head", "time"), (W1, "e2e", "time"),
                 (W1, "flash_attn", "time")], "resolved")
eq(res[(W1, "flash_attn", "time")]["reason"], "now within the limit",
   "reason: limit")
eq(res[(W1, "e2e", "time")]["reason"], "within the reference's noise",
   "reason: noise")
eq(res[(W2, "lm_head", "time")]["reason"], "no longer paired",
   "reason: gone")
eq(res[(W2, "lm_head", "time")]["err_now"], None, "gone: no error now")
eq(round(res[(W1, "flash_attn", "time")]["err_then"], 12), -0.3,
   "error then")
eq(round(res[(W1, "flash_attn", "time")]["err_now"], 12), -0.06,
   "error now")
eq(r["still_listed"], 2, "still listed")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "review 2 against review 1: $out"

# the markdown and html say the same
run pc report --model sim --ref lab --since-last-review
expect_in "## Since the last review" "$out" "md section"
expect_in "Last review: #2" "$out" "md compares with the newest review"
expect_in "0 new, 0 resolved, 4 still listed" "$out" "md after review 2"
run pc report --model sim@1.1 --ref lab --since-last-review -o "$T/r.html"
expect_in "<b>0 new</b>, <b>0 resolved</b>, 4 still listed" \
	"$(cat "$T/r.html")" "html after review 2"

# an older model version, compared with review 2: the reverse changes
run pc report --model sim@1.0 --ref lab --since-last-review
expect_in "3 new, 2 resolved, 2 still listed" "$out" "md reverse"
expect_in "### New discrepancies (3)" "$out" "md new heading"
expect_in "### Resolved (2)" "$out" "md resolved heading"

# a different pair of sources has its own history
pc import -q --source roofline --kind roofline --version v1 "$F/roofline.csv"
run pc report --model roofline --ref lab --since-last-review --format json
expect_in '"review":{"last":null' "$out" "other sources: no review"

# without --since-last-review there is no review section
run pc report --model sim --ref lab
expect_not_in "Since the last review" "$out" "no section without the flag"

# a report that cannot be written records nothing
run pc report --model sim --ref lab --record -o "$T/nodir/x.md"
expect_rc 1 "unwritable output"
expect_eq "$(pcsql 'SELECT count(*) FROM reviews')" 2 \
	"a failed report records nothing"

finish
