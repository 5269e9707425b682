# The same study on both engines gives the same answers (issue 22): the
# demo study imported into a SQLite file and into a PostgreSQL database
# (a private throwaway cluster) gives equal `export results`, `compare
# --format json` (numbers equal to 1e-12, relative), `gate` verdicts and
# `report --format json`. Skipped (77) without PostgreSQL.
. "$(dirname "$0")/../cli/lib.sh"
. "$TESTS/pg/cluster.sh"
if [ -z "$PC_PG_BIN" ]; then
	echo "skip: no PostgreSQL server programs (apt-get install postgresql)" >&2
	exit 77
fi
pg_cluster_start || { fail "the cluster did not start"; finish; }
LITE="$T/demo.db"
PG="$PC_PG_URL"
cd "$FIXTURES/.."
for db in "$LITE" "$PG"; do
	bash scripts/demo.sh "$PERFCORR" "$db" </dev/null >/dev/null 2>"$T/demo.err" ||
		fail "demo import into $db: $(cat "$T/demo.err")"
done
expect_eq "$(pg_psql -Atc "SELECT count(*) FROM results")" \
	"$(sqlite3 "$LITE" "SELECT count(*) FROM results")" "result rows"

# JSON equal up to 1e-12 relative in every number, else the first path
# that differs
jcmp() { # a.json b.json what
	python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
def drop_times(x):          # when written and imported: not the data
    if isinstance(x, dict):
        for k in ("generated_at", "imported_at"):
            x.pop(k, None)
        for v in x.values():
            drop_times(v)
    elif isinstance(x, list):
        for v in x:
            drop_times(v)
drop_times(a)
drop_times(b)
def walk(x, y, path):
    if isinstance(x, dict) and isinstance(y, dict):
        if sorted(x) != sorted(y):
            return "%s: keys %s vs %s" % (path, sorted(x), sorted(y))
        for k in x:
            r = walk(x[k], y[k], path + "." + k)
            if r: return r
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            return "%s: %d vs %d items" % (path, len(x), len(y))
        for i, (u, v) in enumerate(zip(x, y)):
            r = walk(u, v, "%s[%d]" % (path, i))
            if r: return r
    elif isinstance(x, (int, float)) and isinstance(y, (int, float)) \
            and not isinstance(x, bool):
        if abs(x - y) > 1e-12 * max(abs(x), abs(y), 1e-300):
            return "%s: %r vs %r" % (path, x, y)
    elif x != y:
        return "%s: %r vs %r" % (path, x, y)
    return None
r = walk(a, b, "$")
print(r or "equal")
PY
}
for db in "$LITE" "$PG"; do
	n=$([ "$db" = "$LITE" ] && echo lite || echo pg)
	"$PERFCORR" --db "$db" export results >"$T/$n.csv" 2>>"$T/err" ||
		fail "export on $n"
	for side in "archsim@2.4.0 h100-lab" "archsim@2.3.0 h100-lab" \
		"roofline h100-lab" "t100-rtl h100-lab"; do
		set -- $side
		"$PERFCORR" --db "$db" compare --model "$1" --ref "$2" \
			--format json --points >"$T/$n-cmp-$1.json" 2>>"$T/err" ||
			fail "compare $1 on $n"
	done
	for v in 2.3.0 2.4.0; do
		"$PERFCORR" --db "$db" gate --policy "$FIXTURES/policy/example.json" \
			--model "archsim@$v" >"$T/$n-gate-$v.txt" 2>>"$T/err"
		echo "exit $?" >>"$T/$n-gate-$v.txt"
	done
	"$PERFCORR" --db "$db" report --model archsim --ref h100-lab \
		--format json -o "$T/$n-rep.json" 2>>"$T/err" || fail "report on $n"
done
[ -s "$T/lite.csv" ] && ok || fail "export is empty"
cmp -s "$T/lite.csv" "$T/pg.csv" && ok ||
	fail "export results differs: $(diff "$T/lite.csv" "$T/pg.csv" | head -5)"
for side in archsim@2.4.0 archsim@2.3.0 roofline t100-rtl; do
	expect_eq "$(jcmp "$T/lite-cmp-$side.json" "$T/pg-cmp-$side.json")" \
		equal "compare $side"
done
for v in 2.3.0 2.4.0; do
	# the verdict lines and the exit status; the evaluation's time differs
	expect_eq "$(grep -v '^evaluated\|at 20' "$T/pg-gate-$v.txt")" \
		"$(grep -v '^evaluated\|at 20' "$T/lite-gate-$v.txt")" "gate $v"
done
expect_in "verdict: FAIL" "$(cat "$T/pg-gate-2.3.0.txt")" "2.3.0 blocked on PG"
expect_in "exit 1" "$(cat "$T/pg-gate-2.3.0.txt")" "2.3.0 exit on PG"
expect_eq "$(jcmp "$T/lite-rep.json" "$T/pg-rep.json")" equal "report json"
finish
