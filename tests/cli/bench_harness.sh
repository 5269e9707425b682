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

# bench.py end to end on the smallest tier, without the peers (a check of
# the harness, not a timed test: no figure is judged here)
if [ -x /usr/bin/time ]; then
	BENCH_TIERS=10k BENCH_REPS=1 BENCH_PEERS=0 BENCH_DIR="$T/bench" \
		BENCH_RESULTS="$T/bench.json" BENCH_OUT="$T/bench.md" \
		python3 "$TESTS/bench/bench.py" "$PERFCORR" >/dev/null \
		2>"$T/bench.err"
	rc=$?
	expect_rc 0 "bench.py runs ($(tail -3 "$T/bench.err"))"
	md=$(cat "$T/bench.md" 2>/dev/null)
	expect_in "| kernel-10k | " "$md" "kernel rows"
	expect_in "| sweep-10k | " "$md" "sweep rows"
	expect_in "## Targets (issue 21)" "$md" "targets section"
	expect_in "## Database size on disk" "$md" "size section"
	expect_in "## Derived commands" "$md" "derived commands section"
	expect_in "Machine:" "$md" "machine line"
	# the floor reader pairs what compare pairs
	expect_in '"floor_pairs": 10000' "$(tr -d '\n' <"$T/bench.json")" \
		"floor_compare.c pairs every planted pair"
	# re-rendering the saved run writes the same markdown
	BENCH_OUT="$T/again.md" python3 "$TESTS/bench/bench.py" --render \
		"$T/bench.json" 2>/dev/null
	expect_eq "$(cmp "$T/bench.md" "$T/again.md" && echo same)" "same" \
		"--render reproduces the markdown"
else
	echo "skip: /usr/bin/time missing (apt-get install -y time)" >&2
fi

# the Targets table from a saved run with known figures (no measuring):
# kernel-1M import 3.00 s vs sqlite3 .import 2.00 s = 1.50x (<= 1.5: yes);
# compare 2.00 s vs pandas+scipy 8.00 s = 4.0x (>= 5x: no, linked to its
# paragraph); compare 2.00 s over 1 s = 2.00x: no; 96 MiB / 1M pairs =
# 100.7 B/pair (> 64: no); --metric: 250000 of 1000000 pairs (25%) for
# 0.60 s of 2.00 s (30%): 1.20x (<= 1.5: yes); group-by 2.40 / 2.00 =
# 1.20x (yes); report 2.40 - 2.00 = +0.40 s (yes); index 5.00 / 2.00 =
# 2.50x (no); cached open 30 ms (yes)
cat >"$T/known.json" <<'JSON'
{"version": 2, "machine": "test", "entries": {"kernel-1M": {
 "meta": {"date": "2026-12-01 00:00", "commit": "x", "load_start": [1, 1, 1],
  "load_end": [1, 1, 1], "reps": 3, "reps2": 3, "n": 1000000, "wall": 1},
 "res": {"import": {"M": [3, 3.0, 20, ""]}, "floor": {"M": [2, 2.0, 5, ""]},
  "import2": {"M": [3, 3.0, 20, ""]}, "csv_bytes": 76000000,
  "import_db_bytes": 1, "floor_db_bytes": 1, "study_db_bytes": 1,
  "import_rss40": {"M": [1, 1.0, 10, ""]}, "rss40_bytes": 40000000,
  "compare": {"M": [2, 2.0, 96, ""]}, "floor_compare": {"M": [1, 1.0, 5, ""]},
  "pairs": 1000000, "floor_pairs": 1000000,
  "peer_compare": {"M": [8, 8.0, 500, ""]}, "peer_agree": [1e-12, true, 5],
  "cmp_metric": {"M": [1, 0.6, 30, ""]}, "cmp_metric_pairs": 250000,
  "cmp_grp": {"M": [2, 2.4, 96, ""]}, "report": {"M": [2, 2.4, 96, ""]},
  "report_html_bytes": 1048576, "index": {"M": [5, 5.0, 96, ""]},
  "tui": ["first_screen_ms 31.0 cpu 30.0\nkey j 1.0 cpu 1.0\n"]}}}}
JSON
BENCH_OUT="$T/known.md" python3 "$TESTS/bench/bench.py" --render \
	"$T/known.json" 2>"$T/known.err"
expect_rc 0 "render a saved run"
md=$(cat "$T/known.md")
expect_in '| import <= 1.5x `sqlite3 .import` | kernel | 1M | 3.00 s vs 2.00 s CPU | 1.50x | **yes** |' "$md" "import ratio at the bound is met"
expect_in '| compare >= 5x faster than pandas + scipy | kernel | 1M | 2.00 s vs 8.00 s CPU | 4.0x | **no** | [profile, floor](#miss-compare-peer) |' "$md" "a miss links to its paragraph"
expect_in '| compare < 1 s at 1M | kernel | 1M | 2.00 s CPU (floor: C reader of the same query 1.00 s) | 2.00x | **no** |' "$md" "compare time against 1 s, floor beside it"
expect_in '101 B/pair' "$md" "bytes per pair"
expect_in '25% of the pairs, 30% of the CPU (0.60 s) | 1.20x | **yes** |' "$md" "selection in proportion"
expect_in '| 2.40 s vs 2.00 s CPU | 1.20x | **yes** |' "$md" "group-by ratio"
expect_in '| +0.40 s | **yes** |' "$md" "report html against compare + 0.5 s"
expect_in '| `index` (first TUI open) <= 2x compare | kernel | 1M | 5.00 s vs 2.00 s CPU | 2.50x | **no** |' "$md" "index ratio"
expect_in '| 30 ms CPU to the first screen (median of 1) | 0.60x | **yes** |' "$md" "cached TUI open"
expect_in '| 10 MB (40 MB file) vs 20 MB (76 MB file' "$md" "RSS against file size"
# every target missed in the saved run has its paragraph in notes.md
expect_eq "$(grep -c 'no paragraph' "$T/known.md")" "0" "no miss without its paragraph"
# runs made apart merge per shape and tier (the 10k run has no 1M rows)
if [ -f "$T/bench.json" ]; then
	BENCH_RESULTS="$T/merged.json" BENCH_OUT="$T/merged.md" \
		python3 "$TESTS/bench/bench.py" --merge "$T/bench.json" \
		"$T/known.json" 2>/dev/null
	md=$(cat "$T/merged.md")
	expect_in "| kernel-10k | " "$md" "merged: the 10k run"
	expect_in "| kernel-1M | 2026-12-01 00:00 | x |" "$md" "merged: the saved 1M run"
fi
finish
