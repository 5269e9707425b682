# The import remembers each workload text it has resolved (src/import.c:
# a repeated key is not canonicalised again) and inserts a workload new
# to the database with statements prepared once (db/writer.c). Both must
# store exactly what canonicalising every row stores: spellings of one
# workload share one id wherever they appear in the file, a workload
# already in the database keeps its id, and a repeated result is refused
# at its own line under the canonical key.
. "$(dirname "$0")/../cli/lib.sh"
H="workload,op,metric,value,unit"
pc init >/dev/null

# two workloads, each spelled three ways, interleaved (the key changes
# on every row, and every spelling comes back after another workload)
printf '%s\n' "$H" \
	"llama/batch=8/seq_len=128/BF16,a,time,1,us" \
	"other/bs=2,a,time,2,us" \
	"llama/bs=8/seq=128/bf16,b,time,3,us" \
	"other/batch_size=2.0,b,time,4,us" \
	"llama/seq=128/bs=8.0/bf16,c,time,5,us" \
	"other/bs=2,c,time,6,us" \
	"llama/batch=8/seq_len=128/BF16,d,time,7,us" > "$T/a.csv"
run pc import -s sim -k perfsim "$T/a.csv"
expect_rc 0 "interleaved spellings import"
expect_eq "$(pcsql "SELECT group_concat(key, ' ') FROM (SELECT key FROM workloads ORDER BY id)")" \
	"llama/bs=8/seq=128/bf16 other/bs=2" "one workload per canonical key, in order of first sight"
# each result under its own row's workload: values 1 3 5 7 are llama's
expect_eq "$(pcsql "SELECT w.key, group_concat(r.raw_value, ' ') FROM results r JOIN workloads w ON w.id = r.workload_id GROUP BY w.id ORDER BY w.id" | tr '\n' ';')" \
	"llama/bs=8/seq=128/bf16|1.0 3.0 5.0 7.0;other/bs=2|2.0 4.0 6.0;" \
	"every row under its workload"
expect_eq "$(pcsql "SELECT count(*) FROM workload_params")" "4" \
	"parameters stored once per workload (bs, seq, precision; bs)"

# another source spells them differently: the workloads already stored
# are found, not inserted again
printf '%s\n' "$H" \
	"other/batch=2,a,time,2,us" \
	"llama/bf16/bs=8/seqlen=128,a,time,1,us" \
	"new/bs=1,a,time,1,us" \
	"other/batch=2,b,time,2,us" > "$T/b.csv"
run pc import -s hw -k silicon "$T/b.csv"
expect_rc 0 "second source imports"
expect_eq "$(pcsql "SELECT group_concat(id || '=' || key, ' ') FROM (SELECT id, key FROM workloads ORDER BY id)")" \
	"1=llama/bs=8/seq=128/bf16 2=other/bs=2 3=new/bs=1" "existing ids kept, one new"
expect_eq "$(pcsql "SELECT group_concat(workload_id, ' ') FROM (SELECT workload_id FROM results r JOIN runs u ON u.id = r.run_id JOIN sources s ON s.id = u.source_id WHERE s.name = 'hw' ORDER BY r.seq)")" \
	"2 1 3 2" "second source's rows under the stored ids"

# a repeated result, spelled another way, rows after its first: refused
# at its line, under the canonical key; nothing stored
printf '%s\n' "$H" \
	"m1/bs=1/bf16,a,time,1,us" \
	"m2/bs=1/bf16,a,time,1,us" \
	"m1/bs=1/bf16,b,time,1,us" \
	"m2/bs=1/bf16,b,time,2,us" \
	"m1/batch=1/BF16,a,time,3,us" > "$T/dup.csv"
digest=$(db_digest)
run pc import -s dup -k perfsim "$T/dup.csv"
expect_rc 1 "repeated result refused"
expect_in "dup.csv:6: duplicate result for workload 'm1/bs=1/bf16', op 'a', metric 'time'" \
	"$err" "at its line, canonical key"
expect_eq "$(db_digest)" "$digest" "nothing stored"

# a remembered workload does not hide a later row's own error
printf '%s\n' "$H" "m1/bs=1,a,time,1,us" "m2/bs=1,a,time,1,us" \
	"m1/bs=1,b,time,1,furlong" > "$T/unit.csv"
run pc import -s unit -k perfsim "$T/unit.csv"
expect_rc 1 "bad unit on a remembered workload"
expect_in "unit.csv:4: unknown unit 'furlong'" "$err" "names the line"
printf '%s\n' "$H" "m1/bs=1,a,time,1,us" "bs=8,a,time,1,us" > "$T/noname.csv"
run pc import -s noname -k perfsim "$T/noname.csv"
expect_rc 1 "workload without a name"
expect_in "noname.csv:3: workload 'bs=8' has no name" "$err" "names the line"
expect_eq "$(db_digest)" "$digest" "nothing stored"

# the sweep shape: N/8 workloads, each a grid point with its parameters
python3 "$TESTS/bench/gen.py" 800 "$T/s" --shape sweep
run pc import -s sweep -k perfsim "$T/s/model.csv"
expect_rc 0 "sweep imports"
# expected from the file: distinct keys, and their parameters (k=v parts
# plus the bare phase and precision words)
want=$(python3 -c '
import csv, sys
keys = {r["workload"] for r in csv.DictReader(open(sys.argv[1]))}
print(len(keys), sum(len(k.split("/")) - 1 for k in keys))' "$T/s/model.csv")
got=$(pcsql "SELECT count(DISTINCT r.workload_id), (SELECT count(*) FROM workload_params p WHERE p.workload_id IN (SELECT workload_id FROM results r2 JOIN runs u2 ON u2.id = r2.run_id JOIN sources s2 ON s2.id = u2.source_id WHERE s2.name = 'sweep')) FROM results r JOIN runs u ON u.id = r.run_id JOIN sources s ON s.id = u.source_id WHERE s.name = 'sweep'" | tr '|' ' ')
expect_eq "$got" "$want" "sweep: workloads and parameters"
# each stored result matches its row (workload key, op, metric, value)
exp=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("%s|%s|%s|%s" % (r["workload"], r["op"], r["metric"], r["value"]))' "$T/s/model.csv" | sort | md5sum)
act=$(pcsql "SELECT w.key, o.name, m.name, printf('%.6g', r.raw_value) FROM results r JOIN workloads w ON w.id = r.workload_id JOIN ops o ON o.id = r.op_id JOIN metrics m ON m.id = r.metric_id JOIN runs u ON u.id = r.run_id JOIN sources s ON s.id = u.source_id WHERE s.name = 'sweep'" | sort | md5sum)
expect_eq "$act" "$exp" "sweep: every row stored under its own key"
finish
