# Input that is not a regular file: /dev/zero would be hashed forever, a
# FIFO or <(...) cannot be re-read after hashing (it used to be reported
# as "empty file"). Refused at once with a message and the cure; stdin
# ("-") still works.
. "$TESTS/cli/lib.sh"
printf 'workload,op,metric,value,unit\nm/bs=1,gemm,time,10,us\n' >"$T/r.csv"
run timeout 20 "$PERFCORR" import --source lab --kind silicon /dev/zero
expect_rc 1 "/dev/zero refused, not hashed forever"
expect_in "'/dev/zero' is not a regular file (a pipe, device, directory or <(...))" "$err" "says why"
expect_in "pipe it into 'perfcorr import -'" "$err" "and the cure"
run timeout 20 "$PERFCORR" import --source lab --kind silicon <(cat "$T/r.csv")
expect_rc 1 "<(...) refused"
expect_in "is not a regular file" "$err" "not 'empty file'"
expect_not_in "empty file" "$err" "no misleading message"
mkfifo "$T/fifo.csv"
run timeout 20 "$PERFCORR" import --source lab --kind silicon "$T/fifo.csv"
expect_rc 1 "a FIFO without a writer: refused, no hang"
expect_in "'$T/fifo.csv' is not a regular file" "$err" "FIFO named"
run timeout 20 "$PERFCORR" import --source lab --kind silicon --map "$T/fifo.csv" "$T/r.csv"
expect_rc 1 "a FIFO as mapping rules: refused, no hang"
expect_in "mapping rules '$T/fifo.csv' is not a regular file" "$err" "map FIFO named"
expect_eq "$(pcsql 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" 0 "nothing imported"
run sh -c "cat '$T/r.csv' | '$PERFCORR' import --source lab --kind silicon -"
expect_rc 0 "stdin still imports"
finish
