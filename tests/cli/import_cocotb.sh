# cocotb results.xml: both forms, failed/skipped flagged, malformed XML.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/lib_imp.sh"
R=$FIXTURES/rtl

# flags of SOURCE's result for OP
flags() {
	pcsql "SELECT r.flags FROM results r
		JOIN ops o ON o.id = r.op_id JOIN runs u ON u.id = r.run_id
		JOIN sources s ON s.id = u.source_id
		WHERE s.name = '$1' AND o.name = '$2'"
}

run pc import -s c1 -k rtl -w t100/gemm --clock-mhz 1500 "$SAMPLES/cocotb_results_v1.xml"
expect_rc 0 "attribute form"
expect_in "(cocotb)" "$err" "auto-detected"
expect_val c1 t100/gemm test_gemm_tile_128x128x64 time 3420e-9 s
expect_val c1 t100/gemm test_gemm_tile_256x128x64 time 6572e-9 s
run pc runs --format csv
expect_in ",1500000000," "$out" "clock kept for time -> cycles"
run pc import -s c2 -k rtl -w t100/gemm "$SAMPLES/cocotb_results_v2.xml"
expect_rc 0 "property form"
expect_val c2 t100/gemm test_gemm_tile_128x128x128 time 6836e-9 s
expect_val c2 t100/gemm test_gemm_tile_256x128x64 time 6572e-9 s	# duration, not stop
expect_eq "$(count c2)" 3 "one result per testcase"

# variant: declaration, comment, CRLF, entity, failure and skipped
run pc import -s pe -k rtl -w pe "$R/cocotb_pe_v1.xml"
expect_rc 0 "variant v1"
expect_val pe pe "test_mac_&_acc" time 1500e-9 s
expect_val pe pe test_overflow time 250.5e-9 s
expect_eq "$(flags pe test_mac_\&_acc)" 0 "passed test valid"
expect_eq "$(flags pe test_overflow)" 1 "failed test flagged invalid"
expect_eq "$(flags pe test_saturate)" 2 "skipped test flagged skipped"

# pytest plugin form: us, <error> with CDATA, skipped without a time
run pc import -s py -k rtl -w dma "$R/cocotb_pytest.xml"
expect_rc 0 "pytest form"
expect_val py dma "test_burst[len=64]" time 12.5e-6 s
expect_val py dma "test_burst[len=128]" time 25e-6 s
expect_eq "$(flags py 'test_burst[len=128]')" 1 "errored test flagged invalid"
expect_eq "$(flags py test_unaligned)" 2 "skipped without time"

# simulator steps need the precision
expect_refused "steps without step_s" "cocotb_steps.xml:1: testcase 'test_a'" \
	-s st -k rtl -w x "$R/cocotb_steps.xml"
run pc import -s st -k rtl -w x -o step_s=1e-12 "$R/cocotb_steps.xml"
expect_rc 0 "steps with step_s"
expect_val st x test_a time 6.836e-6 s

expect_refused "truncated" "bad_cocotb_truncated.xml:5: <testsuite> (line 2) is never closed" \
	-s bad -k rtl -w x "$R/bad_cocotb_truncated.xml"
expect_refused "unquoted attribute" "bad_cocotb_attr.xml:3: malformed attribute in <testcase>" \
	-s bad -k rtl -w x "$R/bad_cocotb_attr.xml"
expect_refused "bad time" "bad_cocotb_time.xml:4: <testcase> sim_time_ns: 'ten'" \
	-s bad -k rtl -w x "$R/bad_cocotb_time.xml"
finish
