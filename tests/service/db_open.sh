#!/usr/bin/env bash
# Opening databases: another application's SQLite file is refused before
# anything changes; a zero-byte file is a new database; six processes
# creating one new database at once all succeed; a full disk says so;
# the TUI opens a database it may not write read-only, and never waits
# behind another process's write lock to store a pair cache.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
printf 'workload,op,metric,value,unit\nm/bs=1,gemm,time,10,us\nm/bs=2,gemm,time,20,us\n' >"$T/r.csv"
printf 'workload,op,metric,value,unit\nm/bs=1,gemm,time,11,us\nm/bs=2,gemm,time,25,us\n' >"$T/m.csv"

# --- another application's SQLite file ------------------------------------
sqlite3 "$T/app.db" "CREATE TABLE users (id INTEGER, pw TEXT); INSERT INTO users VALUES (1, 'x');"
sum=$(sha256sum <"$T/app.db")
for c in "init" "import --source lab --kind silicon $T/r.csv" "runs"; do
	run pc --db "$T/app.db" $c
	expect_rc 1 "$c on another application's database"
	expect_in "is another application's SQLite database (1 table, none of them perfcorr's): refusing to touch it" "$err" "$c says why"
done
expect_eq "$(sha256sum <"$T/app.db")" "$sum" "the file is unchanged"
expect_eq "$(sqlite3 "$T/app.db" 'PRAGMA journal_mode')" delete "not switched to WAL"
expect_eq "$(sqlite3 "$T/app.db" .tables)" users "no perfcorr tables added"

# --- a zero-byte file is a new database ---------------------------------
: >"$T/zero.db"
run pc --db "$T/zero.db" runs
expect_rc 1 "reading an empty file"
expect_in "database '$T/zero.db' is empty (a zero-byte file) (run 'perfcorr init'" "$err" "says it is new"
run pc --db "$T/zero.db" import --source lab --kind silicon "$T/r.csv"
expect_rc 0 "importing into it creates the database"

# --- six processes create one new database at once ---------------------
bad=0
for round in $(seq 1 40); do
	rm -f "$T/race.db" "$T/race.db-wal" "$T/race.db-shm"
	pids=()
	for k in 1 2 3 4 5 6; do
		"$PERFCORR" --db "$T/race.db" init >/dev/null 2>"$T/race.$k" &
		pids+=($!)
	done
	for k in 1 2 3 4 5 6; do
		wait "${pids[$((k - 1))]}" || { bad=$((bad + 1)); echo "round $round: $(cat "$T/race.$k")" >&2; }
	done
done
expect_eq "$bad" 0 "240 concurrent creations, none failed"
expect_eq "$(sqlite3 "$T/race.db" 'PRAGMA journal_mode')" wal "in WAL mode"

# --- a full disk: says so, not "not a perfcorr database" ----------------
F=$T/full; mkdir "$F"
if mount -t tmpfs -o size=200k tmpfs "$F" 2>/dev/null; then
	trap 'umount "$F" 2>/dev/null; rm -rf "$T"' EXIT
	dd if=/dev/zero of="$F/fill" bs=4k 2>/dev/null
	run pc --db "$F/new.db" import --source lab --kind silicon "$T/r.csv"
	expect_rc 1 "import onto a full disk"
	expect_not_in "not a perfcorr database" "$err" "no misleading message"
	expect_in "full" "$err" "says the disk is full"
	umount "$F"
else
	echo "SKIP: cannot mount a tmpfs here: the full-disk open is not checked"
fi

# --- a damaged database: writes refused with the cure --------------------
. "$TESTS/service/lib_service.sh"
csv_rows "$T/big.csv" 20000 d
pc --db "$T/dmg.db" import -q --source lab --kind silicon "$T/big.csv" || fail "import big"
sqlite3 "$T/dmg.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
python3 - "$T/dmg.db" <<'PY'
# junk in the middle of a b-tree page: the first page from the middle of
# the file on that quick_check notices (a fixed page number broke when the
# schema grew and that page became free or an index's)
import shutil, sqlite3, sys
db = sys.argv[1]
orig = open(db, 'rb').read()
n = len(orig) // 4096
for page in list(range(n // 2, n)) + list(range(1, n // 2)):
    buf = bytearray(orig)
    buf[4096 * page + 200:4096 * page + 500] = b'\xff' * 300
    open(db, 'wb').write(buf)
    c = sqlite3.connect(db)
    try:
        bad = c.execute('PRAGMA quick_check(1)').fetchone()[0] != 'ok'
    except sqlite3.DatabaseError:
        bad = True
    c.close()
    if bad:
        break
PY
[ "$(sqlite3 "$T/dmg.db" 'PRAGMA quick_check(1)')" != ok ] && ok || fail "the damage is real"
sum=$(sha256sum <"$T/dmg.db")
run pc --db "$T/dmg.db" import --source sim --kind perfsim "$T/m.csv"
expect_rc 1 "import into a damaged database refused"
expect_in "is damaged (PRAGMA quick_check:" "$err" "says why"
expect_in ".recover | sqlite3 recovered.db" "$err" "and the cure"
run pc --db "$T/dmg.db" annotate --status open --workload m/bs=1 --op gemm --metric time
expect_rc 1 "an annotation too"
expect_eq "$(sha256sum <"$T/dmg.db")" "$sum" "nothing written"

# --- the TUI on a database it may not write --------------------------
export USER=tester TERM=dumb LC_ALL=C
pc import -q --source lab --kind silicon "$T/r.csv"
pc import -q --source sim --kind perfsim "$T/m.csv"
printf ':save-screen %s/tui.screen\nq\nq\n' "$T" >"$T/keys"
if [ "$(id -u)" -eq 0 ]; then
	R=$T/ro; mkdir "$R"; cp "$PERFCORR_DB" "$R/ro.db"
	chmod 755 "$T" "$R"; chmod 644 "$R/ro.db"; chmod 666 "$T/keys"; chmod 777 "$T"
	run setpriv --reuid=nobody --regid=nogroup --clear-groups env PERFCORR_HEADLESS=1 \
		PERFCORR_SCRIPT="$T/keys" COLUMNS=80 LINES=24 timeout 20 "$PERFCORR" --db "$R/ro.db" tui --model sim --ref lab
	expect_rc 0 "tui opens a read-only database"
	expect_in "opened read-only" "$err" "and says so"
	expect_in "Discrepancies" "$(cat "$T/tui.screen" 2>/dev/null)" "shows the review"
	chmod 700 "$T"
else
	echo "SKIP (not root): the TUI on a database it may not write (needs another user)"
fi

# --- the TUI never waits behind a write lock for its pair cache --------
pc index --clear >/dev/null 2>&1
python3 - "$PERFCORR_DB" "$T/locked" <<'PY' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('BEGIN IMMEDIATE')
open(sys.argv[2], 'w').close()
time.sleep(40)
PY
LP=$!
wait_for 20 test -f "$T/locked" || fail "the lock holder did not start"
start=$(date +%s)
run env PERFCORR_HEADLESS=1 PERFCORR_SCRIPT="$T/keys" COLUMNS=80 LINES=24 timeout 30 "$PERFCORR" tui --model sim --ref lab
took=$(( $(date +%s) - start ))
kill $LP 2>/dev/null; wait $LP 2>/dev/null
expect_rc 0 "tui opens while another process holds the write lock"
[ "$took" -lt 15 ] && ok || fail "the TUI waited ${took} s behind the lock"
expect_eq "$(q 'SELECT count(*) FROM pair_cache')" 0 "nothing cached while busy"
finish
