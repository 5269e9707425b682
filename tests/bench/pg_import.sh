#!/usr/bin/env bash
# Import on PostgreSQL against its floor (issue 22), by hand:
#   tests/bench/pg_import.sh CSV PERFCORR [PERFCORR...]
# CSV is a perfcorr-csv file (tests/bench/gen.py N DIR --shape kernel:
# DIR/model.csv). On a private throwaway cluster (tests/pg/cluster.sh,
# autovacuum off), each binary imports CSV into a new database, then
# `psql \copy` loads the same CSV into a bare table of its five columns
# (the floor: no dictionary, no SI conversion, no duplicate check), and
# the same rows as ids into a table with results' two B-trees (the
# indexed floor: what the indexes alone cost the server). Prints
# per load: client CPU (user+sys of perfcorr or psql), server CPU (the
# backend's, read from the postmaster's reaped-children times after it
# exits) and wall time. Compare CPU, not wall, on a loaded machine.
set -euo pipefail
CSV=$1
shift
. "$(dirname "$0")/../pg/cluster.sh"
pg_cluster_start >/dev/null || exit 77
pg_psql -c "ALTER SYSTEM SET autovacuum = off" -c "SELECT pg_reload_conf()" \
	>/dev/null
PM=$(head -1 "$PC_PG_DIR/data/postmaster.pid")
TCK=$(getconf CLK_TCK)
srv() { awk '{ print $16 + $17 }' "/proc/$PM/stat"; }
n=0
measure() { # label command...
	local label=$1 s0 s1 t
	shift
	s0=$(srv)
	t=$(python3 -c 'import resource, subprocess, sys, time
t = time.time()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime, r.ru_stime, time.time() - t, rc)' "$@")
	sleep 1		# the backend exits and is reaped
	s1=$(srv)
	echo "$t" | awk -v l="$label" -v s=$(( s1 - s0 )) -v k="$TCK" \
		'{ printf "%-28s client %6.2f s  server %6.2f s  total %6.2f s  wall %6.2f s%s\n",
		   l, $1 + $2, s / k, $1 + $2 + s / k, $3, $4 ? "  FAILED" : "" }'
}
for pc in "$@"; do
	n=$((n + 1))
	"$PC_PG_BIN/createdb" -h "$PC_PG_DIR" -U perfcorr "b$n"
	url="postgresql:///b$n?host=$PC_PG_DIR&user=perfcorr"
	"$pc" --db "$url" init 2>/dev/null
	measure "perfcorr #$n import" "$pc" --db "$url" import -q -s sim \
		-k perfsim --version 1 "$CSV"
	echo "  results: $("$PC_PG_BIN/psql" -X -At "$url" -c \
		'SELECT count(*) FROM results')"
done
pg_psql -c "CREATE TABLE floor (workload text, op text, metric text,
	value double precision, unit text)" >/dev/null
measure "psql \\copy (floor)" "$PC_PG_BIN/psql" -X -q -h "$PC_PG_DIR" \
	-U perfcorr -d perfcorr -c "\\copy floor FROM '$CSV' CSV HEADER"
# the same rows as ids into a table with results' two B-trees (its
# primary key and results_key, both over four bigints): what the
# indexes alone cost the server, with none of perfcorr's other work
ICSV=$(mktemp)
awk -F, 'NR > 1 { if (!($1 in w)) w[$1] = ++nw; if (!($2 in o)) o[$2] = ++no
	if (!($3 in m)) m[$3] = ++nm; print 1 "," w[$1] "," o[$2] "," m[$3] "," $4 "," NR - 1 }' \
	"$CSV" >"$ICSV"
pg_psql -c "CREATE TABLE floor_idx (run_id bigint, workload_id bigint,
	op_id bigint, metric_id bigint, value double precision, seq bigint,
	PRIMARY KEY (run_id, workload_id, op_id, metric_id));
	CREATE INDEX floor_idx_key ON floor_idx (workload_id, op_id, metric_id,
	run_id)" >/dev/null
measure "psql \\copy (indexed floor)" "$PC_PG_BIN/psql" -X -q -h "$PC_PG_DIR" \
	-U perfcorr -d perfcorr -c "\\copy floor_idx FROM '$ICSV' CSV"
rm -f "$ICSV"
