#!/usr/bin/env bash
# Selection fails loudly (docs/statistics.md, Filters): parameter aliases
# in --where, --group-by and explain --features; an unknown parameter is
# an error naming those that exist; --where param.X= selects workloads
# without X; --workload repeats and negates; "nothing matched" gives the
# counts after each filter and the values a --where parameter takes; a
# bare word after k=v in a workload key is an error, mode=training is the
# way to say training.
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
H='workload,op,metric,value,unit'
{ echo "$H"
  echo 'm/decode/bs=1/fp16,gemm,time,100,us'
  echo 'm/decode/bs=1/fp16,attn,time,200,us'
  echo 'm/decode/bs=8/fp16,gemm,time,400,us'
  echo 'm/decode/bs=8/fp16,attn,time,800,us'
  echo 'm/decode/bs=8/tp=4/fp16,gemm,time,300,us'
} > "$T/lab.csv"
{ echo "$H"
  echo 'm/decode/bs=1/fp16,gemm,time,110,us'
  echo 'm/decode/bs=1/fp16,attn,time,180,us'
  echo 'm/decode/bs=8/fp16,gemm,time,440,us'
  echo 'm/decode/bs=8/fp16,attn,time,880,us'
  echo 'm/decode/bs=8/tp=4/fp16,gemm,time,330,us'
} > "$T/sim.csv"
pc import -q -s lab -k silicon -V 1 "$T/lab.csv"
pc import -q -s sim -k perfsim -V 1 "$T/sim.csv"
n_of() { printf '%s' "$out" | j "d['summary']['n']"; }

# --- aliases as at import: batch is bs, BF16/fp16 spelled any case
run pc compare --model sim --ref lab --where param.batch=8 --format json
expect_rc 0 "--where with an alias"
expect_eq "$(n_of)" "3" "param.batch=8 is bs=8 (3 pairs)"
run pc compare --model sim --ref lab --where param.precision=FP16 --where batch_size=1.0 --format json
expect_eq "$(n_of)" "2" "values normalised: FP16 = fp16, 1.0 = 1"
run pc compare --model sim --ref lab --group-by param.batch --format json
expect_eq "$(printf '%s' "$out" | j "[(g['key']['param.batch'], g['n']) for g in d['groups']]")" "[('1', 2), ('8', 3)]" "--group-by param.batch groups by bs"
# --- a parameter no selected workload has: an error naming those that do
run pc compare --model sim --ref lab --where param.bsz=8
expect_rc 1 "unknown --where parameter"
expect_in "no selected workload has a parameter 'bsz' (their parameters: 'bs', 'phase', 'precision', 'tp')" "$err" "lists the parameters"
run pc compare --model sim --ref lab --group-by param.bsz
expect_rc 1 "unknown --group-by parameter"
expect_in "no selected workload has a parameter 'bsz'" "$err" "group-by lists them too"
run pc explain --model sim --ref lab --features param.bsz
expect_rc 1 "unknown explain feature"
expect_in "no selected workload has a parameter 'bsz'" "$err" "explain lists them too"
# --- param.X= selects the workloads without X
run pc compare --model sim --ref lab --where param.tp= --format json
expect_eq "$(n_of)" "4" "without tp: the 4 pairs of bs=1 and bs=8"
# --- --workload: several globs (any), and negation
run pc compare --model sim --ref lab -w '*bs=1*' -w '*tp=4*' --format json
expect_eq "$(n_of)" "3" "two globs: 2 + 1 pairs"
run pc compare --model sim --ref lab -w '!*tp=4*' --format json
expect_eq "$(n_of)" "4" "negated glob leaves tp=4 out"
run pc compare --model sim --ref lab -w '*bs=8*' -w '!*tp=4*' --format json
expect_eq "$(n_of)" "2" "glob and negation together"
# --- nothing matched: counts after each filter, and the values of the
# --where parameter among the workloads past the other filters
run pc compare --model sim --ref lab --op gemm --where param.bs=4
expect_rc 1 "nothing matched"
expect_in "model 'sim@1' has 5 results: 3 workloads, 2 ops, metrics 'time' (left after each filter: op 3, parameter 0)" "$err" "counts after each filter"
expect_in "parameter 'bs' takes '1', '8'" "$err" "values of bs"
run pc compare --model sim --ref lab --metric power
expect_rc 1 "metric nothing"
expect_in "(left after each filter: metric 0)" "$err" "metric count"

# --- workload keys: a bare word after k=v is an error; mode= says training
printf '%s\nbert-large/bs=2/seq=512/training,e2e,time,1,s\n' "$H" > "$T/train.csv"
before=$(db_digest)
run pc import -s tr -k silicon "$T/train.csv"
expect_rc 1 "bare word after k=v"
expect_in "train.csv:2: workload 'bert-large/bs=2/seq=512/training': the bare word 'training' after a k=v part would be merged into the name" "$err" "says where the word would go"
expect_in "mode=training" "$err" "names the cure"
expect_eq "$(db_digest)" "$before" "nothing written"
printf '%s\nbert-large/bs=2/seq=512/mode=Training,e2e,time,1,s\nbert-large/training/bs=2,e2e,time,2,s\n' "$H" > "$T/train.csv"
run pc import -s tr -k silicon "$T/train.csv"
expect_rc 0 "mode=training, and a word before the parameters"
run pc workloads --format csv
expect_in "bert-large/bs=2/mode=training/seq=512" "$out" "mode is a parameter (lower-cased)"
expect_in "bert-large/training/bs=2" "$out" "a word before k=v is part of the name"
finish
