# The writer's workload cache is bounded (4 096 keys, then it starts
# over; db/writer.c CACHE_MAX; the file must hold more keys than that): a key it has forgotten that comes back is
# the same workload, looked up in the database, also when the database
# held no workload before the import. It used to be inserted again
# ("UNIQUE constraint failed: workloads.key").
. "$(dirname "$0")/../cli/lib.sh"

pc init >/dev/null
awk 'BEGIN { print "workload,op,metric,value,unit"
	for (i = 0; i < 66000; i++) printf "m/rev=%d,a,time,1,us\n", i
	print "m/rev=1,b,time,2,us"; print "m/rev=65999,b,time,3,us" }' > "$T/wl.csv"
run pc import -s s -k perfsim "$T/wl.csv"
expect_rc 0 "a forgotten key comes back"
n=$(pcsql "SELECT count(*) FROM workloads")
expect_eq "$n" "66000" "one workload per distinct key"
n=$(pcsql "SELECT count(*) FROM results r JOIN workloads w ON w.id = r.workload_id WHERE w.key = 'm/rev=1'")
expect_eq "$n" "2" "both results of m/rev=1 on one workload"
finish
