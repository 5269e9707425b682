# The writer stores results in batches (db/wbatch.c): every result lands,
# a tail shorter than a batch too, and a repeated key is still refused at
# the repeating line, whether the first one is in the pending batch or
# stored long before.
. "$(dirname "$0")/../cli/lib.sh"
GEN="$TESTS/bench/gen.py"
python3 "$GEN" 440 "$T/s" --nsys-workloads 0

pc init >/dev/null
run pc import -s sim -k perfsim "$T/s/model.csv"
expect_rc 0 "440 rows (13 full batches and a tail)"
expect_in "440 results" "$err" "all stored"
n=$(pcsql "SELECT count(*), count(DISTINCT workload_id || '/' || op_id || '/' || metric_id) FROM results")
expect_eq "$n" "440|440" "each row once"
# the stored values are the file's, scaled to SI (us -> s)
# (%.6g by python: both engines, sqlite3 and psql print doubles apart)
g6() { python3 -c 'import sys; print("%.6g" % float(sys.argv[1]))' "$1"; }
v=$(g6 "$(pcsql "SELECT value * 1e6 FROM results ORDER BY seq LIMIT 1")")
expect_eq "$v" "$(sed -n 2p "$T/s/model.csv" | cut -d, -f4)" "first value"
v=$(g6 "$(pcsql "SELECT raw_value FROM results ORDER BY seq DESC LIMIT 1")")
expect_eq "$v" "$(tail -1 "$T/s/model.csv" | cut -d, -f4)" "last value (the tail)"

# a duplicate far from its first row (after many flushes)
{ cat "$T/s/model.csv"; sed -n 3p "$T/s/model.csv"; } > "$T/far.csv"
digest=$(db_digest)
run pc import -s sim2 -k perfsim "$T/far.csv"
expect_rc 1 "far duplicate refused"
key=$(sed -n 3p "$T/s/model.csv" | cut -d, -f1-3)
wl=${key%%,*}; rest=${key#*,}; op=${rest%%,*}; metric=${rest#*,}
expect_in "far.csv:442: duplicate result for workload '$wl', op '$op', metric '$metric'" \
	"$err" "names the repeating line and key"
expect_eq "$(db_digest)" "$digest" "nothing stored"

# a duplicate inside the pending batch
{ sed -n 1,4p "$T/s/model.csv"; sed -n 3p "$T/s/model.csv"; } > "$T/near.csv"
run pc import -s sim3 -k perfsim "$T/near.csv"
expect_rc 1 "near duplicate refused"
expect_in "near.csv:5: duplicate result" "$err" "repeating line"
expect_eq "$(db_digest)" "$digest" "nothing stored"
finish
