# The Detail view reaches its last line at 80x24 (QA pass): lines wrap
# (the raw kernel names take 3-4 rows each at 80 columns), and the scroll
# was clamped by lines, not rows, so G, PgDn and j stopped short of the
# end and the annotation history - what a reviewer opens the detail to
# see after `a` - was never on screen.
. "$(dirname "$0")/../tui/libtui.sh"
export NO_COLOR=1
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }

# row 1 of the archsim review: decode bs=32 flash_attn, two long
# flash-attention kernel names
tui_script 80 24 --model archsim --ref h100-lab <<KEYS
a<Tab><Tab>kv bandwidth<C-d>
<Enter>
G
:save-screen $T/last.screen
j
j
j
:save-screen $T/past.screen
g
:save-screen $T/first.screen
<PgDn>
<PgDn>
<PgDn>
<PgDn>
<PgDn>
<PgDn>
:save-screen $T/paged.screen
k
:save-screen $T/up.screen
KEYS
expect_rc 0 "annotate, open the detail, scroll to the end"
for s in last past paged; do
	expect_in "Annotation history (oldest first)" "$(cat "$T/$s.screen")" \
		"$s: the history's heading is on screen"
	expect_in "      kv bandwidth" "$(cat "$T/$s.screen")" \
		"$s: the note, the detail's last line, is on screen"
	# the screen stays full at the end: the detail's last line (the
	# fingerprint section's) is the row right above the footer
	expect_eq "$(grep -B1 '^a annotate ' "$T/$s.screen" | head -1)" \
		"  (neither run states one: perfcorr import --meta fp.FIELD=VALUE)" \
		"$s: the last line on the last body row (the end fills it)"
done
expect_in "llama3-8b/decode/bs=32/seq=2048/bf16" "$(cat "$T/first.screen")" \
	"g: back at the top"
# nsys states n and stddev, not min and max: no 'min-max -..-'
expect_in "  reference spread: n 2048  stddev 3.095 us (cv 1.9%)" \
	"$(cat "$T/first.screen")" "the reference's spread"
expect_not_in "min-max" "$(cat "$T/first.screen")" "no min-max it does not state"
expect_not_in "(neither run states one" "$(cat "$T/up.screen")" \
	"k from the end scrolls up: the last line leaves the screen"
expect_in "kv bandwidth" "$(cat "$T/up.screen")" \
	"k from the end scrolls up by a line, not a page"
finish
