# The benchmark harness (tests/bench): the generator writes studies perfcorr
# imports whole (native CSV and nsys kernel summaries), the pairs it plants
# are found by compare, and bench.py writes its markdown table from a run.
. "$(dirname "$0")/../cli/lib.sh"
GEN="$TESTS/bench/gen.py"

run python3 "$GEN" 400 "$T/study" --nsys-workloads 2
expect_rc 0 "generator runs"
expect_eq "$(wc -l <"$T/study/model.csv")" "401" "model rows + header"
expect_eq "$(wc -l <"$T/study/silicon.csv")" "401" "silicon rows + header"
expect_eq "$(head -1 "$T/study/silicon.csv")" \
	"workload,op,metric,value,unit,n,stddev,min,max" "silicon header"
nsys=$(ls "$T/study/nsys" | wc -l)
expect_eq "$nsys" "2" "one nsys summary per workload asked for"
f=$(ls "$T/study/nsys"/*.csv | head -1)
expect_eq "$(head -1 "$f")" \
	"Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name" \
	"nsys header"
# deterministic: the same seed writes the same bytes
python3 "$GEN" 400 "$T/again" --nsys-workloads 0
expect_eq "$(cmp "$T/study/model.csv" "$T/again/model.csv" && echo same)" \
	"same" "same seed, same study"

run pc import -s sim -k perfsim "$T/study/model.csv"
expect_rc 0 "model imports"
expect_in "400 results" "$err" "every model row stored"
run pc import -s hw -k silicon "$T/study/silicon.csv"
expect_rc 0 "silicon imports"
expect_in "400 results" "$err" "every silicon row stored"
run pc import -s nsys -k silicon -w llama3-8b/prefill/bs=1 "$f"
expect_rc 0 "nsys summary imports"
expect_in "(nsys-kern-sum)" "$err" "detected as nsys"
# SI normalisation: model us and silicon ns land in seconds
v=$(sqlite3 "$PERFCORR_DB" "SELECT count(*) FROM results r JOIN metrics m
	ON m.id = r.metric_id WHERE m.name = 'time' AND r.value > 1")
expect_eq "$v" "0" "times stored in seconds"

run pc compare -m sim -r hw -f json
expect_rc 0 "compare the study"
n=$(printf '%s' "$out" | python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["n"] + s["excluded_noisy"])')
expect_eq "$n" "400" "every planted pair is paired (used or noisy)"

# bench.py end to end on the smallest tier, without the peers
if [ -x /usr/bin/time ]; then
	BENCH_TIERS=10k BENCH_REPS=1 BENCH_PEERS=0 BENCH_DIR="$T/bench" \
		BENCH_OUT="$T/bench.md" python3 "$TESTS/bench/bench.py" \
		"$PERFCORR" >/dev/null 2>"$T/bench.err"
	rc=$?
	expect_rc 0 "bench.py runs ($(tail -3 "$T/bench.err"))"
	md=$(cat "$T/bench.md" 2>/dev/null)
	expect_in "| 10k |" "$md" "import row"
	expect_in "## Database size on disk" "$md" "size section"
	expect_in "## Scaling" "$md" "scaling section"
	expect_in "Machine:" "$md" "machine line"
else
	echo "skip: /usr/bin/time missing (apt-get install -y time)" >&2
fi
finish
