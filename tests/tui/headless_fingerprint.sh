# Is the pair comparable? in the TUI (issue 37). w2's reference ran tp 4,
# the model tp 8: that pair is refused, never a row (its +200% would be
# the worst discrepancy), the header says 'refused 1 (tp)'; the w1 pairs
# are kept, flagged ? (only the reference states ignore_eos) and counted
# '? 2'; the detail shows both fingerprints, marked. --allow-mismatch tp
# pairs w2 and says so. On the old code the list held w2 (3 rows), no ?.
. "$(dirname "$0")/../tui/libtui.sh"
export NO_COLOR=1
H='workload,op,metric,value,unit'
printf '%s\nw1,gemm,time,100,us\nw1,attn,time,200,us\n' "$H" > "$T/l1.csv"
printf '%s\nw2,gemm,time,100,us\n' "$H" > "$T/l2.csv"
printf '%s\nw1,gemm,time,110,us\nw1,attn,time,190,us\nw2,gemm,time,300,us\n' \
	"$H" > "$T/s.csv"
pc init >/dev/null
pc import -q -s lab -k silicon -V 1 --meta fp.tp=8 --meta fp.ignore_eos=true \
	"$T/l1.csv"
pc import -q -s lab -k silicon -V 1 --meta fp.tp=4 "$T/l2.csv"
pc import -q -s sim -k perfsim -V 1 --meta fp.tp=8 "$T/s.csv"

tui_script 120 30 --model sim --ref lab <<KEYS
:save-screen $T/start.screen
<Enter>
:save-screen $T/detail.screen
q
fflag=unverified<Enter>
:save-screen $T/filter.screen
q
KEYS
expect_rc 0 "review"
head2=$(screen_line "$T/start.screen" 2)
expect_in "n 2 " "$head2" "the refused pair is no pair"
expect_in "? 2" "$head2" "header counts the unverified pairs"
expect_in "refused 1 (tp)" "$head2" "header counts the refused pair and names the field"
expect_eq "$(grep -c '^ *w2 ' "$T/start.screen")" 0 "w2 (tp 8 vs 4) is not a row"
expect_eq "$(grep -c ' w1 .*gemm.*?\| w1 .*attn.*?' "$T/start.screen")" 2 "both w1 rows flagged ?"
d=$(cat "$T/detail.screen")
expect_in "Workload fingerprint (model run 3 vs reference run 1" "$d" "detail: the pair's runs"
expect_in "ignore_eos" "$(grep 'ignore_eos' "$T/detail.screen")" "detail: the field"
expect_in "? unverified: only the reference states it" "$(grep 'ignore_eos' "$T/detail.screen")" \
	"detail: unverified field marked"
expect_in "8" "$(grep ' tp ' "$T/detail.screen")" "detail: tp shown"
expect_in "=" "$(grep ' tp ' "$T/detail.screen")" "detail: tp the same"
expect_in "unverified (?)" "$(screen_line "$T/detail.screen" 5)" "detail: the point says unverified"
expect_in "row 1/2" "$(screen_line "$T/filter.screen" 1)" "filter flag=unverified: the two rows"

tui_script 120 30 --model sim --ref lab --allow-mismatch tp <<KEYS
:save-screen $T/allow.screen
/w2<Enter>
<Enter>
:save-screen $T/detail2.screen
q
q
KEYS
expect_rc 0 "review with --allow-mismatch tp"
head2=$(screen_line "$T/allow.screen" 2)
expect_in "n 3 " "$head2" "w2 paired"
expect_in "mismatch-allowed 1" "$head2" "header counts the admitted pair"
expect_not_in "refused" "$head2" "nothing refused"
expect_in "! differs, allowed (--allow-mismatch tp)" "$(grep ' tp ' "$T/detail2.screen")" \
	"detail: allowed mismatch marked"
expect_in "reference run 2" "$(cat "$T/detail2.screen")" "detail of w2: run 2"

run pc tui --help
expect_in "--allow-mismatch FIELD" "$out" "tui --help names the option"
tui_script 80 24 --model sim --ref lab --allow-mismatch tool </dev/null
expect_rc 2 "an unchecked field is refused"
expect_in "not a checked field" "$err" "says why"

# every pair refused: no review of a workload mismatch, the cure named
pc import -q -s lab2 -k silicon -V 1 --meta fp.tp=4 "$T/l1.csv"
tui_script 80 24 --model sim --ref lab2 </dev/null
expect_rc 1 "all refused: an error"
expect_in "not comparable: all 2 pairs" "$err" "says so"
expect_in "--allow-mismatch tp" "$err" "and the cure"
finish
