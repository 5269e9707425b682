# Writers side by side on PostgreSQL (issue 22): four importers of
# different files started together, two annotators and a report while
# they run: every run and every result arrives, nothing waits for a lock
# (no "database is locked"), the annotations are all there; and two
# importers of the same bytes started together end as one run and one
# "already imported" (an advisory lock on the file's digest, db_lock_name);
# four importers of the same new names at once all succeed (names_lock).
# A private throwaway cluster; skipped (77) without PostgreSQL.
. "$(dirname "$0")/../cli/lib.sh"
. "$TESTS/pg/cluster.sh"
if [ -z "$PC_PG_BIN" ]; then
	echo "skip: no PostgreSQL server programs (apt-get install postgresql)" >&2
	exit 77
fi
pg_cluster_start || { fail "the cluster did not start"; finish; }
export PERFCORR_DB="$PC_PG_URL"
N=${PC_PG_ROWS:-5000}
# four model files of N results each (4 metrics x N/4 workloads)
for i in 1 2 3 4; do
	python3 - "$N" "$i" >"$T/m$i.csv" <<'PY'
import sys
n, i = int(sys.argv[1]), int(sys.argv[2])
print("workload,op,metric,value,unit")
for k in range(n // 4):
    for m, u in (("time", "us"), ("energy", "uJ"), ("power", "W"),
                 ("bytes", "B")):
        print("w%d/bs=%d,op%d,%s,%g,%s" % (k % 50, k, i, m, 1 + k + i / 10, u))
PY
done
pc init 2>/dev/null
pc import -q --source lab --kind silicon "$T/m1.csv" || fail "seed"
pc import -q --source sim0 --kind perfsim "$T/m1.csv" || fail "seed model"
pids=()
for i in 1 2 3 4; do
	pc import -q --source "sim$i" --kind perfsim "$T/m$i.csv" \
		2>"$T/imp$i.err" & pids+=($!)
done
for a in 1 2; do
	pc annotate --workload 'w1/*' --pattern --op op1 --status open \
		--category unknown --note "from annotator $a" --author "a$a" >/dev/null \
		2>"$T/ann$a.err" & pids+=($!)
done
pc compare -m sim0 -r lab -f json >"$T/cmp.json" 2>"$T/cmp.err" & pids+=($!)
for p in "${pids[@]}"; do wait "$p" || fail "process $p exited $?"; done
expect_eq "$(cat "$T"/imp*.err)" "" "no importer complained"
expect_in '"n":'"$N" "$(cat "$T/cmp.json")" "compare read a whole run meanwhile"
expect_not_in "locked" "$(cat "$T"/*.err)" "no lock waits reported"
expect_eq "$(pcsql "SELECT count(*) FROM runs")" 6 "six runs"
expect_eq "$(pcsql "SELECT count(*) FROM results")" "$((6 * N))" \
	"every result stored"
expect_eq "$(pcsql "SELECT string_agg(s.name || ':' || r.n_results, ' ' ORDER BY s.name) FROM runs r JOIN sources s ON s.id = r.source_id")" \
	"lab:$N sim0:$N sim1:$N sim2:$N sim3:$N sim4:$N" "each run complete"
expect_eq "$(pcsql "SELECT count(*) FROM annotations")" 2 "both annotations"

# four importers adding the same new names at once, each in its own
# order (workloads, an op and a metric no import has stored): before the
# names lock (db/writer.c names_lock) the second of them failed on the
# first's uncommitted key ("duplicate key value violates unique
# constraint"); per-name locks taken in these orders would deadlock
for i in 1 2 3 4; do
	python3 - "$i" >"$T/new$i.csv" <<'PY'
import sys
i = int(sys.argv[1])
keys = list(range(200))
keys = keys[::-1] if i % 2 else keys[i * 37:] + keys[:i * 37]
print("workload,op,metric,value,unit")
for k in keys:
    print("fresh%d/bs=%d,newop,newmetric,%g,us" % (k % 7, k, 1 + k + i))
    print("fresh%d/bs=%d,newop%d,time,%g,us" % (k % 7, k, k % 3, 2 + k))
PY
done
wl0=$(pcsql "SELECT count(*) FROM workloads")
pids=()
for i in 1 2 3 4; do
	pc import -q --source "new$i" --kind perfsim "$T/new$i.csv" \
		2>"$T/new$i.err" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "new-name importer $p exited $?"; done
expect_eq "$(cat "$T"/new*.err)" "" "no new-name importer failed"
expect_eq "$(pcsql "SELECT count(*) FROM workloads") " "$((wl0 + 200)) " \
	"each new workload stored once"
expect_eq "$(pcsql "SELECT count(*) FROM ops WHERE name LIKE 'newop%'")" 4 \
	"each new op stored once"
expect_eq "$(pcsql "SELECT count(*) FROM metrics WHERE name = 'newmetric'")" 1 \
	"the new metric stored once"
expect_eq "$(pcsql "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id JOIN sources s ON s.id = u.source_id WHERE s.name LIKE 'new_'")" \
	1600 "every new-name result stored"

# the same bytes twice at once: one run, one "already imported"
cp "$T/m2.csv" "$T/twin.csv"
pc import -q --source twin --kind perfsim "$T/twin.csv" 2>"$T/t1.err" & p1=$!
pc import -q --source twin --kind perfsim "$T/twin.csv" 2>"$T/t2.err" & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
expect_eq "$(pcsql "SELECT count(*) FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = 'twin'")" \
	1 "the twin file is one run"
expect_in "already imported" "$(cat "$T/t1.err" "$T/t2.err")" \
	"the second is told"
[ $((r1 + r2)) -le 1 ] && ok || fail "both twin imports failed ($r1, $r2)"
finish
