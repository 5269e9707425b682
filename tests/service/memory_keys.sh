#!/usr/bin/env bash
# Bounded memory on a file of many distinct workloads (a sweep where
# every row is its own configuration): the import writer's workload and
# op id caches are capped (65536 names; db/writer.c CACHE_MAX), so peak
# RSS does not grow with the number of distinct names. Measured: a 100 MB
# file of 2.5 M distinct workloads took 220 MB before the cap.
. "$(dirname "$0")/../cli/lib.sh"
TIME=/usr/bin/time
[ -x $TIME ] || { echo "skip: /usr/bin/time missing"; exit 77; }
[ "$(head -c 4 "$PERFCORR")" = $'\x7fELF' ] || { echo "skip: PERFCORR is a wrapper"; exit 77; }
if ldd "$PERFCORR" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS=quarantine_size_mb=4:detect_leaks=0
	SLACK=48000
else
	SLACK=12000
fi
# gen FILE N: N rows, each its own workload and op (no parameters)
gen() {
	python3 - "$1" "$2" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, 'w') as f:
    f.write('workload,op,metric,value,unit\n')
    f.write(''.join('sweep-%d,op%d,time,%d,us\n' % (i, i, i + 1) for i in range(n)))
    # a name seen again after 65536 others (out of the cache by then)
    f.write('sweep-0,again,time,1,us\n')
PY
}
peak() { tail -1 "$T/time"; }
gen "$T/small.csv" 50000
gen "$T/large.csv" 300000
$TIME -f %M -o "$T/time" "$PERFCORR" import -q --source s --kind silicon "$T/small.csv" || fail "small import"
small=$(peak)
$TIME -f %M -o "$T/time" "$PERFCORR" import -q --source l --kind silicon "$T/large.csv" || fail "large import"
large=$(peak)
echo "peak RSS: 50k distinct workloads and ops ${small} KiB, 300k ${large} KiB"
# without the cap: 250k more names in two maps, ~90 bytes each: ~45 MB
[ "$large" -lt $((small + SLACK)) ] && ok || fail "RSS grows with distinct names: ${small} -> ${large} KiB"
q() { sqlite3 "$PERFCORR_DB" "$1"; }
expect_eq "$(q "SELECT count(*) FROM workloads")" 300000 "every workload stored once (the small file's are the large file's first 50k)"
expect_eq "$(q "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.file_name = 'large.csv'")" 300001 "every row"
# a name evicted from the cache and seen again gets its stored id: the
# first rows of the large file are the small file's workloads
expect_eq "$(q "SELECT count(DISTINCT r.workload_id) FROM results r JOIN runs u ON u.id = r.run_id JOIN workloads w ON w.id = r.workload_id WHERE w.key IN ('sweep-0', 'sweep-49999', 'sweep-299999')")" 3 "ids stay one per name"
expect_eq "$(q "SELECT count(*) FROM results r JOIN workloads w ON w.id = r.workload_id WHERE w.key = 'sweep-7'")" 2 "sweep-7 in both runs, one workload"
expect_eq "$(q "SELECT count(*) FROM results r JOIN workloads w ON w.id = r.workload_id WHERE w.key = 'sweep-0'")" 4 "sweep-0: twice per file (op0, again), one workload"
finish
