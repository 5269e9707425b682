#!/usr/bin/env bash
# An --op selection small against a run's results is read by seeks per
# (workload, op) (db/pairs.c seek_ops: workloads x selected ops x
# metrics <= results / 16), a larger one by the walk of the run (issue
# 21): both give the pairs of the selected ops, and only those. Study: 8
# workloads x 20 ops, one metric (160 results a side); the model is the
# reference times 1.2 for op x.op1, 1.1 for the y.* ops, 1.05 for the
# others; the model lacks (bs=3, x.op1).
#   --op x.op1: 8 x 1 x 1 = 8 seeks <= 160 / 16 (seeks): 7 pairs, MAPE 0.2
#   --op 'y.*': 8 x 4 = 32 > 10 (walk): 32 pairs, MAPE 0.1
#   --op 'x.op1' --metric time: the same 7 pairs
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
H='workload,op,metric,value,unit'
{ echo "$H"
  for w in 1 2 3 4 5 6 7 8; do
    for o in x.op0 x.op1 x.op2 x.op3 x.op4 x.op5 x.op6 x.op7 x.op8 x.op9 x.op10 x.op11 x.op12 x.op13 x.op14 x.op15 y.a y.b y.c y.d; do
      echo "m/bs=$w,$o,time,$((w * 100)),us"
    done
  done
} > "$T/lab.csv"
{ echo "$H"
  for w in 1 2 3 4 5 6 7 8; do
    for o in x.op0 x.op1 x.op2 x.op3 x.op4 x.op5 x.op6 x.op7 x.op8 x.op9 x.op10 x.op11 x.op12 x.op13 x.op14 x.op15 y.a y.b y.c y.d; do
      case $o in
      x.op1) [ $w = 3 ] && continue; f=1.2 ;;
      y.*) f=1.1 ;;
      *) f=1.05 ;;
      esac
      echo "m/bs=$w,$o,time,$(python3 -c "print($w * 100 * $f)"),us"
    done
  done
} > "$T/sim.csv"
pc import -q -s lab -k silicon -V 1 "$T/lab.csv"
pc import -q -s sim -k perfsim -V 1 "$T/sim.csv"
for sel in "--op x.op1" "--op x.op1 --metric time"; do
	run pc compare --model sim --ref lab $sel --format json --no-ci
	expect_rc 0 "$sel"
	expect_eq "$(printf '%s' "$out" | j "d['summary']['n']")" "7" "$sel: 7 pairs (seeks; one missing)"
	expect_eq "$(printf '%s' "$out" | j "round(d['summary']['mape'], 12)")" "0.2" "$sel: only x.op1's pairs"
done
run pc compare --model sim --ref lab --op 'y.*' --format json --no-ci
expect_rc 0 "--op y.*"
expect_eq "$(printf '%s' "$out" | j "d['summary']['n']")" "32" "y.*: 32 pairs (walk)"
expect_eq "$(printf '%s' "$out" | j "round(d['summary']['mape'], 12)")" "0.1" "y.*: only the y ops"
finish
