# First tries that failed a new user (issue 35 item 10), on the demo:
# explain with its default features, a glob in annotate --workload
# without --pattern, a mistyped flag, command, format or metric, a file
# no importer recognises.
. "$(dirname "$0")/../cli/lib.sh"
cd "$FIXTURES/.."
bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB" </dev/null >/dev/null 2>&1 ||
	fail "demo import"

# explain, default features (op and every parameter): the serving
# workloads' parameters and phase=prefill are combinations of the others
run pc explain --model archsim --ref h100-lab --format json
expect_rc 0 "explain with the default features fits ($err)"
printf '%s\n' "$out" >"$T/x.json"
expect_eq "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["terms"]), d["n"])
for x in d["dropped"]: print(x)
' "$T/x.json")" "13 50
param.precision (constant)
param.max_concurrency=8 (aliased: = +1 (intercept) -1 param.bs=1 -1 param.bs=32 -1 param.bs=8 ...: left out)
param.num_prompts=200 (aliased: = +1 (intercept) -1 param.bs=1 -1 param.bs=32 -1 param.bs=8: left out)
param.phase=prefill (aliased: = +1 param.bs=1 +1 param.bs=32 +1 param.bs=8 -1 param.phase=decode: left out)
param.request_rate=inf (aliased: = +1 (intercept) -1 param.bs=1 -1 param.bs=32 -1 param.bs=8: left out)
param.seq=2048 (aliased: = +1 param.bs=1 +1 param.bs=32 +1 param.bs=8: left out)" \
	"the aliased columns, each with what determines it"
# the stated relation holds on the pairs (plain python over compare's
# points and the workload keys): prefill = bs=1 + bs=8 + bs=32 - decode
run pc compare --model archsim --ref h100-lab --points --format json
printf '%s\n' "$out" >"$T/p.json"
expect_eq "$(python3 -c '
import json, sys
ok = True
for p in json.load(open(sys.argv[1]))["points"]:
    w = p["workload"].split("/")
    ind = lambda s: 1 if s in w else 0
    ok &= ind("prefill") == ind("bs=1") + ind("bs=8") + ind("bs=32") - ind("decode")
print(ok)
' "$T/p.json")" "True" "the aliasing the message states is true of the data"
run pc explain --model archsim --ref h100-lab
expect_in "dropped: param.phase=prefill (aliased: = +1 param.bs=1" "$out" \
	"the table says which"

# a glob in --workload without --pattern: refused, nothing written
digest=$(db_digest)
run pc annotate --workload 'llama3-8b/decode/*' --op flash_attn \
	--metric time --status open --note x
expect_rc 2 "glob without --pattern"
expect_in "perfcorr annotate: --workload 'llama3-8b/decode/*' looks like a glob: add --pattern (without it the key is one literal pair, canonicalised into 'llama3-8b/*/decode')" \
	"$err" "the cure named"
run pc annotate --op 'gemm_*' --status open
expect_rc 2 "op glob without --pattern"
expect_in "--op 'gemm_*' looks like a glob: add --pattern" "$err" "op glob"
expect_eq "$(db_digest)" "$digest" "nothing written"
run pc annotate --workload 'llama3-8b/decode/*' --op flash_attn \
	--metric time --pattern --status open --note x
expect_rc 0 "with --pattern it is a pattern ($err)"

# did you mean: flags of every command, commands, formats
run pc gate --polcy x.json
expect_rc 2 "mistyped flag"
expect_in "perfcorr gate: unknown option '--polcy': did you mean '--policy'?" \
	"$err" "gate flag"
run pc compare --modle archsim --ref h100-lab
expect_in "unknown option '--modle': did you mean '--model'?" "$err" "compare flag"
run pc report --fromat md
expect_in "unknown option '--fromat': did you mean '--format'?" "$err" "report flag"
run pc compare --xyzzy
expect_eq "$(head -1 <<<"$err")" "perfcorr compare: unknown option '--xyzzy'" \
	"nothing close: no guess"
run pc compar
expect_rc 2 "mistyped command"
expect_in "perfcorr: unknown command 'compar': did you mean 'compare'?" "$err" \
	"command"
run pc import -s x -k silicon -V 1 --format perfcorr-cvs "$FIXTURES/demo/h100-cloud.csv"
expect_in "unknown format 'perfcorr-cvs': did you mean 'perfcorr-csv'?" "$err" \
	"format"

# an unknown metric lists the metrics each side has, and the closest
run pc compare --model archsim --ref h100-lab --metric latency
expect_rc 1 "unknown metric"
# the model side's counts and metrics, against plain python over the
# model's exported results (the demo grows: no number is written here)
pc export results --source archsim >"$T/archsim.csv" || fail "export archsim"
printf '%s\n' "$err" >"$T/metric.err"
expect_eq "$(python3 -c '
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["version"] == "2.4.0"]
want = (len(rows), len({r["workload"] for r in rows}),
	len({r["op"] for r in rows}), {r["metric"] for r in rows})
m = re.search(r"no metric named .latency.: model .archsim@2\.4\.0. has "
	r"(\d+) results: (\d+) workloads, (\d+) ops, metrics ([^(]*) \(",
	open(sys.argv[2]).read())
got = m and (int(m[1]), int(m[2]), int(m[3]),
	set(re.findall(r"\x27([^\x27]+)\x27", m[4])))
print(got == want, got if got != want else "")
' "$T/archsim.csv" "$T/metric.err")" "True " "the metrics present"
run pc compare --model archsim --ref h100-lab --metric tpt
expect_in "no metric named 'tpt' (did you mean 'tpot'?)" "$err" "metric typo"

# a file no importer recognises: the three closest formats and what each
# misses, not 42 zero scores
printf 'kernel,duration_us\ngemm,12.5\n' >"$T/k.csv"
run pc import -s x -k silicon -V 1 "$T/k.csv"
expect_rc 1 "unrecognised file"
expect_in "k.csv: cannot tell the format (no importer recognises it; closest: perfcorr-csv (found ','; missing 'workload', 'op', 'metric'), nsys-kern-sum (found ','; missing 'Total Time', 'Instances', 'Avg' or 'Average', 'Name'), llm-viewer (found ','; missing 'layer_name,OPs,Access,arithmetic_intensity')); use --format NAME" \
	"$err" "the closest formats"
expect_not_in "=0" "$err" "no zero scores"
finish
