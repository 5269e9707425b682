# GenZ operator CSV: units from headers (MB = MiB), Repeat blocks, clock.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
M=$FIXTURES/models

run pc import -s gz -k roofline -w llama3-8b/prefill/bs=1/seq=2048 "$SAMPLES/genz_ops.csv"
expect_rc 0 "sample imports"
expect_in "(genz)" "$err" "auto-detected"
W=llama3-8b/prefill/bs=1/seq=2048
expect_val gz $W QKV time 0.10422569777957533e-3 s
expect_val gz $W QKV cycles 182916.0996031547 cycles
expect_val gz $W QKV flops 103079.215104e6 FLOP
expect_val gz $W QKV bytes 92274688 B	# 88 MiB
expect_val gz $W QKV attained_flop_rate 989e12 FLOP/s
expect_val gz $W QKV memory_time 0.025275735294117644e-3 s
expect_val gz $W QKV limiter 1 1
expect_val gz $W "Out Proj" time 0.06948379851971688e-3 s
# 32 x (QKV+Logit+Attend+Out Proj+up+gate+down) + classifier, in ms
expect_val gz $W e2e time 33.3044531779818e-3 s
run pc runs --format csv
expect_in ",1755000000," "$out" "clock from Cycles / Latency"
run pc export results --source gz
expect_not_in "Repeat" "$out" "marker rows are not results"

# another version: no index column, no utilisation, CRLF, a collective
run pc import -s gz2 -k roofline -w llama2-13b/decode/bs=1 "$M/genz_decode_13b.csv"
expect_rc 0 "variant imports"
W=llama2-13b/decode/bs=1
expect_val gz2 $W AllReduce communication_time 0.02e-3 s
expect_val gz2 $W AllReduce limiter 2 1
expect_val gz2 $W QKV limiter 0 1
expect_val gz2 $W e2e time 2.9e-3 s
run pc runs --format csv
expect_in ",1400000000," "$out" "clock of the variant"

expect_refused "garbage number" "bad_genz_number.csv:3: column 'Latency (msec)'" \
	-s bad -k roofline -w x "$M/bad_genz_number.csv"
expect_refused "clock conflicts with --clock-mhz" "conflicts with --clock-mhz" \
	-s bad -k roofline -w x --clock-mhz 1000 "$SAMPLES/genz_ops.csv"
finish
