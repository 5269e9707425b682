# A bulk load (db/writer.c, bulk_drop): an import that stores more
# results than the database held (at least 32 768) drops the pairing
# index results_key, one that adds more workloads than the database held
# (at least 4 096) drops workload_params_nv, and both are built again at
# the end of the import's transaction. What this must not change:
# a failure after the drop leaves the database exactly as it was (the
# drop is rolled back with the rest), a duplicate is still named at its
# own line (the primary key finds it, not results_key), the schema reads
# back as before, and a small import changes no schema at all.
. "$(dirname "$0")/../cli/lib.sh"

pc init >/dev/null
# the schema's statements (a rebuilt index is listed last: sorted)
schema() { sqlite3 "$PERFCORR_DB" "SELECT type, name, sql FROM sqlite_schema ORDER BY name"; }
schema0=$(schema)
ver() { sqlite3 "$PERFCORR_DB" "PRAGMA schema_version"; }

# rows $1..$2 of a sweep: a new workload (3 parameters) every 8 rows,
# ops o0..o7; 40 000 rows = 5 000 workloads, past both thresholds
sweep() {
	awk -v a="$1" -v b="$2" 'BEGIN { for (i = a; i <= b; i++)
		printf "m/bs=%d/seq=%d/tp=%d,o%d,time,%d,us\n", int(i / 8),
			128 + int(i / 8) % 3, 1 + int(i / 8) % 2, i % 8, i + 1 }'
}
hdr="workload,op,metric,value,unit"

# 1. a bad unit on the last line (40 002), after both indexes went
{ echo "$hdr"; sweep 0 39999; echo "z,o1,time,1,furlongs"; } > "$T/bad.csv"
digest=$(db_digest)
v0=$(ver)
run pc import -s a -k perfsim "$T/bad.csv"
expect_rc 1 "bad unit after the drop"
expect_eq "$err" "perfcorr import: $T/bad.csv:40002: unknown unit 'furlongs'" \
	"the bad line named"
expect_eq "$(db_digest)" "$digest" "database unchanged (data and schema)"
expect_eq "$(ver)" "$v0" "schema version unchanged: the drop rolled back"
expect_eq "$(schema)" "$schema0" "both indexes there"

# 2. a duplicate of line 3 (row 1) on line 40 002: named at its own line
{ echo "$hdr"; sweep 0 39999; sweep 1 1; } > "$T/dup.csv"
run pc import -s a -k perfsim "$T/dup.csv"
expect_rc 1 "duplicate after the drop"
expect_eq "$err" "perfcorr import: $T/dup.csv:40002: duplicate result for workload 'm/bs=0/seq=128/tp=1', op 'o1', metric 'time'" \
	"the duplicate at its line"
expect_eq "$(db_digest)" "$digest" "database unchanged after the duplicate"

# 3. the same rows without the bad line: stored, indexes rebuilt
{ echo "$hdr"; sweep 0 39999; } > "$T/ok.csv"
run pc import -s a -k perfsim "$T/ok.csv"
expect_rc 0 "bulk import"
expect_eq "$(schema)" "$schema0" \
	"the same schema text afterwards (indexes rebuilt as they were)"
v1=$(ver)
[ "$v1" -gt "$v0" ] && ok || fail "schema version $v1 not above $v0: no bulk load"
expect_eq "$(sqlite3 "$PERFCORR_DB" "PRAGMA integrity_check")" "ok" \
	"indexes agree with their tables"
# every entry is in the rebuilt indexes (40 000 results, 5 000 x 3
# parameters); the planner answers these from the index named
n=$(sqlite3 "$PERFCORR_DB" "SELECT count(*) FROM results INDEXED BY results_key WHERE workload_id > 0")
expect_eq "$n" "40000" "results_key complete"
n=$(sqlite3 "$PERFCORR_DB" "SELECT count(*) FROM workload_params INDEXED BY workload_params_nv WHERE name >= ''")
expect_eq "$n" "15000" "workload_params_nv complete"
n=$(sqlite3 "$PERFCORR_DB" "SELECT count(*) FROM workload_params WHERE name = 'seq' AND value = '130'")
# workloads 0..4999 with seq = 128 + w % 3 = 130: w = 2, 5, ... 4998
expect_eq "$n" "1666" "a parameter found through the index"
# parameters are stored 32 rows per INSERT across workloads (db/writer.c,
# params_flush): each row belongs to the workload whose key says it
own="SELECT count(*) FROM workload_params p JOIN workloads w ON w.id = p.workload_id WHERE w.key LIKE '%/' || p.name || '=' || p.value || '%'"
expect_eq "$(sqlite3 "$PERFCORR_DB" "$own")" "15000" "every parameter on its own workload"

# 4. not larger than what is stored (40 000 results, 5 000 workloads):
# no schema change, for the same rows in another source
run pc import -s b -k silicon "$T/ok.csv"
expect_rc 0 "an import as large as the database"
expect_eq "$(ver)" "$v1" "no bulk load: schema version unchanged"

# 5. a small import into the empty database changes no schema either
rm -f "$PERFCORR_DB"
pc init >/dev/null
v0=$(ver)
# (with one workload of 40 parameters: more than one INSERT's 32 rows)
many=$(seq 1 40 | awk '{ printf "/p%02d=%d", $1, $1 * 7 }')
{ echo "$hdr"; sweep 0 999; echo "big$many,o1,time,1,us"; } > "$T/small.csv"
run pc import -s a -k perfsim "$T/small.csv"
expect_rc 0 "small import"
expect_eq "$(ver)" "$v0" "small import: schema version unchanged"
# 125 workloads x 3 parameters + 40
expect_eq "$(sqlite3 "$PERFCORR_DB" "$own")" "415" "small import: every parameter on its own workload"
n=$(sqlite3 "$PERFCORR_DB" "SELECT count(*), sum(CAST(p.value AS INTEGER)) FROM workload_params p JOIN workloads w ON w.id = p.workload_id WHERE w.name = 'big'")
# 7 * (1 + ... + 40) = 7 * 820 = 5740
expect_eq "$n" "40|5740" "the 40 parameters of one workload"
finish
