# db copy --replace onto a server waits for the imports in flight (issue
# 22). PostgreSQL's results have no foreign keys (schema 7: their checks
# were 70% of an import's server CPU), so nothing would refuse an import
# that committed results naming workload, op or metric ids which a
# concurrent --replace had deleted and reused: the copy first locks the
# runs table against writers (db_lock_imports), which an import holds
# from its run's insert to its commit. Here a session holding what an
# import holds keeps the copy waiting: with a lock timeout the copy fails
# on the lock and leaves the target as it was; once the session ends,
# the same copy goes through. PostgreSQL only (ctest -L pg).
. "$(dirname "$0")/../cli/lib.sh"
if ! pc_db_is_server; then
	echo "skip: PostgreSQL only (runs under ctest -L pg)" >&2
	exit 77
fi
A="$T/a.db"
PERFCORR_DB="$A" pc import -q --source h100 --kind silicon --version 2024 \
	"$FIXTURES/gate/ref.csv" || fail "import into SQLite"
run pc db copy --from "$A" --to "$PERFCORR_DB"
expect_rc 0 "the first copy"
before=$(db_digest)

# an import in flight: it inserted its run (ROW EXCLUSIVE on runs) and
# has not committed
{ printf 'BEGIN;\nLOCK TABLE runs IN ROW EXCLUSIVE MODE;\n'
  printf 'SELECT pg_sleep(120);\n'; } |
	PGAPPNAME=pc_import_in_flight "$PC_PG_BIN/psql" -X -q "$PERFCORR_DB" \
	>/dev/null 2>&1 &
holder=$!
for _ in $(seq 100); do
	[ "$(pcsql "SELECT count(*) FROM pg_locks l JOIN pg_class c ON
		c.oid = l.relation WHERE c.relname = 'runs' AND
		l.mode = 'RowExclusiveLock' AND l.pid <> pg_backend_pid()")" = 1 ] &&
		break
	sleep 0.1
done
PGOPTIONS='-c lock_timeout=500' run pc db copy --from "$A" --to "$PERFCORR_DB" \
	--replace
expect_rc 1 "--replace while an import is in flight"
expect_in "lock timeout" "$err" "it waited for the import's lock"
expect_eq "$(db_digest)" "$before" "the target unchanged"
# the import ends (its session is ended: a rollback)
pcsql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE
	application_name = 'pc_import_in_flight'" >/dev/null
wait "$holder" 2>/dev/null
for _ in $(seq 100); do
	[ "$(pcsql "SELECT count(*) FROM pg_locks l JOIN pg_class c ON
		c.oid = l.relation WHERE c.relname = 'runs' AND
		l.pid <> pg_backend_pid()")" = 0 ] && break
	sleep 0.1
done
PGOPTIONS='-c lock_timeout=5000' run pc db copy --from "$A" --to "$PERFCORR_DB" \
	--replace
expect_rc 0 "--replace once the import ended"
finish
