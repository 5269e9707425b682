# A repeated key is found when its batch is stored (db/wbatch.c: the
# primary key refuses it, no per-result filter), which may be after later
# records were read. The first error of the file is still the one named,
# at its own line, exactly as when every result was checked as it came:
# a duplicate before another error wins, a later one does not, and a
# duplicate found while storing a later batch names its own line.
. "$(dirname "$0")/../cli/lib.sh"

pc init >/dev/null
digest=$(db_digest)

# rows: "w,oN,time,1,us" for N in $1..$2 (distinct keys)
rows() { for i in $(seq "$1" "$2"); do echo "w,o$i,time,$i,us"; done; }
hdr="workload,op,metric,value,unit"

# 1. a duplicate (line 5, of line 3) then an unknown unit (line 6): both in
# the pending batch; the duplicate is first
{ echo "$hdr"; rows 1 3; echo "w,o2,time,9,us"; echo "w,o7,time,1,furlongs"; } > "$T/a.csv"
run pc import -s a -k perfsim "$T/a.csv"
expect_rc 1 "duplicate, then a bad unit"
expect_eq "$err" "perfcorr import: $T/a.csv:5: duplicate result for workload 'w', op 'o2', metric 'time'" \
	"the duplicate at its line, nothing else"

# 2. the other order: the bad unit (line 4) comes before the duplicate
{ echo "$hdr"; rows 1 2; echo "w,o7,time,1,furlongs"; echo "w,o2,time,9,us"; } > "$T/b.csv"
run pc import -s b -k perfsim "$T/b.csv"
expect_rc 1 "bad unit, then a duplicate"
expect_in "b.csv:4: unknown unit 'furlongs'" "$err" "the bad unit first"
expect_not_in "duplicate" "$err" "the later duplicate is not reached"

# 3. a duplicate (line 4) then the CSV reader's own error (line 6, ragged)
{ echo "$hdr"; rows 1 2; echo "w,o1,time,9,us"; rows 3 3; echo "w,o4,time,1"; } > "$T/c.csv"
run pc import -s c -k perfsim "$T/c.csv"
expect_rc 1 "duplicate, then a ragged line"
expect_in "c.csv:4: duplicate result for workload 'w', op 'o1', metric 'time'" \
	"$err" "the duplicate before the reader's error"
expect_not_in "fields" "$err" "not the ragged line"

# 4. two duplicates: the first is named
{ echo "$hdr"; rows 1 5; echo "w,o4,time,9,us"; echo "w,o2,time,9,us"; } > "$T/d.csv"
run pc import -s d -k perfsim "$T/d.csv"
expect_rc 1 "two duplicates"
expect_in "d.csv:7: duplicate result for workload 'w', op 'o4', metric 'time'" \
	"$err" "the first one"

# 5. a duplicate at line 20 of line 2, found when the batch of 32 is stored
# (at line 33): line 20 is named, in a batch stored whole before it (line
# 40 of line 35) too
{ echo "$hdr"; rows 1 18; echo "w,o1,time,9,us"; rows 19 50; } > "$T/e.csv"
run pc import -s e -k perfsim "$T/e.csv"
expect_rc 1 "duplicate inside a full batch"
expect_eq "$err" "perfcorr import: $T/e.csv:20: duplicate result for workload 'w', op 'o1', metric 'time'" \
	"its own line"
{ echo "$hdr"; rows 1 38; echo "w,o34,time,9,us"; rows 39 50; } > "$T/f.csv"
run pc import -s f -k perfsim "$T/f.csv"
expect_rc 1 "duplicate of a stored batch"
expect_in "f.csv:40: duplicate result for workload 'w', op 'o34', metric 'time'" \
	"$err" "its own line"

# 6. the same key spelled twice (canonical key, named as stored), in the
# last rows (the tail stored when the file ends)
{ echo "$hdr"; rows 1 40; echo "m/batch=2/BF16,a,time,1,us"; echo "m/bs=2/bf16,a,time,1,us"; } > "$T/g.csv"
run pc import -s g -k perfsim "$T/g.csv"
expect_rc 1 "duplicate in the tail"
expect_eq "$err" "perfcorr import: $T/g.csv:43: duplicate result for workload 'm/bs=2/bf16', op 'a', metric 'time'" \
	"canonical key, its line"
expect_eq "$(db_digest)" "$digest" "nothing stored by any of them"

# 7. roofline: an op row given twice is named at its line of the ops file
{ echo "op,precision,m,n,k"; echo "gemm,bf16,256,256,256"; echo "gemm,bf16,512,512,512"; echo "gemm,bf16,256,256,256"; } > "$T/ops.csv"
run pc roofline --hw "$FIXTURES/roofline/h100_sxm.json" --ops "$T/ops.csv" --source rl
expect_rc 1 "a repeated GEMM"
expect_in "ops.csv:4: duplicate result for workload 'gemm/k=256/m=256/n=256/bf16', op 'gemm', metric 'time'" \
	"$err" "the repeated op's line"
expect_eq "$(db_digest)" "$digest" "nothing stored"
finish
