# After an upgrade of perfcorr (QA finding): a read-only command on a
# database of the older schema refused with "open it writable", which
# says neither how nor that nothing is lost; and `make demo` on the kept
# demo database stopped there (scripts/demo.sh runs `perfcorr sources`
# under set -e), the review in it unreachable until `make demo-reset`
# threw it away. The refusal names the cure, `perfcorr init`, and
# demo.sh upgrades the database it keeps.
. "$(dirname "$0")/lib.sh"
V=$(sed -n 's/^#define DB_SCHEMA_VERSION \([0-9]*\)$/\1/p' "$TESTS"/../db/engine.h)
old_schema() {	# the study as perfcorr schema 8 left it (9: runs' cost, 10: calibration)
	if pc_db_is_server; then
		pcsql "ALTER TABLE runs DROP COLUMN cost, DROP COLUMN cost_unit" \
			"DROP TABLE IF EXISTS calibration" \
			"UPDATE schema_version SET version = 8" >/dev/null
	else
		pcsql "ALTER TABLE runs DROP COLUMN cost; ALTER TABLE runs DROP COLUMN cost_unit;
			DROP TABLE IF EXISTS calibration; PRAGMA user_version = 8"
	fi
}
pc init >/dev/null
pc import -q -s lab -k silicon "$FIXTURES/native/ok.csv"
old_schema
run pc sources
expect_rc 1 "a read-only command on schema 8"
expect_in "schema 8 needs migrating to $V" "$err" "says so"
expect_in "'perfcorr init' on it upgrades it in place" "$err" "and the cure"
run pc init
expect_rc 0 "the cure works"
run pc sources
expect_rc 0 "read-only after it"
expect_in "lab" "$out" "the study kept"

# make demo on a kept demo database of the older schema
if ! pc_db_is_server; then
	(cd "$FIXTURES/.." && bash scripts/demo.sh "$PERFCORR" "$T/demo.db") \
		>/dev/null 2>&1 </dev/null || fail "demo.sh builds the demo"
	PERFCORR_DB=$T/demo.db pc annotate --workload llama3-8b/decode/bs=8/seq=2048/bf16 \
		--op flash_attn --metric time --status explained --note kept \
		>/dev/null || fail "annotate the demo"
	PERFCORR_DB=$T/demo.db old_schema
	run bash -c "cd '$FIXTURES/..' && bash scripts/demo.sh '$PERFCORR' '$T/demo.db' </dev/null"
	expect_rc 0 "demo.sh on a kept schema-8 demo database"
	expect_in "keeping $T/demo.db" "$err" "it kept the database"
	expect_in "mape" "$out" "and got to the comparison"
	expect_eq "$(PERFCORR_DB=$T/demo.db pcsql "SELECT note FROM annotations")" kept \
		"the review in it kept"
fi
finish
