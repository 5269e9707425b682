# Headless: search feedback ("match 2/5", "search wrapped"), the flag
# legend in ?, units in the detail view, the roofline's limiter as a word,
# the clock in MHz in the runs view.
. "$(dirname "$0")/../tui/libtui.sh"
build_db
# a roofline that says what bounds the op (limiter 0 = memory), and an
# RTL run in cycles at 1755 MHz
cat > "$T/roof.csv" <<CSV
workload,op,metric,value,unit
llama3-8b/decode/bs=32/seq=2048/bf16,gemm_qkv,limiter,0,1
llama3-8b/decode/bs=32/seq=2048/bf16,gemm_mlp,limiter,1,1
CSV
pc import --source roof2 --kind roofline --version 1.1 "$T/roof.csv" >/dev/null
cat > "$T/cyc.csv" <<CSV
workload,op,metric,value,unit
llama3-8b/decode/bs=32/seq=2048/bf16,gemm_qkv,cycles,351000,cycles
CSV
pc import --source t200-rtl --kind rtl --version r1 --clock-mhz 1755 \
	"$T/cyc.csv" >/dev/null

# gemm rows in |err| order: 1 gemm_qkv, 5 gemm_qkv, 6 gemm_moe, 8 gemm_mlp,
# 10 gemm_mlp (hand from the start screen): 5 matches
tui_script 100 30 <<KEYS
/gemm<Enter>
:save-screen $T/s1.screen
n
:save-screen $T/s2.screen
G
n
:save-screen $T/s3.screen
N
:save-screen $T/s4.screen
?
:save-screen $T/help.screen
q
g
<Enter>
:save-screen $T/detail.screen
4
:save-screen $T/runs.screen
KEYS
expect_rc 0 "search, help, detail, runs"
# from row 1 (itself a match) / goes to the next: row 5, match 2 of 5
expect_in "'gemm': match 2/5" "$(tail -1 "$T/s1.screen")" "match 2/5"
expect_in "row 5/12" "$(screen_line "$T/s1.screen" 1)" "/ lands on row 5"
expect_in "'gemm': match 3/5" "$(tail -1 "$T/s2.screen")" "n: match 3/5"
expect_in "'gemm': match 1/5, search wrapped" "$(tail -1 "$T/s3.screen")" \
	"n past the last wraps and says so"
expect_in "'gemm': match 5/5, search wrapped" "$(tail -1 "$T/s4.screen")" \
	"N before the first wraps and says so"
# the flag legend
for f in "N within the reference's noise" "X noisy reference, excluded" \
	"S speed-of-light violation" "W waived" "I invalid, excluded" \
	"+ new, ! changed" "~ cut: the text goes on"; do
	expect_in "$f" "$(sed -n 2,8p "$T/help.screen")" "legend: $f"
done
# the detail: values with units (150 us = 0.150 ms), the limiter a word
expect_in "model 150 us  ref 210 us" "$(cat "$T/detail.screen")" "units in the detail"
expect_in "memory" "$(grep ' limiter ' "$T/detail.screen")" "limiter as a word"
expect_in "351 kcycles" "$(cat "$T/detail.screen")" "cycles keep their unit"
# runs: the clock in MHz
expect_in "clock" "$(screen_line "$T/runs.screen" 2)" "clock heading"
expect_in "1755 MHz" "$(grep t200-rtl "$T/runs.screen")" "clock in MHz"
finish
