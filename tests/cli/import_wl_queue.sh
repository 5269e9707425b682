# New workloads on SQLite are given their ids by the writer (max(id) + 1
# on, in order of first appearance: the ids SQLite itself gave them) and
# stored in sorted batches of up to 8 192 (db/writer.c, wl_queue). What
# this must not change: a key already in the database, however spelt,
# maps to its existing id (never a second workload row for a canonical
# key), a key that comes back after its batch was stored maps to the same
# id, every parameter row is on the workload its key names, ids of
# earlier imports stay as they were, and a failure after batches were
# stored leaves the database exactly as it was.
. "$(dirname "$0")/../cli/lib.sh"

pc init >/dev/null
hdr="workload,op,metric,value,unit"
# workload m/bs=I/seq=128 for I = $1..$2 ($3 = -1: from $2 down to $1),
# op $4, one time result each; $5 = 1 spells the key another way
# ("batch" is an alias of "bs", parameters in another order)
rows() {
	awk -v a="$1" -v b="$2" -v d="$3" -v op="$4" -v alt="$5" 'BEGIN {
		for (k = 0; k <= b - a; k++) {
			i = d < 0 ? b - k : a + k
			if (alt)
				printf "m/seq=128/batch=%d,%s,time,%d,us\n", i, op, i + 1
			else
				printf "m/bs=%d/seq=128,%s,time,%d,us\n", i, op, i + 1
		} }'
}
# workloads whose id is not the expected function of their bs parameter
# ($1: an SQL expression of b, the parameter as an integer)
misplaced() {
	pcsql "SELECT count(*) FROM workloads w JOIN (SELECT workload_id, CAST(value AS INTEGER) AS b FROM workload_params WHERE name = 'bs') p ON p.workload_id = w.id WHERE w.id != ($1) OR w.key != 'm/bs=' || p.b || '/seq=128'"
}

# 1. A fresh database, 10 000 new keys (two batches), then key 0 again
# with another op after its batch was stored: ids 1..10 000 in order of
# first appearance, so workload m/bs=I has id I + 1
{ echo "$hdr"; rows 0 9999 1 a 0; rows 0 0 1 b 0; } > "$T/a.csv"
run pc import -s sa -k perfsim "$T/a.csv"
expect_rc 0 "first study"
expect_eq "$(pcsql "SELECT count(*) FROM workloads")" "10000" \
	"one workload per distinct key"
expect_eq "$(misplaced "b + 1")" "0" "ids in order of first appearance, parameters on their workload"
expect_eq "$(pcsql "SELECT count(*) FROM workload_params")" "20000" \
	"two parameters per workload"
expect_eq "$(pcsql "SELECT count(DISTINCT workload_id) FROM results r JOIN ops o ON o.id = r.op_id WHERE o.name IN ('a', 'b') AND r.workload_id = 1")" \
	"1" "key 0 came back after its batch: the same workload"
expect_eq "$(pcsql "SELECT count(*) FROM results WHERE workload_id = 1")" \
	"2" "both results of key 0 on workload 1"
before=$(pcsql "SELECT id, key, name, params FROM workloads ORDER BY id")

# 2. A second study that shares keys 5 000..9 999 (spelt another way)
# and adds 10 000..14 999, in descending order: a new key I is the
# (14 999 - I + 1)th new one, id 10 000 + 14 999 - I + 1 = 25 000 - I
{ echo "$hdr"; rows 5000 14999 -1 a 1; } > "$T/b.csv"
run pc import -s sb -k perfsim "$T/b.csv"
expect_rc 0 "second study"
expect_eq "$(pcsql "SELECT count(*) FROM workloads")" "15000" \
	"shared keys not stored again"
expect_eq "$(misplaced "CASE WHEN b < 10000 THEN b + 1 ELSE 25000 - b END")" \
	"0" "shared keys on their existing ids, new ones numbered on"
expect_eq "$(pcsql "SELECT id, key, name, params FROM workloads WHERE id <= 10000 ORDER BY id")" \
	"$before" "the first study's workloads unchanged"
# every result of the second study on the workload its value names
# (value = bs + 1 microseconds)
expect_eq "$(pcsql "SELECT count(*) FROM results r JOIN runs ru ON ru.id = r.run_id JOIN sources s ON s.id = ru.source_id JOIN workload_params p ON p.workload_id = r.workload_id AND p.name = 'bs' WHERE s.name = 'sb' AND abs(r.value - (CAST(p.value AS INTEGER) + 1) * 1e-6) < 1e-12")" \
	"10000" "each result on its key's workload"
expect_eq "$(pcsql "SELECT count(*) FROM results a JOIN results b ON a.workload_id = b.workload_id AND a.op_id = b.op_id AND a.metric_id = b.metric_id AND a.run_id < b.run_id")" \
	"5000" "the shared keys pair across the two studies"

# 3. Failures after batches were stored: 9 000 new keys, a shared one,
# then a bad unit / a repeated key; the database as it was
digest=$(db_digest)
{ echo "$hdr"; rows 20000 28999 1 a 0; rows 7 7 1 a 0;
  echo "m/bs=3/seq=128,c,time,1,furlongs"; } > "$T/bad.csv"
run pc import -s sc -k perfsim "$T/bad.csv"
expect_rc 1 "bad unit after stored batches"
expect_eq "$err" "perfcorr import: $T/bad.csv:9003: unknown unit 'furlongs'" \
	"the bad line named"
expect_eq "$(db_digest)" "$digest" "database unchanged after the bad line"
{ echo "$hdr"; rows 20000 28999 1 a 0; rows 20001 20001 1 a 1; } > "$T/dup.csv"
run pc import -s sc -k perfsim "$T/dup.csv"
expect_rc 1 "repeated key after stored batches"
expect_eq "$err" "perfcorr import: $T/dup.csv:9002: duplicate result for workload 'm/bs=20001/seq=128', op 'a', metric 'time'" \
	"the duplicate at its line, its key read back"
expect_eq "$(db_digest)" "$digest" "database unchanged after the duplicate"
# and the same file without the repeat: numbered on from 15 001 (on
# SQLite; PostgreSQL's sequence does not give back what the failed
# imports drew: numbered on from its first id)
{ echo "$hdr"; rows 20000 28999 1 a 0; } > "$T/c.csv"
run pc import -s sc -k perfsim "$T/c.csv"
expect_rc 0 "third study"
first=15001
pc_db_is_server && first=$(pcsql "SELECT min(id) FROM workloads WHERE id > 15000")
expect_eq "$(misplaced "CASE WHEN b < 10000 THEN b + 1 WHEN b < 15000 THEN 25000 - b ELSE b - 20000 + $first END")" \
	"0" "no id taken by the failed imports"
expect_eq "$(pcsql "SELECT count(*) FROM workloads")" "24000" "24 000 keys"
if ! pc_db_is_server; then
	expect_eq "$(sqlite3 "$PERFCORR_DB" "PRAGMA integrity_check")" "ok" \
		"integrity"
fi
finish
