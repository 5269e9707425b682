#!/usr/bin/env bash
# One database, at once: the watch ingester, a second importer, two
# annotating processes (perfcorr annotate) and three readers (pc_stress
# read through db/, perfcorr runs/export, the TUI reloading headless). Every write must be there and no
# "database is locked" may reach anyone. Bounded: fixed operation counts.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
D=$T/drop
mkdir -p "$D"
N_ANNOT=100	# per annotator
N_FILES=10	# through watch
N_DIRECT=6	# through perfcorr import
pc init 2>/dev/null
# a model and a reference that pair, so the TUI has something to show
csv_rows "$T/seed.csv" 50 s
pc import -q --source ci-sim --kind perfsim "$T/seed.csv"
pc import -q --source lab --kind silicon "$T/seed.csv"
M='{"source": "ci-sim", "kind": "perfsim", "version": "v1"}'
for i in $(seq 1 $N_FILES); do csv_rows "$T/w$i.csv" $((300 + i)) "w${i}_"; done
for i in $(seq 1 $N_DIRECT); do csv_rows "$T/d$i.csv" $((200 + i)) "d${i}_"; done

start_watch "$T/watch.log" "$T/watch.err" --interval 0.1 "$D"
annotator() { # TAG: N_ANNOT annotations through the CLI, note TAG-i
	local i
	for i in $(seq 0 $((N_ANNOT - 1))); do
		"$PERFCORR" annotate --status investigating --category modeling-error \
			--workload "m/decode/bs=$((i % 7))" --op s0 --metric time \
			--note "$1-$i" --author "$1" >/dev/null || echo "annotate $1-$i failed" >&2
	done
}
annotator alice 2>"$T/a1.err" &
A1=$!
annotator bob 2>"$T/a2.err" &
A2=$!
"$PC_STRESS" read "$PERFCORR_DB" 6 >"$T/r1.out" 2>"$T/r1.err" &
R1=$!
(	# the second ingester
	for i in $(seq 1 $N_DIRECT); do
		"$PERFCORR" import -q --source lab --kind silicon "$T/d$i.csv" || echo "import d$i failed"
	done
) >"$T/imp.out" 2>"$T/imp.err" &
I1=$!
(	# a reader through the CLI (what a person at a terminal does)
	end=$(( $(date +%s) + 6 ))
	while [ "$(date +%s)" -lt $end ]; do
		"$PERFCORR" runs >/dev/null || echo "runs failed"
		"$PERFCORR" export results >/dev/null || echo "export failed"
	done
) >"$T/r2.out" 2>"$T/r2.err" &
R2=$!
(	# the TUI, headless: open, runs view, reload 20 times, quit; again
	{ echo 4; for i in $(seq 20); do echo r; done; echo q; echo q; echo q; } >"$T/keys"
	end=$(( $(date +%s) + 6 ))
	while [ "$(date +%s)" -lt $end ]; do
		PERFCORR_HEADLESS=1 PERFCORR_SCRIPT="$T/keys" TERM=dumb \
			COLUMNS=100 LINES=30 timeout 60 "$PERFCORR" tui --model ci-sim@unversioned --ref lab >/dev/null || echo "tui failed"
	done
) >"$T/r3.out" 2>"$T/r3.err" &
R3=$!
for i in $(seq 1 $N_FILES); do
	deliver "$D" "w$i.csv" "$T/w$i.csv" "$M"
	sleep 0.15
done
wait $A1
wait $A2
wait $I1; expect_eq $? 0 "direct importer"
wait $R1; expect_eq $? 0 "reader 1"
wait $R2; expect_eq $? 0 "reader 2"
wait $R3; expect_eq $? 0 "reader 3 (tui)"
wait_for 120 test "$(ls "$D/imported" | grep -c 'perfcorr.json$')" -eq $N_FILES || fail "watch did not import every file: $(ls "$D")"
stop_pid $WP TERM 120
expect_eq "$wrc" 0 "watch stops cleanly"

all_err=$(cat "$T"/[air]*.err "$T/imp.out" "$T/r2.out" "$T/r3.out"; grep -v watching "$T/watch.err")
expect_not_in "locked" "$all_err" "no 'database is locked' reached anyone"
expect_not_in "busy" "$all_err" "no busy error reached anyone"
expect_not_in "failed" "$all_err" "no failed command"
expect_eq "$(grep -c '^.* imported w' "$T/watch.log")" $N_FILES "watch logged every file"
expect_eq "$(q "SELECT count(*) FROM annotations")" $((2 * N_ANNOT)) "every annotation stored"
for who in alice bob; do
	missing=$(q "WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < $N_ANNOT - 1) SELECT count(*) FROM s WHERE NOT EXISTS (SELECT 1 FROM annotations WHERE note = '$who-' || i)")
	expect_eq "$missing" 0 "no lost annotation of $who"
done
expect_eq "$(q "SELECT count(*) FROM runs")" $((N_FILES + N_DIRECT + 2)) "every run stored"
want=100
for i in $(seq 1 $N_FILES); do want=$((want + 300 + i)); done
for i in $(seq 1 $N_DIRECT); do want=$((want + 200 + i)); done
expect_eq "$(q "SELECT count(*) FROM results")" $want "every result stored"
expect_eq "$(q 'PRAGMA integrity_check')" ok "integrity"
echo "reader rounds: $(cat "$T/r1.out")"
finish
