# regex-log: a rules file turns in-house log lines into results.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
R=$FIXTURES/rtl

run pc import -s tb -k rtl -w cnn --rules "$R/tb_rules.json" "$R/tb_inhouse.log"
expect_rc 0 "rules import"
expect_in "(regex-log)" "$err" "--rules selects the format"
expect_val tb cnn conv_layer cycles 2024 cycles	# 1,024 + 1,000: two instances
expect_val tb cnn pool_layer cycles 256 cycles
expect_val tb cnn conv_layer energy 12.5e-9 J
expect_val tb cnn e2e dram_bandwidth 12.5e9 B/s
n=$(pcsql "SELECT instances FROM op_raw_names WHERE raw_name = 'conv_layer'")
expect_eq "$n" 3 "conv_layer seen three times (two cycles, one energy)"

# the verilator sample's testbench print, with Python-style classes
cat > "$T/tb.json" <<'J'
[{"match": "\\[(?<op>tb_\\w+)\\] done +@ cycle \\d+ : (?<value>\\d+) (?<unit>cycles)", "metric": "cycles"},
 {"match": "util (?<value>[\\d.]+)%", "metric": "utilization", "unit": "%", "op": "tb_gemm_tile"}]
J
run pc import -s vt -k rtl -w t100/gemm --rules "$T/tb.json" "$SAMPLES/verilator_run.log"
expect_rc 0 "verilator testbench print"
expect_val vt t100/gemm tb_gemm_tile cycles 5130 cycles
expect_val vt t100/gemm tb_gemm_tile utilization 0.7984 1

run pc import -s x -k rtl -w x -F regex-log "$R/tb_inhouse.log"
expect_rc 2 "regex-log without --rules is a usage error"
expect_refused "rule without op" "bad_rules_noop.json: rule 1: no (?<op>...) group" \
	-s bad -k rtl -w x --rules "$R/bad_rules_noop.json" "$R/tb_inhouse.log"
expect_refused "bad regex" "bad_rules_regex.json: rule 1: bad regex" \
	-s bad -k rtl -w x --rules "$R/bad_rules_regex.json" "$R/tb_inhouse.log"
expect_refused "value not a number" "bad_inhouse_value.log:3: rule 1: value '1x2'" \
	-s bad -k rtl -w x --rules "$R/rules_loose.json" "$R/bad_inhouse_value.log"
expect_refused "nothing matches" "no line matches a rule" \
	-s bad -k rtl -w x --rules "$R/tb_rules.json" "$SAMPLES/chipyard_run.log"
finish
