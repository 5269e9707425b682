#!/usr/bin/env bash
# A full disk under the database: import and watch say "the disk is
# full", naming the database, exit 1, and the database is unchanged
# (same dump, integrity ok); the watcher leaves the delivery in DIR and
# imports it once there is space again. A small tmpfs when we may mount
# one (root), else RLIMIT_FSIZE (ulimit -f: "size limit"), else skipped.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
csv_rows "$T/big.csv" 20000 k
csv_rows "$T/small.csv" 50 s

F=$T/full
mkdir -p "$F"
if mount -t tmpfs -o size=600k tmpfs "$F" 2>/dev/null; then
	how=tmpfs
	trap 'umount "$F" 2>/dev/null; rm -rf "$T"' EXIT
	limit=()
	says="database '$F/db': the disk is full"
elif (ulimit -f 600) 2>/dev/null; then
	how=fsize
	limit=(bash -c 'trap "" XFSZ; ulimit -f 600; exec "$@"' x)
	says="database '$F/db': a file reached the size limit"
else
	echo "skip: neither a tmpfs mount nor ulimit -f is allowed here"
	exit 77
fi
echo "full disk simulated with: $how"
pc --db "$F/db" import -q --source lab --kind silicon "$T/small.csv" || fail "small import on $how"
dig1=$(sqlite3 "$F/db" .dump | sha256sum)

run "${limit[@]}" "$PERFCORR" --db "$F/db" import --source sim --kind perfsim "$T/big.csv"
expect_rc 1 "import onto a full disk ($how)"
expect_in "$says" "$err" "import names the database and says why"
expect_not_in "not a perfcorr database" "$err" "no misleading message"
expect_eq "$(sqlite3 "$F/db" 'PRAGMA integrity_check')" ok "integrity after full disk"
expect_eq "$(sqlite3 "$F/db" .dump | sha256sum)" "$dig1" "import on a full disk changed nothing"

# watch: the file is not at fault; it stays for the next scan, and
# --once (cron) exits 1 because the delivery is not done
mkdir -p "$T/drop"
cp "$T/big.csv" "$T/drop/big.csv"
echo '{"source": "sim", "kind": "perfsim"}' >"$T/drop/big.csv.perfcorr.json"
run "${limit[@]}" "$PERFCORR" --db "$F/db" watch --once --interval 0.1 "$T/drop"
expect_rc 1 "watch --once with a delivery left for a retry"
expect_in "retry big.csv: " "$out" "watch logs a retry"
expect_in "$says" "$out" "... naming the database and saying why"
expect_in "1 delivery could not be stored" "$err" "watch says what it left"
[ -f "$T/drop/big.csv" ] && [ ! -e "$T/drop/failed/big.csv" ] && ok || fail "full disk moved the file"
expect_eq "$(sqlite3 "$F/db" .dump | sha256sum)" "$dig1" "watch on a full disk changed nothing"

# space again: the next run imports it and exits 0
[ $how = tmpfs ] && mount -o remount,size=16m "$F"
limit=()
run "$PERFCORR" --db "$F/db" watch --once --interval 0.1 "$T/drop"
expect_rc 0 "watch --once with space"
expect_in "imported big.csv: run" "$out" "imported once there is space"
expect_eq "$(sqlite3 "$F/db" "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.file_name = 'big.csv'")" \
	20000 "every row of it"
[ $how = tmpfs ] && umount "$F"
finish
