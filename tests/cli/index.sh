# perfcorr index: the pair cache is built once per pairing, reused, listed,
# dropped with --clear, and cleared when a run is replaced or deleted;
# what the cache gives back is what a fresh pairing gives (compare).
. "$(dirname "$0")/../cli/lib.sh"
F="$FIXTURES/tui"
cached() { pcsql "SELECT count(*) FROM pair_cache"; }

pc init >/dev/null
pc import --source h100-lab --kind silicon --version 2026.11 \
	"$F/silicon.csv" 2>/dev/null
pc import --source archsim --kind perfsim --version 2.4.0 \
	"$F/archsim.csv" 2>/dev/null
pc import --source roofline --kind roofline --version 1.0 \
	"$F/roofline.csv" 2>/dev/null
pc import --source t100-rtl --kind rtl --version r42 "$F/rtl.csv" 2>/dev/null
expect_eq "$(cached)" "0" "import caches nothing"

run pc index
expect_rc 0 "index"
expect_in "archsim@2.4.0 vs h100-lab@2026.11: 12 pairs, indexed" "$err" \
	"perfsim vs silicon indexed"
expect_in "roofline@1.0 vs h100-lab@2026.11: 7 pairs, indexed" "$err" \
	"roofline vs silicon indexed"
n=$(cached)
[ "$n" -ge 3 ] && ok || fail "expected >= 3 cached pairings, got $n"

run pc index -m archsim -r h100-lab
expect_rc 0 "index again"
expect_in "12 pairs, already cached" "$err" "second time is a read"
expect_not_in "roofline" "$err" "--model/--ref select the pairs"

run pc index --list
expect_rc 0 "list"
expect_in "archsim@2.4.0 vs h100-lab@2026.11" "$out" "listed"

# compare pairs afresh (it does not read the cache) and agrees
compare=$(pc compare -m archsim -r h100-lab --format json 2>/dev/null)
expect_in '"n":12,' "$compare" "compare n"

# replacing a run drops every entry (its id may be reused)
pc import --replace --source h100-lab --kind silicon --version 2026.11 \
	"$F/silicon.csv" 2>/dev/null
expect_eq "$(cached)" "0" "--replace clears the cache"
run pc index -q
expect_rc 0 "quiet"
expect_eq "$err" "" "quiet says nothing"
[ "$(cached)" -ge 3 ] && ok || fail "re-indexed after replace"

run pc index --clear
expect_rc 0 "clear"
expect_eq "$(cached)" "0" "cleared"
expect_eq "$(pcsql 'SELECT count(*) FROM pair_cache_parts')" \
	"0" "parts go with their entries"

# import --index caches the new run's pairings (either side) at once
run pc import --index --source archsim --kind perfsim --version 2.3.0 \
	"$F/archsim_v1.csv"
expect_rc 0 "import --index"
expect_in "indexed archsim@2.3.0 vs h100-lab@2026.11: 8 pairs" "$err" \
	"the new version against silicon"
expect_in "indexed archsim@2.3.0 vs t100-rtl@r42" "$err" "and against rtl"
expect_not_in "roofline@1.0 vs h100-lab" "$err" "other sources' pairs alone"
run pc index -m archsim -r h100-lab
expect_in "8 pairs, already cached" "$err" "the TUI's pair is ready"

# a pair that cannot pair (cycles without a clock) is named and skipped;
# the others are indexed; exit 1
printf 'workload,op,metric,value,unit\nllama3-8b/decode/bs=32/seq=2048/bf16,gemm_qkv,cycles,190000,cycles\n' \
	>"$T/cyc.csv"
pc import -q --source rtl2 --kind rtl --version c1 "$T/cyc.csv"
run pc index
expect_rc 1 "a pair failed"
expect_in "perfcorr index: rtl2 vs h100-lab: " "$err" "names the pair"
expect_in "has no clock" "$err" "and why"
expect_in "(skipped)" "$err" "skipped"
expect_in "archsim@2.3.0 vs h100-lab@2026.11: 8 pairs" "$err" \
	"the others still run"
sed 's/190000/191000/' "$T/cyc.csv" >"$T/cyc2.csv"
run pc import --index --source rtl2 --kind rtl --version c2 "$T/cyc2.csv"
expect_rc 0 "import --index: the data is in"
expect_in "warning: not indexed: rtl2 vs h100-lab: " "$err" "a warning"

# another run of a version makes a new entry that replaces the old one
head -5 "$F/archsim_v1.csv" >"$T/v1b.csv"	# other bytes: a new run
pc import -q --source archsim --version 2.3.0 "$T/v1b.csv"
run pc index -m archsim -r h100-lab
expect_rc 0 "index after a new run of 2.3.0"
expect_in "indexed in" "$err" "a new pairing"
expect_eq "$(pcsql "SELECT count(*) FROM pair_cache WHERE label = 'archsim@2.3.0 vs h100-lab@2026.11'")" \
	"1" "one entry a label"

run pc index --model nosuch
expect_rc 1 "nothing pairs"
expect_in "no model/reference pair matches anything" "$err" "says why"
finish
