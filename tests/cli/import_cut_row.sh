# A genai-perf CSV cut inside a row's first field is refused (QA finding:
# cut in 'Output Token Throughput (per sec)', the last row read 'Output
# Token Through', was skipped with a warning as a metric perfcorr does
# not know, and the rest of the file imported with exit 0: a cut file
# stored as if whole). Cut after a comma it was already refused; both
# name the line, and nothing is stored.
. "$(dirname "$0")/lib.sh"
G=$FIXTURES/stacks/genai-perf/profile_export_genai_perf_0.0.13.csv
pc init >/dev/null
pc import -q -s before -k silicon "$FIXTURES/native/ok.csv"
h0=$(pc export results | sha256sum)
# the statistics table cut inside row 6's name, without its newline
head -5 "$G" > "$T/cut_name.csv"
sed -n 6p "$G" | cut -c1-20 | tr -d '\n' >> "$T/cut_name.csv"
# the values table (Metric,Value) cut inside its first row's name
awk '{print} /^Metric,Value/ {exit}' "$G" > "$T/cut_value.csv"
printf 'Output Token Thr' >> "$T/cut_value.csv"
expect_in "Output Token Through" "$(tail -c 40 "$T/cut_name.csv")" "fixture: cut in a name"
for f in cut_name cut_value; do
	run pc import -s gp -k silicon -F genai-perf-csv -w w "$T/$f.csv"
	expect_rc 1 "$f refused"
	expect_in "$f.csv:" "$err" "$f: the file and its line"
	expect_in "(a cut file?)" "$err" "$f: says why"
	expect_eq "$(pc export results | sha256sum)" "$h0" "$f: nothing stored"
done
expect_in "cut_name.csv:6: expected 10 fields, found 1 (a cut file?)" \
	"$(pc import -s gp -k silicon -F genai-perf-csv -w w "$T/cut_name.csv" 2>&1)" \
	"the cut name: its line and the fields it lacks"
# a whole row of a metric perfcorr does not know is still skipped
{ head -5 "$G"; echo 'Frobnication (ms),1,1,1,1,1,1,1,1,1'; } > "$T/unknown.csv"
run pc import -s gp2 -k silicon -F genai-perf-csv -w w "$T/unknown.csv"
expect_rc 0 "an unknown metric's whole row"
expect_in "metric 'Frobnication (ms)' skipped (not known to perfcorr)" "$err" "skipped, said"
# aiperf-csv, the same gap (imp_aiperf_csv.c): a row cut inside its name
# was skipped as an unknown metric, a cut GPU telemetry row skipped as
# the table is, a row cut inside its last number ("0.91" read "0.9")
# stored; every one exited 0. AIPerf ends every row with a line end.
A=$FIXTURES/stacks/aiperf/profile_export_aiperf.csv
{ head -4 "$A"; printf 'Output Tok'; } > "$T/ap_cut_name.csv"
{ head -4 "$A"; echo 'Output Tok'; sed -n '5,$p' "$A"; } > "$T/ap_short_name.csv"
head -c -60 "$A" > "$T/ap_cut_gpu.csv"
{ head -c -60 "$A"; echo; } > "$T/ap_short_gpu.csv"
head -8 "$A" | head -c -2 > "$T/ap_cut_number.csv"
expect_eq "$(tail -c 4 "$T/ap_cut_number.csv")" ",0.9" "fixture: cut inside a number"
h0=$(pc export results | sha256sum)
ap_refused() { # file message
	run pc import -s ap -k silicon -F aiperf-csv -w w "$T/$1.csv"
	expect_rc 1 "$1 refused"
	expect_in "$2" "$err" "$1: file, line, why"
	expect_eq "$(pc export results | sha256sum)" "$h0" "$1: nothing stored"
}
ap_refused ap_cut_name "ap_cut_name.csv:5: the last row has no line end (a cut file?"
ap_refused ap_short_name "ap_short_name.csv:5: 'Output Tok': expected 14 fields, found 1 (a cut file?)"
ap_refused ap_cut_gpu "ap_cut_gpu.csv:21: the last row has no line end (a cut file?"
ap_refused ap_short_gpu "ap_short_gpu.csv:21: 'localhost:9401': expected 18 fields, found 10 (a cut file?)"
ap_refused ap_cut_number "ap_cut_number.csv:8: the last row has no line end (a cut file?"
# the whole file still imports
run pc import -s ap -k silicon -w w "$A"
expect_rc 0 "the whole AIPerf CSV imports"
finish
