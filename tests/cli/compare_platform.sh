#!/usr/bin/env bash
# Platform is part of what a result is (docs/statistics.md, Pairing): runs
# of one source on different platforms never overwrite each other; both
# sides on several platforms pair platform by platform; a key with
# candidates on several platforms and no choice is refused, naming them.
. "$TESTS/cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
H='workload,op,metric,value,unit'
# a paper artifact: one prediction file for two GPUs (byte-identical)
printf '%s\nbert,gemm,time,110,us\nbert,attn,time,190,us\n' "$H" > "$T/pred.csv"
printf '%s\nbert,gemm,time,100,us\nbert,attn,time,200,us\n' "$H" > "$T/a100.csv"
printf '%s\nbert,gemm,time,300,us\nbert,attn,time,500,us\n' "$H" > "$T/v100.csv"
pc import -q -s sim -k perfsim -V 1 --platform A100 "$T/pred.csv"
pc import -q -s sim -k perfsim -V 1 --platform V100 "$T/pred.csv"
pc import -q -s lab -k silicon -V 1 --platform A100 "$T/a100.csv"
pc import -q -s lab -k silicon -V 1 --platform V100 "$T/v100.csv"

# both sides on A100 and V100: four pairs, each against its own GPU
# (before: the V100 runs superseded the A100 ones: two pairs)
# errors: A100 110/100-1 = 0.1, 190/200-1 = -0.05; V100 110/300-1 =
# -0.6333.., 190/500-1 = -0.62 -> MAPE (0.1+0.05+0.63333..+0.62)/4
# = 0.35083333333333333
run pc compare --model sim --ref lab --format json
expect_rc 0 "paired platform by platform"
expect_eq "$(printf '%s' "$out" | j "d['summary']['n']")" "4" "no platform overwrites the other"
expect_eq "$(printf '%s' "$out" | j "round(d['summary']['mape'], 12)")" "0.350833333333" "each against its own GPU"
# --platform picks one for both sides
run pc compare --model sim --ref lab --platform A100 --format json
expect_eq "$(printf '%s' "$out" | j "(d['summary']['n'], round(d['summary']['mape'], 12))")" "(2, 0.075)" "--platform A100: (0.1 + 0.05) / 2"

# a model without a platform against a reference on two: refused
printf '%s\nbert,gemm,time,90,us\nbert,attn,time,180,us\n' "$H" > "$T/roof.csv"
pc import -q -s roof -k roofline -V 1 "$T/roof.csv"
run pc compare --model roof --ref lab
expect_rc 1 "ambiguous platform"
expect_in "'lab@1' holds workload 'bert', op 'gemm', metric 'time' on several platforms ('A100', 'V100')" "$err" "names the key and the platforms"
expect_in "--ref-platform P" "$err" "names the flag that picks one"
run pc compare --model roof --ref lab --ref-platform V100 --format json
expect_rc 0 "--ref-platform picks"
# 90/300-1 = -0.7, 180/500-1 = -0.64 -> bias -0.67
expect_eq "$(printf '%s' "$out" | j "round(d['summary']['bias'], 12)")" "-0.67" "against the V100"
run pc compare --model roof --ref lab --ref-platform H100
expect_rc 1 "unknown platform"
expect_in "'lab@1' has no run on platform 'H100' (its platforms: 'A100', 'V100')" "$err" "lists the platforms"
finish
