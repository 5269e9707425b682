#!/usr/bin/env bash
# Crash safety: kill -9 at random points of a large import leaves a
# database that passes integrity_check with no partial run, and the
# import then succeeds. A read-only database, a full disk and a missing
# directory give a clear error and change nothing.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
csv_rows "$T/big.csv" 60000 k
csv_rows "$T/small.csv" 50 s
pc import -q --source lab --kind silicon "$T/small.csv"
before=$(db_digest)

# --- kill -9 at random points ----------------------------------------------
RANDOM=42
for i in 1 2 3 4 5 6; do
	"$PERFCORR" import -q --source sim --kind perfsim "$T/big.csv" 2>/dev/null &
	p=$!
	sleep "0.$(( RANDOM % 9 + 1))$(( RANDOM % 10 ))"
	kill -9 $p 2>/dev/null
	wait $p 2>/dev/null
	expect_eq "$(q 'PRAGMA integrity_check')" ok "integrity after kill $i"
	runs=$(q "SELECT count(*) FROM runs WHERE file_name = 'big.csv'")
	rows=$(q "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.file_name = 'big.csv'")
	case "$runs/$rows" in
	0/0) ;;	# killed before the commit: nothing
	1/60000) break ;;	# finished before the kill: everything
	*) fail "partial run after kill $i: $runs runs, $rows rows" ;;
	esac
	expect_eq "$(q "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.file_name = 'small.csv'")" 50 "earlier run intact after kill $i"
done
run pc import -q --source sim --kind perfsim "$T/big.csv"
[ $rc -eq 0 ] && ok || fail "re-import after kill -9: $err"
expect_eq "$(q "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.file_name = 'big.csv'")" 60000 "complete after re-import"
expect_eq "$(q 'PRAGMA integrity_check')" ok "integrity at the end"

# --- a missing directory ----------------------------------------------------
run pc --db "$T/no/such/dir/x.db" import --source lab --kind silicon "$T/small.csv"
expect_rc 1 "database in a missing directory"
expect_in "cannot open database '$T/no/such/dir/x.db'" "$err" "names the database"
[ ! -e "$T/no" ] && ok || fail "created something for a missing directory"
run pc import --source lab "$T/no/such.csv"
expect_rc 1 "missing input file"
expect_in "cannot open '$T/no/such.csv': No such file or directory" "$err" "names the file"
run pc --db "$T/no/x.db" runs
expect_rc 1 "listing a missing database"
expect_in "does not exist" "$err" "says so"

# --- a read-only database -----------------------------------------------------
cp "$PERFCORR_DB" "$T/ro.db"
chmod 444 "$T/ro.db"
sum=$(sha256sum <"$T/ro.db")
# root ignores file modes: run as nobody when we are root
AS=()
if [ "$(id -u)" -eq 0 ]; then
	chmod 755 "$T"
	AS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
run "${AS[@]}" "$PERFCORR" --db "$T/ro.db" import --source lab2 --kind silicon "$T/small.csv"
expect_rc 1 "import into a read-only database"
expect_in "database '$T/ro.db' is read-only" "$err" "read-only message"
expect_not_in "locked" "$err" "no sqlite jargon"
run "${AS[@]}" "$PERFCORR" --db "$T/ro.db" runs
expect_rc 0 "reading a read-only database works"
expect_in "small.csv" "$out" "lists its runs"
expect_eq "$(sha256sum <"$T/ro.db")" "$sum" "read-only database unchanged"

# --- a full disk ----------------------------------------------------------------
# A small tmpfs when we may mount one; otherwise RLIMIT_FSIZE (ulimit -f)
# makes the same writes fail with EFBIG.
F=$T/full
mkdir -p "$F"
if mount -t tmpfs -o size=600k tmpfs "$F" 2>/dev/null; then
	how=tmpfs
	trap 'umount "$F" 2>/dev/null; rm -rf "$T"' EXIT
	limit=()
else
	how=fsize
	limit=(bash -c 'trap "" XFSZ; ulimit -f 600; exec "$@"' x)
fi
pc --db "$F/db" import -q --source lab --kind silicon "$T/small.csv" || fail "small import on $how"
dig1=$(sqlite3 "$F/db" .dump | sha256sum)
run "${limit[@]}" "$PERFCORR" --db "$F/db" import --source sim --kind perfsim "$T/big.csv"
expect_rc 1 "import onto a full disk ($how)"
case "$err" in
*"': the disk is full ("*|*"': a file reached the size limit"*) ok ;;
*) fail "unclear full-disk message: $err" ;;
esac
expect_eq "$(sqlite3 "$F/db" 'PRAGMA integrity_check')" ok "integrity after full disk"
expect_eq "$(sqlite3 "$F/db" .dump | sha256sum)" "$dig1" "full disk changed nothing"
# the watcher on a full disk: the file is not at fault, it stays for the
# next scan instead of landing in failed/
mkdir -p "$T/drop"
cp "$T/big.csv" "$T/drop/big.csv"
echo '{"source": "sim", "kind": "perfsim"}' >"$T/drop/big.csv.perfcorr.json"
run "${limit[@]}" "$PERFCORR" --db "$F/db" watch --once --interval 0.1 "$T/drop"
expect_in "retry big.csv: " "$out" "watch retries on a full disk"
[ -f "$T/drop/big.csv" ] && [ ! -e "$T/drop/failed/big.csv" ] && ok || fail "full disk moved the file"
expect_eq "$(sqlite3 "$F/db" .dump | sha256sum)" "$dig1" "watch on a full disk changed nothing"
[ $how = tmpfs ] && umount "$F"
echo "full disk simulated with: $how"
finish
