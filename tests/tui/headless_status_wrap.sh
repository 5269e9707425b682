# A status message wider than the screen takes the footer's row too
# until the next key (QA finding: at 80 columns messages were cut at the
# edge with no mark, losing their end: 'c' said '... (perfcorr report
# --record): nothing is', 'p' to a roofline '... (silicon): the frac',
# 'o' on a bound '... (f flag=sol lists t').
. "$(dirname "$0")/../tui/libtui.sh"
export NO_COLOR=1
(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB") \
	>/dev/null 2>&1 </dev/null || { fail "demo.sh"; finish; exit 1; }

tui_script 80 24 --model archsim --ref h100-lab <<KEYS
c
:save-screen $T/c.screen
j
:save-screen $T/next.screen
KEYS
expect_rc 0 "c without a recorded review"
expect_eq "$(tail -2 "$T/c.screen")" "no review recorded for these sources yet (perfcorr report --record): nothing is
new" "the whole message, over the footer's row and the status row"
expect_in "Enter detail  a annotate" "$(tail -2 "$T/next.screen" | head -1)" \
	"the next key: the footer is back"
expect_eq "$(tail -1 "$T/next.screen")" "" "and the status row empty"

tui_script 80 24 --model roofline --ref h100-lab <<KEYS
o
:save-screen $T/o.screen
KEYS
expect_rc 0 "o on a bound"
msg=$(tail -2 "$T/o.screen" | tr '\n' ' ')
expect_in "a roofline is a bound, not a model" "$msg" "o: the message's head"
expect_in "(f flag=sol lists the violations)" "$msg" "o: its end, the cure (two rows hold it)"
expect_eq "$(wc -l < "$T/o.screen")" 24 "the screen is still 24 rows"
finish
