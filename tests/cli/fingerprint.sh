#!/usr/bin/env bash
# Is the pair comparable? (issue 37) Two runs whose workload fingerprints
# differ in a checked field beyond its tolerance are refused, naming the
# field, both values and the cure; --allow-mismatch pairs them and says
# so; a field only one side states keeps the pair, flagged unverified.
# On the old code every one of these pairs was paired silently.
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
H='workload,op,metric,value,unit'
printf '%s\nw,gemm,time,100,us\nw,attn,time,200,us\n' "$H" > "$T/lab.csv"
printf '%s\nw,gemm,time,110,us\nw,attn,time,190,us\n' "$H" > "$T/sim.csv"

# each case its own pair of sources (the PostgreSQL pass shares one db)
k=0
fresh() { k=$((k + 1)); L=lab$k; S=sim$k; }

# field, model value, reference value (beyond tolerance); every checked
# field of base/fingerprint.c's table (checked below): compare refuses,
# naming it; --allow-mismatch pairs and compare, report and matrix say
# so; the matrix's cell is 'not comparable' until then
seen=""
while read -r f a b; do
	seen="$seen $f"
	fresh
	pc import -q -s "$L" -k silicon -V 1 --meta "fp.$f=$b" "$T/lab.csv"
	pc import -q -s "$S" -k perfsim -V 1 --meta "fp.$f=$a" "$T/sim.csv"
	run pc compare --model $S --ref $L
	expect_rc 1 "$f differs: refused"
	expect_in "not comparable: all 2 pairs" "$err" "$f: every pair refused"
	expect_in "$f differs" "$err" "$f named"
	expect_in "--allow-mismatch $f" "$err" "$f: the cure named"
	run pc compare --model $S --ref $L --allow-mismatch "$f" --format json
	expect_rc 0 "$f allowed: paired"
	expect_eq "$(printf '%s' "$out" | j "(d['summary']['n'], d['not_comparable']['pairs'], d['allow_mismatch'])")" \
		"(2, 0, ['$f'])" "$f: allowed pairs, recorded in the JSON"
	expect_eq "$(printf '%s' "$out" | j "d['mismatch_admitted']")" \
		"{'pairs': 2, 'by_field': {'$f': 2}}" "$f: the pairs it admitted"
	printf '{"name": "p", "model": "%s", "ref": "%s", "rules": [{"name": "all", "max_mape": 0.5}]}\n' \
		$S $L > "$T/p.json"
	run pc gate --policy "$T/p.json"
	expect_in "not comparable" "$err$out" "$f: the gate says not comparable"
	run pc report --model $S --ref $L --no-matrix --no-trend
	expect_rc 1 "$f: report refuses"
	expect_in "--allow-mismatch $f" "$err" "$f: report names the cure"
	run pc report --model $S --ref $L --no-matrix --no-trend --allow-mismatch "$f"
	expect_rc 0 "$f: report with --allow-mismatch"
	expect_in "Allowed mismatches (--allow-mismatch): $f (2 pairs); 2 pairs admitted" \
		"$(printf '%s' "$out" | grep '^\*\*Workload fingerprints')" "$f: the report says so"
	run pc matrix --source $S --source $L
	expect_in "not comparable" "$(printf '%s' "$out" | sed -n 3,6p)" "$f: matrix cell not comparable"
	run pc matrix --source $S --source $L --allow-mismatch "$f" --format json
	expect_eq "$(printf '%s' "$out" | j "([c['n'] for c in d['metrics'][0]['cells']], d['fingerprint']['mismatch_admitted'])")" \
		"([2, 2], 4)" "$f: matrix pairs both keys each way when allowed"
done <<'TABLE'
input_len 1000 1030
output_len 128 131
ignore_eos true false
sampling greedy temperature=0.7
request_rate 10 10.6
request_rate inf 100
concurrency 16 32
warmup_excluded true false
token_counter client server
tp 8 4
pp 1 2
dp 1 2
precision bf16 fp8
kv_cache fp16 fp8-offload
TABLE
checked=$(sed -n 's/^\t{ "\([a-z_]*\)", FP_[A-Z]*, [A-Z0-9]*, 1,.*/\1/p' "$TESTS/../base/fingerprint.c" | sort -u | tr '\n' ' ')
expect_eq "$(printf '%s\n' $seen | sort -u | tr '\n' ' ')" "$checked" \
	"the loop covers every checked field of the table"

# an unchecked field (recorded, never checked) differing: paired as if
# equal, nothing flagged
while read -r f a b; do
	fresh
	pc import -q -s "$L" -k silicon -V 1 --meta "fp.$f=$b" "$T/lab.csv"
	pc import -q -s "$S" -k perfsim -V 1 --meta "fp.$f=$a" "$T/sim.csv"
	run pc compare --model $S --ref $L --format json
	expect_eq "$(printf '%s' "$out" | j "(d['summary']['n'], d['not_comparable']['pairs'], d['unverified'])")" \
		"(2, 0, 0)" "$f differs: recorded, not checked"
	seen="$seen $f"
done <<'TABLE'
input_len_sd 10 200
output_len_sd 1 50
input_tokens 1000 9000
output_tokens 100 900
achieved_request_rate 1 9
tool archsim vllm-bench-serve
tool_version 1.0 0.9
TABLE
all=$(sed -n 's/^\t{ "\([a-z_]*\)", FP_.*/\1/p' "$TESTS/../base/fingerprint.c" | sort -u | tr '\n' ' ')
expect_eq "$(printf '%s\n' $seen | sort -u | tr '\n' ' ')" "$all" \
	"every field of the table is tried"

# within tolerance: 2% lengths, 5% rates: paired as without fingerprint
fresh
pc import -q -s $L -k silicon -V 1 --meta fp.input_len=1000 \
	--meta fp.request_rate=10 --meta fp.tool=vllm "$T/lab.csv"
pc import -q -s $S -k perfsim -V 1 --meta fp.input_len=1019.9 \
	--meta fp.request_rate=10.49 --meta fp.tool=archsim "$T/sim.csv"
run pc compare --model $S --ref $L --format json
expect_rc 0 "within tolerance"
expect_eq "$(printf '%s' "$out" | j "(d['summary']['n'], d['not_comparable']['pairs'], d['unverified'])")" \
	"(2, 0, 0)" "within tolerance: both pairs, none flagged; the tool is never checked"
ident=$(printf '%s' "$out" | j "d['summary']")

# no fingerprint at all: the same statistics (the demo's numbers)
fresh
pc import -q -s $L -k silicon -V 1 "$T/lab.csv"
pc import -q -s $S -k perfsim -V 1 "$T/sim.csv"
run pc compare --model $S --ref $L --format json
expect_eq "$(printf '%s' "$out" | j "d['summary']")" "$ident" "same summary as without fingerprints"
run pc compare --model $S --ref $L
expect_not_in "unverified" "$out" "no line when nothing is unverified"

# one side unstated: kept, flagged, counted
fresh
pc import -q -s $L -k silicon -V 1 --meta fp.ignore_eos=true "$T/lab.csv"
pc import -q -s $S -k perfsim -V 1 "$T/sim.csv"
run pc compare --model $S --ref $L --format json --points
expect_rc 0 "one side unstated: paired"
expect_eq "$(printf '%s' "$out" | j "(d['summary']['n'], d['unverified'])")" "(2, 2)" "kept and counted"
run pc compare --model $S --ref $L --points
expect_in "unverified: 2 pairs" "$out" "text says unverified"
expect_in "unverified" "$(printf '%s' "$out" | grep gemm)" "the pair's flag"

# some pairs refused: the rest paired, the refused counted and said; the
# gate judges no subset (not comparable, exit 2, not a regression) until
# --allow-mismatch or the policy's allow_mismatch
fresh
printf '%s\nw1,gemm,time,100,us\n' "$H" > "$T/l1.csv"
printf '%s\nw2,gemm,time,100,us\n' "$H" > "$T/l2.csv"
printf '%s\nw1,gemm,time,110,us\nw2,gemm,time,300,us\n' "$H" > "$T/s12.csv"
pc import -q -s $L -k silicon -V 1 --meta fp.tp=8 "$T/l1.csv"
pc import -q -s $L -k silicon -V 1 --meta fp.tp=4 "$T/l2.csv"
pc import -q -s $S -k perfsim -V 1 --meta fp.tp=8 "$T/s12.csv"
run pc compare --model $S --ref $L --format json
expect_rc 0 "partly comparable"
expect_eq "$(printf '%s' "$out" | j "(d['summary']['n'], round(d['summary']['mape'], 9), d['not_comparable']['pairs'], d['not_comparable']['field'])")" \
	"(1, 0.1, 1, 'tp')" "w2 (tp 8 vs 4, +200%) left out: MAPE 10%, not 105%"
run pc compare --model $S --ref $L
expect_in "not comparable: 1 pair (1 run pair; first: tp differs" "$out" "text says it"
printf '{"name": "p", "model": "%s", "ref": "%s", "rules": [{"name": "all", "max_mape": 0.5}]}\n' \
	$S $L > "$T/p.json"
run pc gate -n --policy "$T/p.json"
expect_rc 2 "gate over a refused pair: an error, not a verdict"
expect_in "not comparable: 1 of the pairs were refused" "$err" "gate says not comparable"
expect_not_in "FAIL" "$out" "no error regression reported"
run pc gate -n --policy "$T/p.json" --allow-mismatch tp
expect_rc 1 "allowed: w2's +200% fails max_mape 50%"
expect_in "allowed fingerprint mismatches (--allow-mismatch): tp (1 pair); 1 pair admitted" \
	"$err" "the gate says what the allowance let in"
printf '{"name": "p", "model": "%s", "ref": "%s", "allow_mismatch": ["tp"], "rules": [{"name": "all", "max_mape": 0.5}]}\n' \
	$S $L > "$T/p.json"
run pc gate -n --policy "$T/p.json"
expect_rc 1 "the policy's allow_mismatch too"

# importers state what their files say (docs/importers.md)
fresh
pc import -q -s $L -k silicon "$SAMPLES/vllm_bench_serve.json"
expect_eq "$(pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = '$L'" | python3 -c "import json,sys; d=json.load(sys.stdin); print(sorted((k, v) for k, v in d.items() if k.startswith('fp.')))")" \
	"[('fp.achieved_request_rate', '3.919813864'), ('fp.concurrency', '8'), ('fp.input_len', '2048'), ('fp.input_tokens', '409600'), ('fp.output_len', '256'), ('fp.output_tokens', '51200'), ('fp.request_rate', 'inf'), ('fp.tool', 'vllm-bench-serve')]" \
	"vLLM: means per completed request, totals, requested and achieved load"
head -1 "$FIXTURES/hw/sglang/two_models.jsonl" > "$T/sg.jsonl"
pc import -q -s $S -k silicon "$T/sg.jsonl"
expect_eq "$(pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = '$S'" | python3 -c "import json,sys; d=json.load(sys.stdin); print(sorted((k, v) for k, v in d.items() if k.startswith('fp.')))")" \
	"[('fp.achieved_request_rate', '1.968770536'), ('fp.input_len', '2048'), ('fp.input_tokens', '409600'), ('fp.output_len', '256'), ('fp.output_tokens', '51200'), ('fp.precision', 'bf16'), ('fp.request_rate', '2'), ('fp.tool', 'sglang-bench-serving'), ('fp.tool_version', '0.4.9.post2'), ('fp.tp', '1')]" \
	"SGLang: also server_info's tp, dtype and version"
fresh
pc import -q -s $L -k silicon --meta fp.input_len=1000 "$SAMPLES/vllm_bench_serve.json"
expect_eq "$(pcsql "SELECT metadata FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = '$L'" | python3 -c "import json,sys; d=json.load(sys.stdin); print([v for k, v in d.items() if k == 'fp.input_len'])")" \
	"['1000']" "--meta wins over the file, once"

# runs --fingerprint shows them, in the table's order
pc import -q -s $L -k silicon -V 2 --meta 'fp.sampling=temperature=0.7 top_p=0.9' \
	--meta fp.ignore_eos=yes "$T/lab.csv"
run pc runs --fingerprint --source $L --format json
expect_rc 0 "runs --fingerprint"
expect_eq "$(printf '%s' "$out" | j "[(r['version'], r['fingerprint'].get('input_len'), r['fingerprint'].get('ignore_eos'), r['fingerprint'].get('sampling'), list(r['fingerprint'])[:2]) for r in d]")" \
	"[('unversioned', '1000', None, None, ['input_len', 'output_len']), ('2', None, 'true', 'temperature=0.7 top_p=0.9', ['ignore_eos', 'sampling'])]" \
	"json: every stated field, canonical, in table order"
run pc runs --fingerprint --source $L
expect_in 'ignore_eos=true sampling="temperature=0.7 top_p=0.9"' "$out" "table: one column, a value with blanks quoted"
expect_in "input_len=1000 output_len=256" "$out" "table: the vllm run"
run pc runs --fingerprint --source $L --format csv
expect_eq "$(printf '%s\n' "$out" | head -1)" "run_id,source,kind,version,fingerprint" "csv header"
run pc runs --fingerprint --source no-such-source
expect_rc 1 "unknown source"

# bad values and fields are refused at import, the database unchanged
run pc import -s x -k silicon --meta fp.ignore_eos=maybe "$T/lab.csv"
expect_rc 2 "bad boolean"
expect_in "'maybe' is not true or false" "$err" "names the field's form"
run pc import -s x -k silicon --meta fp.nonsense=1 "$T/lab.csv"
expect_in "unknown fingerprint field 'nonsense'" "$err" "unknown field named"
run pc compare --model sim1 --ref lab1 --allow-mismatch tool
expect_in "not a checked field" "$err" "--allow-mismatch of an unchecked field refused"
finish
