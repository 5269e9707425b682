# Which pair the TUI opens on (and `perfcorr index` prepares first): of
# two references of one kind, the one with the most keys in common with
# the model, not the first by name. Here sim predicts 4 keys; a-lab
# measured 1 of them, b-lab all 4 (counted by hand from the files
# below): the review opens on sim vs b-lab, whose name sorts second.
. "$(dirname "$0")/../tui/libtui.sh"

printf 'workload,op,metric,value,unit\n' >"$T/sim.csv"
printf 'workload,op,metric,value,unit\n' >"$T/b.csv"
for bs in 1 2 4 8; do
	printf 'm/bs=%s,gemm,time,%s,us\n' $bs $((bs * 10)) >>"$T/sim.csv"
	printf 'm/bs=%s,gemm,time,%s,us\n' $bs $((bs * 11)) >>"$T/b.csv"
done
printf 'workload,op,metric,value,unit\nm/bs=1,gemm,time,12,us\nm/bs=1,softmax,time,3,us\nm/bs=2,softmax,time,4,us\n' >"$T/a.csv"
pc import -q --source sim --kind perfsim --version 1 "$T/sim.csv" &&
pc import -q --source a-lab --kind silicon --version 1 "$T/a.csv" &&
pc import -q --source b-lab --kind silicon --version 1 "$T/b.csv" ||
	fail "imports"
# the overlap, independently: keys of sim also in each lab
common() {
	sqlite3 "$PERFCORR_DB" "SELECT count(*) FROM (SELECT DISTINCT workload_id, op_id, metric_id FROM results r JOIN runs u ON u.id = r.run_id JOIN sources s ON s.id = u.source_id WHERE s.name = 'sim' INTERSECT SELECT DISTINCT workload_id, op_id, metric_id FROM results r JOIN runs u ON u.id = r.run_id JOIN sources s ON s.id = u.source_id WHERE s.name = '$1')"
}
expect_eq "$(common a-lab) $(common b-lab)" "1 4" "a-lab shares 1 key with sim, b-lab 4"

tui_script 100 24 <<KEYS
:save-screen $T/start.screen
q
KEYS
expect_rc 0 "open and quit"
expect_in "sim@1 (perfsim) vs b-lab@1 (silicon)" "$(screen_line "$T/start.screen" 1)" \
	"opens on the pair with the most common keys"

run pc index
expect_rc 0 "index"
expect_eq "$(grep -o 'sim@1 vs [a-z]*-lab' <<<"$err" | tr '\n' ' ')" \
	"sim@1 vs b-lab sim@1 vs a-lab " "index prepares b-lab first"

# a tie keeps the order by name: a second lab with the same 4 keys
pc import -q --source a2-lab --kind silicon --version 1 "$T/b.csv" || fail "import a2-lab"
tui_script 100 24 <<KEYS
:save-screen $T/tie.screen
q
KEYS
expect_in "sim@1 (perfsim) vs a2-lab@1 (silicon)" "$(screen_line "$T/tie.screen" 1)" \
	"a tie: the first by name"
# --ref chooses, whatever the overlap
tui_script 100 24 --ref a-lab <<KEYS
:save-screen $T/ref.screen
q
KEYS
expect_in "sim@1 (perfsim) vs a-lab@1 (silicon)" "$(screen_line "$T/ref.screen" 1)" \
	"--ref a-lab is honoured"
finish
