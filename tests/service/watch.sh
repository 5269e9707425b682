#!/usr/bin/env bash
# perfcorr watch: manifests, imported/ and failed/, re-delivery by hash,
# growing files, restart safety, clean stop on SIGTERM/SIGINT.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
D=$T/drop
mkdir -p "$D"
M='{"source": "lab", "kind": "silicon", "platform": "H100", "clock_mhz": 1500, "version": "r1", "params": {"tp": 1}}'

# --- usage and a missing directory -------------------------------------
run pc watch
expect_rc 2 "no DIR is a usage error"
run pc watch --interval 0 "$D"
expect_rc 2 "--interval 0"
run pc watch --once "$T/nope"
expect_rc 1 "missing directory"
expect_in "cannot watch '$T/nope': No such file or directory" "$err" "missing dir message"

# --- one good file, one bad file, manifest problems ----------------------
deliver "$D" ok.csv "$FIXTURES/native/ok.csv" "$M"
deliver "$D" bad.csv "$FIXTURES/native/bad_unit.csv" "$M"
deliver "$D" badman.csv "$FIXTURES/native/ok.csv" '{"source": "lab", "colour": "red"}'
printf '{"source": "lab", "kind": "silicon"}\n' >"$D/nodata.csv.perfcorr.json"
cp "$FIXTURES/native/ok.json" "$D/nomanifest.json"
mkfifo "$D/pipe.csv"	# would block a reader forever
printf '{"source": "lab", "kind": "silicon"}\n' >"$D/pipe.csv.perfcorr.json"
run timeout 60 "$PERFCORR" watch --once --interval 0.1 "$D"
expect_rc 0 "watch --once"
expect_eq "$(grep -c . <<<"$out")" 5 "one log line per delivery"
expect_in "failed pipe.csv: 'pipe.csv' is not a regular file" "$out" "a FIFO is refused"
expect_in "imported ok.csv: run 1 (perfcorr-csv): " "$out" "log: imported"
expect_in "failed bad.csv: " "$out" "log: failed"
expect_in "failed badman.csv: " "$out" "log: bad manifest"
expect_in "failed nodata.csv: data file 'nodata.csv' is missing" "$out" "log: no data"
[ -f "$D/imported/ok.csv" ] && [ -f "$D/imported/ok.csv.perfcorr.json" ] && ok || fail "ok.csv not moved to imported/"
[ -f "$D/failed/bad.csv" ] && [ -f "$D/failed/bad.csv.perfcorr.json" ] && ok || fail "bad.csv not in failed/"
expect_in "unknown unit" "$(cat "$D/failed/bad.csv.error")" ".error holds the message"
expect_in "unknown key 'colour'" "$(cat "$D/failed/badman.csv.error")" "manifest error"
[ -f "$D/nomanifest.json" ] && ok || fail "a file without manifest must stay"
expect_eq "$(q "SELECT platform || ' ' || version || ' ' || clock_hz FROM runs")" "H100 r1 1500000000.0" "manifest facts stored"
expect_eq "$(q "SELECT count(*) FROM runs")" 1 "one run"

# --- re-delivery: same bytes (other name, same name) ---------------------
deliver "$D" again.csv "$FIXTURES/native/ok.csv" "$M"
run pc watch --once --interval 0.1 "$D"
expect_in "duplicate again.csv: " "$out" "same bytes, new name"
expect_in "already imported as run 1" "$out" "names the run"
deliver "$D" ok.csv "$FIXTURES/native/ok.csv" "$M"
run pc watch --once --interval 0.1 "$D"
expect_in "duplicate ok.csv" "$out" "same name again"
[ -f "$D/imported/ok.csv~2" ] && [ -f "$D/imported/ok.csv~2.perfcorr.json" ] && ok || fail "second ok.csv kept as ok.csv~2"
expect_eq "$(q "SELECT count(*) FROM runs")" 1 "still one run"

# --- crash between commit and move: the next watcher sees a duplicate ----
csv_rows "$T/c1.csv" 40
pc import -q --source lab --version r1 --platform H100 --clock-mhz 1500 \
	--param tp=1 "$T/c1.csv"	# the manifest's identity (docs/schema.md)
deliver "$D" c1.csv "$T/c1.csv" "$M"
run pc watch --once --interval 0.1 "$D"
expect_in "duplicate c1.csv" "$out" "committed but not moved"
# --- crash between the two renames: data moved, manifest left -----------
csv_rows "$T/c2.csv" 30 k
deliver "$D" c2.csv "$T/c2.csv" "$M"
run pc watch --once --interval 0.1 "$D"
mv "$D/imported/c2.csv.perfcorr.json" "$D/"
run pc watch --once --interval 0.1 "$D"
expect_in "imported c2.csv: finished an interrupted move" "$out" "recovered move"
[ -f "$D/imported/c2.csv.perfcorr.json" ] && [ ! -e "$D/c2.csv.perfcorr.json" ] && ok || fail "manifest not completed"
expect_eq "$(q "SELECT count(*) FROM runs")" 3 "three runs"

# --- a growing file is imported only once complete -----------------------
start_watch "$T/w.log" "$T/w.err" --interval 0.3 "$D"
csv_rows "$T/big.csv" 3000 g
head -c 20000 "$T/big.csv" >"$D/grow.csv"
printf '%s\n' "$M" >"$D/grow.csv.perfcorr.json"
off=20000
size=$(stat -c %s "$T/big.csv")
while [ $off -lt $size ]; do	# ~2 s of trickle, faster than the interval
	tail -c +$((off + 1)) "$T/big.csv" | head -c 6000 >>"$D/grow.csv"
	off=$((off + 6000))
	sleep 0.05
done
wait_for 60 test -f "$D/imported/grow.csv.perfcorr.json" && ok || fail "grow.csv never imported"
expect_eq "$(q "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.file_name = 'grow.csv'")" 3000 "all rows of the grown file"
# --- SIGTERM stops cleanly --------------------------------------------------
stop_pid $WP TERM 60
expect_eq "$wrc" 0 "watch exits 0 on SIGTERM"
expect_in "stopping on signal" "$(cat "$T/w.err")" "says it stops"
expect_eq "$(grep -c 'imported grow.csv' "$T/w.log")" 1 "one line for grow.csv"
# SIGINT while idle, with a short interval
start_watch /dev/null "$T/w3.err" --interval 30 "$D"
sleep 0.5
stop_pid $WP INT 10	# well under the 30 s interval: the sleep is cut
expect_eq "$wrc" 0 "watch exits 0 on SIGINT, mid-sleep"

# --- kill -9 in the middle of a large import, then restart ---------------
csv_rows "$T/huge.csv" 40000 h
deliver "$D" huge.csv "$T/huge.csv" "$M"
start_watch "$T/w2.log" "$T/w2.err" --interval 0.1 "$D"
sleep 0.5	# the import has started (stable after 0.1 s), likely not ended
kill -9 $WP; wait $WP 2>/dev/null
expect_eq "$(q 'PRAGMA integrity_check')" ok "integrity after kill -9"
expect_eq "$(q "SELECT count(*) FROM runs WHERE file_name = 'huge.csv' AND NOT EXISTS (SELECT 1 FROM results WHERE run_id = runs.id)")" 0 "no empty/partial run"
run pc watch --once --interval 0.1 "$D"
expect_rc 0 "restart after kill -9"
expect_eq "$(q "SELECT count(*) FROM runs WHERE file_name = 'huge.csv'")" 1 "huge.csv imported exactly once"
expect_eq "$(q "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.file_name = 'huge.csv'")" 40000 "all rows"
[ -f "$D/imported/huge.csv" ] && ok || fail "huge.csv not moved"
[ -z "$(ls "$D" | grep -v -e '^imported$' -e '^failed$' -e '^nomanifest.json$')" ] && ok || fail "leftovers in the drop dir: $(ls "$D")"

# --- --index: after a scan that imported, the pairings are cached -------
D2=$T/drop2
mkdir -p "$D2"
deliver "$D2" hw.csv "$FIXTURES/tui/silicon.csv" '{"source": "hw", "kind": "silicon", "version": "1"}'
deliver "$D2" sim.csv "$FIXTURES/tui/archsim.csv" '{"source": "sim", "kind": "perfsim", "version": "2"}'
run pc watch --once --index --interval 0.1 "$D2"
expect_rc 0 "watch --index"
expect_in "indexed sim@2 vs hw@1: 12 pairs" "$out" "the new pairing is indexed"
expect_eq "$(q "SELECT count(*) FROM pair_cache WHERE label = 'sim@2 vs hw@1'")" 1 "and cached"
run pc watch --once --index --interval 0.1 "$D2"
expect_not_in "indexed" "$out" "nothing imported: nothing re-indexed"
finish
