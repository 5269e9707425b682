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

# the sweep shape (issue 21): N/8 distinct keys from a parameter grid, 8
# results each, 50 ops, the key changing on almost every row
run python3 "$GEN" 800 "$T/sweep" --shape sweep
expect_rc 0 "sweep generator runs"
expect_eq "$(wc -l <"$T/sweep/model.csv")" "801" "sweep model rows + header"
expect_eq "$(tail -n +2 "$T/sweep/model.csv" | cut -d, -f1 | sort -u | wc -l)" \
	"100" "N/8 distinct workload keys"
expect_eq "$(tail -n +2 "$T/sweep/model.csv" | cut -d, -f2 | sort -u | wc -l)" \
	"50" "50 ops"
expect_eq "$(tail -n +2 "$T/sweep/model.csv" | cut -d, -f1 | sort | uniq -c |
	awk '$1 != 8' | wc -l)" "0" "8 results per key"
changes=$(tail -n +2 "$T/sweep/model.csv" | cut -d, -f1 | awk 'NR > 1 && $0 != p { c++ } { p = $0 } END { print c + 0 }')
[ "$changes" -ge 760 ] && rc=0 || rc=1
expect_rc 0 "the key changes on almost every row ($changes of 799)"
expect_eq "$(cut -d, -f1-3 "$T/sweep/model.csv" | md5sum)" \
	"$(cut -d, -f1-3 "$T/sweep/silicon.csv" | md5sum)" \
	"silicon has the model's keys in the same order"
run pc --db "$T/sweep.db" import -s sim -k perfsim "$T/sweep/model.csv"
expect_rc 0 "sweep model imports"
run pc --db "$T/sweep.db" import -s hw -k silicon "$T/sweep/silicon.csv"
expect_rc 0 "sweep silicon imports"
run pc --db "$T/sweep.db" compare -m sim -r hw -f json
n=$(printf '%s' "$out" | python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["n"] + s["excluded_noisy"])')
expect_eq "$n" "800" "every planted sweep pair is paired"

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
v=$(pcsql "SELECT count(*) FROM results r JOIN metrics m
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
	expect_in "| kernel | 10k |" "$md" "import row"
	expect_in "| sweep | 10k |" "$md" "sweep import row"
	expect_in "sweep shape (10k)" "$md" "sweep import target"
	expect_in "## Database size on disk" "$md" "size section"
	expect_in "## Scaling" "$md" "scaling section"
	expect_in "Machine:" "$md" "machine line"
else
	echo "skip: /usr/bin/time missing (apt-get install -y time)" >&2
fi
finish
