# Results go to the database in flushes (db/wbatch.c; on PostgreSQL each
# flush is one COPY of 16384 rows into results in a savepoint, and a
# flush that a repeated key refused goes again through the staging table
# results_stage to name it): a file of more than one flush stores every
# row once; a duplicate of a row stored in an earlier flush, or one
# within the same flush, is named at its own line, the first in the file
# when there are two, and a duplicate still waiting in the queue wins
# over a later error. A failed import stores nothing.
. "$(dirname "$0")/../cli/lib.sh"
python3 "$TESTS/bench/gen.py" 17000 "$T/s" --nsys-workloads 0
csv=$T/s/model.csv	# header + 17000 rows: line L is row L - 1

pc init >/dev/null
digest=$(db_digest)
key() { sed -n "${1}p" "$csv" | cut -d, -f1-3; }
named() { # line-of-the-copy line-it-repeats
	local k wl rest
	k=$(key "$2"); wl=${k%%,*}; rest=${k#*,}
	echo "duplicate result for workload '$wl', op '${rest%%,*}', metric '${rest#*,}'"
}

# 1. a duplicate of line 3 at line 17002, past the first flush (rows 1 to
# 16384 are lines 2 to 16385)
{ cat "$csv"; sed -n 3p "$csv"; } > "$T/far.csv"
run pc import -s far -k perfsim "$T/far.csv"
expect_rc 1 "a duplicate of a row of the first flush"
expect_in "far.csv:17002: $(named 17002 3)" "$err" "named at its line"
expect_eq "$(db_digest)" "$digest" "nothing stored"

# 2. two duplicates in the second flush: line 16501 repeats line 16400
# (same flush), line 16601 repeats line 10 (first flush): the first named
{ sed -n 1,16500p "$csv"; sed -n 16400p "$csv"; sed -n 16501,16599p "$csv"
  sed -n 10p "$csv"; sed -n '16600,$p' "$csv"; } > "$T/two.csv"
expect_eq "$(sed -n 16601p "$T/two.csv")" "$(sed -n 10p "$csv")" "fixture: line 16601"
run pc import -s two -k perfsim "$T/two.csv"
expect_rc 1 "two duplicates in one flush"
expect_in "two.csv:16501: $(named 16501 16400)" "$err" "the first one named"
expect_not_in "16601" "$err" "not the second"
expect_eq "$(db_digest)" "$digest" "nothing stored"

# 3. a duplicate (line 16500, of line 5) queued when a bad unit comes
# (line 16510): the duplicate, the earlier error, is the one named
{ sed -n 1,16499p "$csv"; sed -n 5p "$csv"; sed -n 16500,16508p "$csv"
  echo "wbad,obad,time,1,furlongs"; sed -n '16509,$p' "$csv"; } > "$T/unit.csv"
run pc import -s unit -k perfsim "$T/unit.csv"
expect_rc 1 "a queued duplicate, then a bad unit"
expect_in "unit.csv:16500: $(named 16500 5)" "$err" "the duplicate named"
expect_not_in "furlongs" "$err" "not the later error"
expect_eq "$(db_digest)" "$digest" "nothing stored"

# 4. the whole file: every row once, in file order, across the flushes
if pc_db_is_server; then	# the server's counts, once its backends settled
	settled() {
		local a b=-1 k
		for k in $(seq 40); do
			a=$(pcsql "$1")
			[ "$a" = "$b" ] && [ "$a" -ge "${2:-0}" ] && break
			b=$a
			sleep 0.25
		done
		echo "$a"
	}
	ins="SELECT tup_inserted FROM pg_stat_database WHERE datname = current_database()"
	cat="SELECT n_tup_ins FROM pg_stat_sys_tables WHERE relname = 'pg_class'"
	ins0=$(settled "$ins") cat0=$(settled "$cat")
fi
run pc import -s sim -k perfsim "$csv"
expect_rc 0 "17000 rows"
expect_in "17000 results" "$err" "all stored"
n=$(pcsql "SELECT count(*), count(DISTINCT workload_id || '/' || op_id || '/' || metric_id), min(seq), max(seq) FROM results")
expect_eq "$n" "17000|17000|1|17000" "each row once, seq 1..17000"
# on PostgreSQL a file without a duplicate is COPied straight into
# results (db/wbatch.c): no staging table is made (every chunk through
# one, as before, made it at the import's start: rows of pg_class, in
# the statistics once the import's 17000 results are)
if pc_db_is_server; then
	settled "$ins" $((ins0 + 17000)) >/dev/null
	expect_eq "$(( $(settled "$cat") - cat0 ))" 0 \
		"no temporary table made for a clean file"
fi
# rows 16384 and 16385 (lines 16385, 16386) on either side of the first
# flush's end, read back in file order (raw_value is the file's value)
g6() { python3 -c 'import sys; print("%.6g" % float(sys.argv[1]))' "$1"; }
for s in 16384 16385 17000; do
	v=$(g6 "$(pcsql "SELECT raw_value FROM results WHERE seq = $s")")
	expect_eq "$v" "$(sed -n "$((s + 1))p" "$csv" | cut -d, -f4)" "row $s's value"
done
finish
