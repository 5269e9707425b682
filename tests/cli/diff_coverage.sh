# perfcorr diff: a pair that appears (a new workload with a 100% error)
# is a change: the verdict never says "no value changed" then.
. "$(dirname "$0")/../cli/lib.sh"
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
finish
