#!/usr/bin/env bash
# Issue 39: a parameter is looked up on the workloads of either side. A
# parameter only the reference's workloads carry (opt=tp4 / opt=pp4_1 on
# multi-GPU runs, none on the single-GPU ones the model predicts) is a
# group key and a --where term, not a misspelling: the pairs without it
# group under "" and `--where param.opt=` selects them. A name neither
# side has is still refused, naming the parameters there are.
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
H='workload,op,metric,value,unit'
printf '%s\n' "$H" 'llama/gpu=H100/opt=tp4,e2e,time,100,us' \
	'llama/gpu=H100/opt=pp4_1,e2e,time,200,us' \
	'llama/gpu=H100/bs=1,e2e,time,50,us' 'llama/gpu=H100/bs=8,e2e,time,80,us' \
	'llama/gpu=A100/bs=1,e2e,time,90,us' > "$T/ref.csv"
printf '%s\n' "$H" 'llama/gpu=H100/bs=1,e2e,time,55,us' \
	'llama/gpu=H100/bs=8,e2e,time,84,us' 'llama/gpu=A100/bs=1,e2e,time,99,us' \
	> "$T/model.csv"
pc import -q -s lab -k silicon -V 1 "$T/ref.csv"
pc import -q -s sim -k perfsim -V 1 "$T/model.csv"

run pc compare --model sim --ref lab --op e2e --where param.gpu=H100 \
	--group-by param.opt --format json
expect_rc 0 "group by a parameter only the reference's workloads carry"
expect_eq "$(printf '%s' "$out" | j "[(g['key']['param.opt'], g['n']) for g in d['groups']]")" \
	"[('', 2)]" "the single-GPU pairs group under \"\""
# errors +10% and +5%: MAPE 7.5%
expect_eq "$(printf '%s' "$out" | j "round(d['groups'][0]['mape'], 12)")" \
	"0.075" "the group's MAPE"

run pc compare --model sim --ref lab --where param.opt= --format json
expect_rc 0 "--where param.opt= (workloads without it) on a reference-only parameter"
expect_eq "$(printf '%s' "$out" | j "d['summary']['n']")" "3" "every pair lacks opt"

# a value only the unpaired reference workloads take: nothing pairs,
# said with the values the parameter takes (not "no workload has it")
run pc compare --model sim --ref lab --where param.opt=tp4
expect_rc 1 "--where on a value no pair has"
expect_in "nothing matched" "$err" "nothing matched"
expect_in "parameter 'opt' takes 'tp4', 'pp4_1'" "$err" "the values it takes"
expect_not_in "no selected workload" "$err" "not a misspelling"

# a parameter only the model's workloads carry counts the same way
printf '%s\n' "$H" 'llama/gpu=H100/bs=1,e2e,time,60,us' \
	'llama/gpu=H100/bs=1/tag=x,e2e,time,1,us' > "$T/model2.csv"
pc import -q -s sim2 -k perfsim -V 1 "$T/model2.csv"
run pc compare --model sim2 --ref lab --group-by param.tag --format json
expect_rc 0 "group by a model-only parameter"
expect_eq "$(printf '%s' "$out" | j "[(g['key']['param.tag'], g['n']) for g in d['groups']]")" \
	"[('', 1)]" "model-only parameter: the pair groups under \"\""

# a name neither side has: refused, naming the parameters of both sides
run pc compare --model sim --ref lab --group-by param.optx
expect_rc 1 "a misspelt parameter"
expect_in "no selected workload has a parameter 'optx' (their parameters: 'bs', 'gpu', 'opt')" \
	"$err" "names the parameters of both sides' workloads"
run pc compare --model sim --ref lab --where param.optx=1
expect_rc 1 "a misspelt --where parameter"
expect_in "no selected workload has a parameter 'optx'" "$err" "--where: refused"
# the workload filters still apply: the A100 workloads do not count
run pc compare --model sim --ref lab --where param.gpu=A100 --group-by param.opt
expect_rc 1 "opt only on workloads the filter drops"
expect_in "no selected workload has a parameter 'opt'" "$err" "filtered sides"
finish
