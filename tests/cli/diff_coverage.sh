# perfcorr diff: a pair that appears (a new workload with a 100% error)
# is a change: the verdict never says "no value changed" then. The pairs
# only one version holds are named (issue 39): in the JSON always, in the
# table with --all, with their error.
. "$(dirname "$0")/../cli/lib.sh"
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
printf 'workload,op,metric,value,unit\nw/bs=1,e2e,time,1,ms\nw/bs=2,e2e,time,2,ms\n' >"$T/ref.csv"
printf 'workload,op,metric,value,unit\nw/bs=1,e2e,time,1.1,ms\n' >"$T/m1.csv"
printf 'workload,op,metric,value,unit\nw/bs=1,e2e,time,1.1,ms\nw/bs=2,e2e,time,4,ms\n' >"$T/m2.csv"
pc init >/dev/null
pc import -q --source lab --kind silicon --version 1 "$T/ref.csv"
pc import -q --source sim --kind perfsim --version 1 "$T/m1.csv"
pc import -q --source sim --kind perfsim --version 2 "$T/m2.csv"
run pc diff --model sim@1..2 --ref lab
expect_rc 0 "diff"
expect_in "pairs: 1 common, 0 moved by >= " "$out" "counts"
expect_in ", 0 only before, 1 only after" "$out" "the new pair counted"
expect_in "no common value changed, but the coverage did (pairs only before or only after)" \
	"$out" "verdict names the coverage change"
expect_not_in "no value changed" "$out" "not 'no value changed'"
expect_not_in "pairs only after" "$out" "the list is --all's"
run pc diff --model sim@1..2 --ref lab --format json
expect_eq "$(printf '%s' "$out" | j "d['only_after'], d['only_after_pairs'], d['only_before_pairs']")" \
	"(1, [{'workload': 'w/bs=2', 'op': 'e2e', 'metric': 'time', 'model': 0.004, 'ref': 0.002, 'err': 1}], [])" \
	"JSON names the new pair with its error"
run pc diff --model sim@1..2 --ref lab --all
expect_in "pairs only after, new in the later version (1):" "$out" "--all: the new pairs"
expect_eq "$(printf '%s\n' "$out" | sed -n '/^pairs only after/,$p' | awk 'NR == 3 { print $1, $2, $3, $4 }')" \
	"w/bs=2 e2e time 100.00%" "--all: the new pair's row"
# the other way round: the pair vanishes from 2 to 1
run pc diff --model sim@2..1 --ref lab --format json
expect_eq "$(printf '%s' "$out" | j "[(p['workload'], p['err']) for p in d['only_before_pairs']], d['only_after_pairs']")" \
	"([('w/bs=2', 1)], [])" "a pair that vanished is named"
run pc diff --model sim@2..1 --ref lab --all
expect_in "pairs only before, gone in the later version (1):" "$out" "--all: the pairs gone"
finish
