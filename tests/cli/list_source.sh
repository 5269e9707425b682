# sources --source and workloads --source filter, and their help says
# what (issue 35 QA 6). Both took --source described as "only this
# source (runs)" and ignored it: `workloads --source sim` listed every
# workload with every source's result count, `sources --source sim`
# every source. Now sources lists that source's row; workloads the
# workloads that source's runs hold results of, counting only its
# results; an unknown source is refused, naming it.
. "$(dirname "$0")/../cli/lib.sh"
C=$FIXTURES/corr
pc init >/dev/null 2>&1
pc import -q -s lab -k silicon -V w47 "$C/lab.csv" || fail "import lab"
cat > "$T/sim.csv" <<'CSV'
workload,op,metric,value,unit
m/decode/bs=1/fp16,gemm,time,110,us
m/prefill/bs=4/fp16,gemm,time,900,us
m/prefill/bs=4/fp16,attn,time,300,us
CSV
pc import -q -s sim -k perfsim -V 1.0 "$T/sim.csv" || fail "import sim"

# the counts by hand: lab.csv holds bs=1 x2 and bs=8 x3; sim.csv bs=1 x1
# and prefill/bs=4 x2
run pc sources --source sim --format csv
expect_rc 0 "sources --source"
expect_eq "$(printf '%s\n' "$out" | cut -d, -f1,2,3,5)" "source,kind,runs,results
sim,perfsim,1,3" "sources --source sim: its row only"
run pc sources --format csv
expect_eq "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f1 | sort | tr '\n' ' ')" \
	"lab sim " "sources: every source"
run pc workloads --source sim --format csv
expect_rc 0 "workloads --source"
expect_eq "$(printf '%s\n' "$out" | tail -n +2 | awk -F, '{ print $1, $NF }' | tr '\n' ';')" \
	"m/decode/bs=1/fp16 1;m/prefill/bs=4/fp16 2;" \
	"workloads --source sim: its workloads, its results counted"
run pc workloads --source lab --format csv
expect_eq "$(printf '%s\n' "$out" | tail -n +2 | awk -F, '{ print $1, $NF }' | tr '\n' ';')" \
	"m/decode/bs=1/fp16 2;m/decode/bs=8/fp16 3;" "workloads --source lab"
run pc workloads --format csv
expect_eq "$(printf '%s\n' "$out" | tail -n +2 | awk -F, '{ print $1, $NF }' | tr '\n' ';')" \
	"m/decode/bs=1/fp16 3;m/decode/bs=8/fp16 3;m/prefill/bs=4/fp16 2;" \
	"workloads: every workload, every result"
run pc workloads --source nosuch
expect_rc 1 "an unknown source"
expect_in "no source named 'nosuch'" "$err" "refused, naming it"

# the help says what --source filters in each listing
expect_in "only this source's row" "$(pc sources --help)" "sources --help"
expect_in "only the workloads this source's runs hold results of" \
	"$(pc workloads --help)" "workloads --help"
expect_in "only this source's runs" "$(pc runs --help)" "runs --help"
for c in sources workloads runs; do
	expect_not_in "(runs)" "$(pc $c --help)" "$c --help: not 'only this source (runs)'"
	expect_in "[--source NAME]" "$(pc $c --help | head -1)" "$c usage names --source"
done
finish
