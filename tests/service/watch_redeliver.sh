#!/usr/bin/env bash
# perfcorr watch: a delivery rewritten in place (cp, >) while its previous
# import runs is never lost (issue 36 item 1). The watcher used to take
# the original for the file it imported because the inode matched, delete
# the new bytes unimported and archive the new manifest beside the old
# data. Now the archive holds exactly the bytes of the run it names
# (checked here by sha256 against runs.sha256), manifest included, and
# the rewritten delivery is imported on the next scan. The import is held
# open by PERFCORR_TEST_WATCH_PAUSE_MS (a pause after the commit, before
# the files move). On SQLite, and on PostgreSQL where it is installed.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
. "$TESTS/pg/cluster.sh"

# rows FILE SEED: 200 rows, the same size for every seed
rows() {
	python3 - "$1" "$2" <<'PY'
import sys
path, seed = sys.argv[1], int(sys.argv[2])
with open(path, 'w') as f:
    f.write('workload,op,metric,value,unit\n')
    for i in range(200):
        f.write('w%03d,gemm,time,%d.5,us\n' % (i, 100 + (i * 7 + seed) % 800))
PY
}
sha() { sha256sum "$1" | cut -d' ' -f1; }
runs_are() { [ "$(q "SELECT count(*) FROM runs")" = "$1" ]; }
M1='{"source": "lab", "kind": "silicon", "version": "r1"}'
M2='{"source": "lab", "kind": "silicon", "version": "r2"}'
rows "$T/a.csv" 1
rows "$T/b.csv" 2
rows "$T/c.csv" 3
rows "$T/d.csv" 4
yes 'w,gemm,time,1.5,us' | head -c 3000000 >"$T/c_short.csv"
expect_eq "$(stat -c %s "$T/a.csv")" "$(stat -c %s "$T/b.csv")" "same size"

scenario() { # LABEL
	local D=$T/drop_$1
	mkdir -p "$D"
	pc init >/dev/null 2>&1 || fail "$1: init"
	export PERFCORR_TEST_WATCH_PAUSE_MS=2500

	# --- data and manifest rewritten in place, same size, mtime put back:
	# only ctime and the bytes tell
	deliver "$D" x.csv "$T/a.csv" "$M1"
	start_watch "$T/w_$1.log" "$T/w_$1.err" --interval 0.1 "$D"
	wait_for 30 runs_are 1 ||
		fail "$1: the first import never committed"
	touch -r "$D/x.csv" "$T/ref"
	cat "$T/b.csv" >"$D/x.csv"
	printf '%s\n' "$M2" >"$D/x.csv.perfcorr.json"
	touch -r "$T/ref" "$D/x.csv" "$D/x.csv.perfcorr.json"
	wait_for 30 test -f "$D/imported/x.csv~2.perfcorr.json" ||
		fail "$1: the rewritten delivery was never imported: $(ls -R "$D"; cat "$T/w_$1.log")"
	expect_in "rewritten while it was imported" "$(cat "$T/w_$1.log")" \
		"$1: the log says the delivery stays"
	expect_eq "$(q "SELECT count(*) FROM runs")" 2 "$1: two runs"
	expect_eq "$(sha "$D/imported/x.csv")" \
		"$(q "SELECT sha256 FROM runs WHERE version = 'r1'")" \
		"$1: imported/x.csv is run r1's bytes"
	expect_eq "$(sha "$D/imported/x.csv~2")" \
		"$(q "SELECT sha256 FROM runs WHERE version = 'r2'")" \
		"$1: imported/x.csv~2 is run r2's bytes"
	expect_eq "$(sha "$D/imported/x.csv")" "$(sha "$T/a.csv")" "$1: first data"
	expect_eq "$(sha "$D/imported/x.csv~2")" "$(sha "$T/b.csv")" "$1: new data"
	expect_eq "$(cat "$D/imported/x.csv.perfcorr.json")" "$M1" \
		"$1: the first manifest beside the first data"
	expect_eq "$(cat "$D/imported/x.csv~2.perfcorr.json")" "$M2" \
		"$1: the new manifest beside the new data"

	# --- data alone rewritten with cp (another size), manifest unchanged
	deliver "$D" y.csv "$T/d.csv" "$M1"
	wait_for 30 runs_are 3 ||
		fail "$1: y.csv never committed"
	cp "$T/c.csv" "$D/y.csv"
	wait_for 30 test -f "$D/imported/y.csv~2.perfcorr.json" ||
		fail "$1: the rewritten y.csv was never imported"
	expect_eq "$(sha "$D/imported/y.csv")" "$(sha "$T/d.csv")" "$1: y first data"
	expect_eq "$(sha "$D/imported/y.csv~2")" "$(sha "$T/c.csv")" "$1: y new data"
	expect_eq "$(q "SELECT count(*) FROM runs")" 4 "$1: four runs"
	expect_eq "$(cat "$D/imported/y.csv~2.perfcorr.json")" "$M1" "$1: y manifest"

	# --- a delivery left alone still moves, both files
	deliver "$D" z.csv "$T/b.csv" "$M2"
	wait_for 30 test -f "$D/imported/z.csv.perfcorr.json" ||
		fail "$1: z.csv never archived"
	stop_pid $WP TERM 60
	expect_eq "$wrc" 0 "$1: watch exits 0"
	expect_eq "$(ls "$D" | sort | tr '\n' ' ')" "failed imported " \
		"$1: nothing left in the drop directory"
	expect_eq "$(ls "$D/failed" | wc -l)" 0 "$1: nothing failed"
	unset PERFCORR_TEST_WATCH_PAUSE_MS
}

scenario sqlite

# --- no copy per retry (item 7): a file waiting for its manifest's size
# is not copied; with writes capped below its size (ulimit -f), the old
# watcher's copy failed ("File too large") instead of waiting
D=$T/drop_wait
mkdir -p "$D"
deliver "$D" w.csv "$T/c_short.csv" \
	'{"source": "lab", "kind": "silicon", "size": 100000000}'
run bash -c 'trap "" XFSZ; ulimit -f 1024; exec "$PERFCORR" watch --once --interval 0.1 "$1"' _ "$D"
expect_rc 0 "watch --once with writes capped"
expect_in "waiting w.csv: waiting: 3000000 of 100000000 bytes" "$out$err" \
	"a short file waits without a copy"
[ -f "$D/w.csv" ] && ok || fail "w.csv must stay"

if pg_cluster_start; then
	trap 'pg_cluster_stop; rm -rf "$T"' EXIT
	PERFCORR_DB=$PC_PG_URL
	scenario pg
else
	echo "note: no PostgreSQL here: the SQLite pass only" >&2
fi
finish
