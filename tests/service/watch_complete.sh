#!/usr/bin/env bash
# Only complete deliveries are imported, and what is archived is exactly
# what was imported: manifest size/sha256, a last line without newline
# waits, bounded back-off, a file renamed over mid-import.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
D=$T/drop; mkdir "$D"

# --- a sender paused mid-line: "12" of what will be "1234" ---------------
printf 'workload,op,metric,value,unit\nm/bs=1,gemm,time,12' >"$D/part.csv"
printf '{"source": "lab", "kind": "silicon"}\n' >"$D/part.csv.perfcorr.json"
run pc watch --once --interval 0.1 "$D"
expect_rc 0 "watch runs"
expect_in "waiting part.csv: waiting: the last line has no newline yet" "$out" "waits"
expect_eq "$(q "SELECT count(*) FROM runs")" 0 "nothing imported truncated"
printf '34,us\n' >>"$D/part.csv"
run pc watch --once --interval 0.1 "$D"
expect_in "imported part.csv" "$out" "imported once complete"
# stored in seconds: 1234 us = 0.001234 s (12 us would be 1.2e-05)
expect_eq "$(q "SELECT value FROM results")" 0.001234 "the whole value (not 12)"

# a file that simply ends without a newline is imported once it stayed
# unchanged through every wait (10 tries, 1+1+2+...+32 scans)
printf 'workload,op,metric,value,unit\nm/bs=9,gemm,time,7,us' >"$D/nonl.csv"
printf '{"source": "lab"}\n' >"$D/nonl.csv.perfcorr.json"
timeout 30 "$PERFCORR" watch --interval 0.01 "$D" >"$T/nonl.log" 2>/dev/null &
NP=$!
wait_for 25 grep -q "imported nonl.csv" "$T/nonl.log" && ok || fail "never imported: $(cat "$T/nonl.log")"
kill $NP 2>/dev/null; wait $NP 2>/dev/null
expect_eq "$(grep -c 'nonl.csv' "$T/nonl.log")" 2 "one 'waiting' line, then 'imported'"

# --- size and sha256 in the manifest ----------------------------------
printf 'workload,op,metric,value,unit\nm/bs=2,gemm,time,5,us\nm/bs=3,gemm,time,6,us\n' >"$T/full.csv"
size=$(stat -c %s "$T/full.csv"); sha=$(sha256sum "$T/full.csv" | cut -d' ' -f1)
head -c $((size - 6)) "$T/full.csv" >"$D/sized.csv"	# short
printf '{"source": "lab", "size": %d}\n' "$size" >"$D/sized.csv.perfcorr.json"
cp "$T/full.csv" "$D/hashed.csv"; printf 'x' >>"$D/hashed.csv"
printf '{"source": "lab", "sha256": "%s"}\n' "$sha" >"$D/hashed.csv.perfcorr.json"
cp "$T/full.csv" "$D/long.csv"
printf '{"source": "lab", "size": %d}\n' $((size - 1)) >"$D/long.csv.perfcorr.json"
run pc watch --once --interval 0.1 "$D"
expect_in "waiting sized.csv: waiting: $((size - 6)) of $size bytes (manifest 'size')" "$out" "size: waits, even at a line end"
expect_in "waiting hashed.csv: waiting: sha256 does not match" "$out" "sha256: waits"
expect_in "failed long.csv: long.csv: $size bytes, the manifest says $((size - 1))" "$out" "longer than the manifest: failed"
cp "$T/full.csv" "$D/sized.csv"; cp "$T/full.csv" "$D/hashed.csv"
run pc watch --once --interval 0.1 "$D"
# the same bytes: the first in name order is imported, the other is a duplicate
expect_in "imported hashed.csv" "$out" "complete by hash"
expect_in "duplicate sized.csv" "$out" "complete by size"

# --- bounded back-off: a delivery that never completes --------------------
head -c 30 "$T/full.csv" >"$D/never.csv"
printf '{"source": "lab", "size": %d}\n' "$size" >"$D/never.csv.perfcorr.json"
timeout 12 "$PERFCORR" watch --interval 0.01 "$D" >"$T/never.log" 2>/dev/null
n=$(grep -c 'never.csv' "$T/never.log")
expect_eq "$n" 2 "one 'waiting' and one 'giving up' line, not one per scan"
expect_in "giving up after 10 tries" "$(cat "$T/never.log")" "gives up"
[ -f "$D/never.csv" ] && ok || fail "the delivery stays"
[ -z "$(ls -A "$D/imported" | grep staging)" ] && ok || fail "staging debris: $(ls -A "$D/imported")"

# --- a file renamed over while it is being imported ---------------------
rm -f "$D"/never.csv*
csv_rows "$T/big.csv" 60000 a
csv_rows "$T/other.csv" 100 z
deliver "$D" swap.csv "$T/big.csv" '{"source": "swap", "kind": "silicon"}'
start_watch "$T/w.log" "$T/w.err" --interval 0.1 "$D"
sleep 0.5	# stable after 0.1 s: the import is under way
cp "$T/other.csv" "$D/.o" && mv "$D/.o" "$D/swap.csv"
wait_for 60 grep -q "swap.csv" "$T/w.log" || fail "no line for swap.csv"
stop_pid $WP TERM 30
dbsha=$(q "SELECT sha256 FROM runs WHERE source_id = (SELECT id FROM sources WHERE name = 'swap')")
arsha=$(sha256sum "$D/imported/swap.csv" 2>/dev/null | cut -d' ' -f1)
[ -n "$dbsha" ] && ok || fail "swap.csv imported: $(cat "$T/w.log")"
expect_eq "$arsha" "$dbsha" "the archive holds exactly the bytes imported"
finish
