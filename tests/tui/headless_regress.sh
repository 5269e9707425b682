# Headless: the regressions view between two model versions (LNT's
# regressions page in a terminal), reached from the trend view with
# Enter: what `perfcorr diff` lists, regressions then improvements, each
# largest change first, with the annotation; the trend per op class and
# per op (b), and Enter on an op's row shows only that op's changes.
. "$(dirname "$0")/../tui/libtui.sh"

# time in us; errors by hand (model - ref) / ref:
#              ref   sim 1.0        sim 1.1         |err| change
# bs=1 gemm_qkv 100  110 (+10%)     101 (+1%)       -9 pt  improved
# bs=1 flash_attn 50  50 (0%)        60 (+20%)      +20 pt regressed
# bs=1 lm_head   10   10 (0%)        10 (0%)          0    unchanged
# bs=8 gemm_qkv 200  220 (+10%)     200 (0%)       -10 pt  improved
# bs=8 flash_attn 100 100 (0%)      130 (+30%)     +30 pt  regressed
# bs=8 lm_head   20   20 (0%)        23 (+15%)     +15 pt  regressed
# MAPE per op, 1.0 -> 1.1: flash_attn 0% -> 25%, lm_head 0% -> 7.5%,
# gemm_qkv 10% -> 0.5%; per op class: attention 0% -> 25%, gemm
# (gemm_qkv and lm_head) (10+10+0+0)/4 = 5% -> (1+0+0+15)/4 = 4%.
cat >"$T/ref.csv" <<CSV
workload,op,metric,value,unit,n,stddev
m/bs=1,gemm_qkv,time,100,us,10,0.1
m/bs=1,flash_attn,time,50,us,10,0.1
m/bs=1,lm_head,time,10,us,10,0.01
m/bs=8,gemm_qkv,time,200,us,10,0.1
m/bs=8,flash_attn,time,100,us,10,0.1
m/bs=8,lm_head,time,20,us,10,0.01
CSV
cat >"$T/sim-1.0.csv" <<CSV
workload,op,metric,value,unit
m/bs=1,gemm_qkv,time,110,us
m/bs=1,flash_attn,time,50,us
m/bs=1,lm_head,time,10,us
m/bs=8,gemm_qkv,time,220,us
m/bs=8,flash_attn,time,100,us
m/bs=8,lm_head,time,20,us
CSV
cat >"$T/sim-1.1.csv" <<CSV
workload,op,metric,value,unit
m/bs=1,gemm_qkv,time,101,us
m/bs=1,flash_attn,time,60,us
m/bs=1,lm_head,time,10,us
m/bs=8,gemm_qkv,time,200,us
m/bs=8,flash_attn,time,130,us
m/bs=8,lm_head,time,23,us
CSV
pc init >/dev/null
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
pc import -q --source sim --kind perfsim --version 1.0 "$T/sim-1.0.csv"
pc import -q --source sim --kind perfsim --version 1.1 "$T/sim-1.1.csv"
pc annotate --workload m/bs=8 --op flash_attn --metric time --model sim \
	--ref lab --status investigating --category modeling-error \
	--note "kv layout" --author ann >/dev/null 2>&1 || fail "annotate"

tui_script 120 30 <<KEYS
3
:save-screen $T/trend.screen
<Enter>
:save-screen $T/first.screen
j
<Enter>
:save-screen $T/regress.screen
q
:save-screen $T/back.screen
b
:save-screen $T/byclass.screen
b
:save-screen $T/byop.screen
j
<Enter>
:save-screen $T/lmhead.screen
Q
KEYS
expect_rc 0 "regressions view"
expect_in "Enter regressions" "$(tail -2 "$T/trend.screen")" \
	"trend footer names Enter"
expect_in "1.0 is the first version: nothing before it" \
	"$(cat "$T/first.screen")" "Enter on the first version says why not"
S=$(cat "$T/regress.screen")
expect_in "sim@1.0 -> 1.1 vs lab@1" "$(screen_line "$T/regress.screen" 1)" \
	"title names both versions and the reference"
expect_in "MAPE 3.3% -> 11.0%   3 regressed, 2 improved, 1 within 1 pt" "$S" \
	"headline: MAPE of both versions and the counts"
# the rows: workload, op, before, after, |err| change, cause, annotation
rows=$(printf '%s\n' "$S" | awk '$1 ~ /^m\/bs=/ { print $1, $2, $4, $5, $6, $8, $9 }' |
	tr '\n' ';')
expect_eq "$rows" "m/bs=8 flash_attn +0.0% +30.0% +30.0 model investigating;m/bs=1 flash_attn +0.0% +20.0% +20.0 model open;m/bs=8 lm_head +0.0% +15.0% +15.0 model open;m/bs=8 gemm_qkv +10.0% +0.0% -10.0 model open;m/bs=1 gemm_qkv +10.0% +1.0% -9.0 model open;" \
	"regressions then improvements, largest change first"
reg=$(printf '%s\n' "$S" | grep -n "Regressions (3)" | cut -d: -f1)
imp=$(printf '%s\n' "$S" | grep -n "Improvements (2)" | cut -d: -f1)
[ -n "$reg" ] && [ -n "$imp" ] && [ "$reg" -lt "$imp" ] && ok ||
	fail "Regressions (3) heading before Improvements (2): $S"
# the same pairs as perfcorr diff, the same deltas
run pc diff --model sim@1.0..1.1 --ref lab --format csv
expect_eq "$(printf '%s\n' "$out" | awk -F, 'NR > 1 { printf "%s %s %.1f;", $1, $2, $10 * 100 }')" \
	"m/bs=8 flash_attn 30.0;m/bs=1 flash_attn 20.0;m/bs=8 lm_head 15.0;m/bs=8 gemm_qkv -10.0;m/bs=1 gemm_qkv -9.0;" \
	"perfcorr diff lists the same pairs"
expect_in "Trend" "$(screen_line "$T/back.screen" 1)" "q goes back to the trend"
# trend per op class and per op: MAPE of 1.0 and 1.1
cls=$(awk '$1 == "attention" || $1 == "gemm" { print $1, $3, $4 }' "$T/byclass.screen" | tr '\n' ';')
expect_eq "$cls" "attention 0.0% 25.0%;gemm 5.0% 4.0%;" "trend per op class"
ops=$(awk '$2 == "time" && $3 ~ /%$/ { print $1, $3, $4 }' "$T/byop.screen" | tr '\n' ';')
expect_eq "$ops" "flash_attn 0.0% 25.0%;lm_head 0.0% 7.5%;gemm_qkv 10.0% 0.5%;" \
	"trend per op, worst last version first"
L=$(cat "$T/lmhead.screen")
expect_in "(lm_head time)" "$(screen_line "$T/lmhead.screen" 1)" "group in the title"
expect_in "Regressions (1)" "$L" "lm_head: one regression"
expect_in "Improvements (0)" "$L" "lm_head: no improvement"
expect_not_in "flash_attn" "$L" "only lm_head's pairs"
finish
