# tmux at 160x40 on the demo (issue 35 QA 5): the Disagreements view (5)
# cut its last column, "roofline" (who beats the speed of light), to
# "archsim, h100-cloud, h1~" with 35 columns of the screen unused: a
# cap of 24 held even when the room was there. Now, with every column
# shown, the room left goes to the capped free text (the violations
# first, then the annotation): the three sources matrix names for each
# lm_head key show whole, and no line is wider than the screen. A long
# annotation (investigating/specification-error) shows whole too.
. "$(dirname "$0")/../tui/libtui.sh"
. "$(dirname "$0")/../tui/libtmux.sh"
command -v tmux >/dev/null || { echo "tmux missing"; exit 77; }
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }
pc annotate -w llama3-8b/decode/bs=32/seq=2048/bf16 -o rmsnorm -m time \
	--status investigating --category specification-error \
	--note 'spec says fused' >/dev/null 2>&1 || fail "annotate"
# what matrix says beats the roofline on each lm_head key (json)
sol=$(pc matrix --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
v = {", ".join(k["sol_violations"]) for k in d["keys"] if k["op"] == "lm_head"}
print(v.pop() if len(v) == 1 else "?%r" % v)')
expect_eq "$sol" "archsim, h100-cloud, h100-lab" "matrix's violators of the lm_head keys"

tmux_start 160 40 NO_COLOR=1 -- --model archsim --ref h100-lab
wait_for "open of"
keys 5
wait_for "Disagreements |"
wait_for "lm_head"
scr=$(screen)
expect_eq "$(printf '%s\n' "$scr" | grep -cF " lm_head ")" 3 "three lm_head rows"
expect_eq "$(printf '%s\n' "$scr" | grep -F " lm_head " | grep -c "$sol\$")" 3 \
	"the three lm_head rows end with the violators, whole"
expect_not_in "h1~" "$scr" "no violators cut"
expect_in "investigating/specification-error" \
	"$(printf '%s\n' "$scr" | grep 'bs=32/seq=2048/bf16 *rmsnorm')" "the long annotation, whole"
expect_eq "$(printf '%s\n' "$scr" | awk '{ if (length($0) > 160) n++ } END { print n + 0 }')" 0 \
	"no line wider than 160"
head=$(printf '%s\n' "$scr" | grep '^  workload')
expect_in "annotation" "$head" "the annotation column's head"
expect_in "roofline" "$head" "the violations column's head"
expect_not_in ">" "$head" "no column beyond the edge"
keys q
finish
