#!/usr/bin/env bash
# Pairing never picks silently (docs/statistics.md): the latest of several
# runs is counted (superseded) and said in the table; --pool converts each
# run's cycles with its own clock before averaging.
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
H='workload,op,metric,value,unit'

# --- superseded: two runs of lab@1 hold gemm; the latest (run 2) wins
printf '%s\nw,gemm,time,100,us\nw,attn,time,200,us\n' "$H" > "$T/lab-a.csv"
printf '%s\nw,gemm,time,110,us\n' "$H" > "$T/lab-b.csv"
printf '%s\nw,gemm,time,110,us\nw,attn,time,200,us\n' "$H" > "$T/sim.csv"
pc import -q -s lab -k silicon -V 1 "$T/lab-a.csv"
pc import -q -s lab -k silicon -V 1 "$T/lab-b.csv"
pc import -q -s sim -k perfsim -V 1 "$T/sim.csv"
run pc compare --model sim --ref lab --format json --points
expect_rc 0 "compare"
expect_eq "$(printf '%s' "$out" | j "d['superseded']")" "1" "one pair took the latest of two runs"
# gemm: model 110 vs the latest ref 110 -> err 0 (not 10% against run 1)
expect_eq "$(printf '%s' "$out" | j "float([p['err'] for p in d['points'] if p['op']=='gemm'][0])")" "0.0" "latest run wins"
run pc compare --model sim --ref lab
expect_in "note: 1 pair used the latest of several runs" "$out" "table footer says so"
run pc compare --model sim --ref lab --pool --format json
expect_eq "$(printf '%s' "$out" | j "d['superseded']")" "0" "pooled: nothing superseded"
# pooled gemm ref = (100 + 110) / 2 = 105 us: err = 110/105 - 1 = 0.047619047619047616
expect_eq "$(printf '%s' "$out" | j "round(d['summary']['max_abs_err'], 12)")" "0.047619047619" "pooled mean"

# --- --pool with different clocks: rtl@1 ran at 1 GHz (1000 cycles) and
# at 2 GHz (2000 cycles): both are exactly 1 us. Pooling cycles first gave
# 1500 cycles / 2 GHz = 0.75 us: -25% for an exact pair.
printf '%s\nk,mm,time,1,us\n' "$H" > "$T/hw.csv"
printf '%s\nk,mm,cycles,1000,cycles\n' "$H" > "$T/rtl-1g.csv"
printf '%s\nk,mm,cycles,2000,cycles\n' "$H" > "$T/rtl-2g.csv"
pc import -q -s hw -k silicon -V 1 "$T/hw.csv"
pc import -q -s rtl -k rtl -V 1 --clock-mhz 1000 "$T/rtl-1g.csv"
pc import -q -s rtl -k rtl -V 1 --clock-mhz 2000 "$T/rtl-2g.csv"
run pc compare --model rtl --ref hw --pool --format json --points
expect_rc 0 "pool across clocks"
expect_eq "$(printf '%s' "$out" | j "abs(d['points'][0]['err']) < 1e-15")" "True" "each run converted with its own clock: exact (to the rounding of 1/clock)"
expect_eq "$(printf '%s' "$out" | j "round(d['points'][0]['model'] * 1e6, 12)")" "1.0" "pooled model time 1 us"
# the reference side pooled across clocks: time 1 us pairs with cycles
printf '%s\nk,mm,time,1,us\n' "$H" > "$T/m.csv"
pc import -q -s m -k perfsim -V 1 "$T/m.csv"
run pc compare --model m --ref rtl --pool --format json --points
expect_eq "$(printf '%s' "$out" | j "(abs(d['points'][0]['err']) < 1e-15, d['points'][0]['ref_stddev'], d['summary']['excluded_noisy'])")" "(True, 0, 0)" "pooled reference: no made-up spread"
# cycles with and without a clock cannot be averaged: said, not guessed
printf '%s\nk,mm,cycles,1500,cycles\n' "$H" > "$T/rtl-none.csv"
pc import -q -s rtl -V 1 "$T/rtl-none.csv"
run pc compare --model rtl --ref hw --pool
expect_rc 1 "pool across clock and no clock"
expect_in "cannot be averaged" "$err" "names the problem"
expect_in "rtl-none.csv" "$err" "names the run"
finish
