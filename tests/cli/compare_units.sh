# compare prints values with their units (issue 35 item 8): RMSE, the
# fit's and Deming's intercepts and --points in the metric's unit with an
# SI prefix ("rmse 120.3 µs", as the TUI shows values), dimensionless
# values without a prefix (0.9995, not 999.5m), a count unit with one
# (249.6 kcycles); JSON keeps the raw SI numbers. Expected texts from the
# JSON's numbers by plain python.
. "$(dirname "$0")/../cli/lib.sh"
cd "$FIXTURES/.."
bash scripts/demo.sh "$PERFCORR" "$PERFCORR_DB" </dev/null >/dev/null 2>&1 ||
	fail "demo import"

# "%.4g" of the value scaled to [1, 1000) and its SI prefix, in plain python
SI='
import math
def si(v, unit):
    if v == 0:
        return "0 " + unit
    e = int(math.floor(math.log10(abs(v)) / 3 + 1e-9)) * 3
    m = v / 10 ** e
    if abs(m) >= 999.95:
        m, e = m / 1000, e + 3
    return "%.4g %s%s" % (m, {-9: "n", -6: "\u00b5", -3: "m", 0: "", 3: "k", 6: "M"}[e], unit)
'
run pc compare --model archsim@2.4.0 --ref h100-lab --metric time --format json
expect_rc 0 "compare json"
printf '%s\n' "$out" >"$T/c.json"
want=$(python3 -c "$SI"'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["rmse"] < 1e-3, s["rmse"]   # JSON: raw seconds
print(si(s["rmse"], "s")); print(si(s["fit"]["intercept"], "s")); print(si(s["deming"]["intercept"], "s"))
' "$T/c.json")
run pc compare --model archsim@2.4.0 --ref h100-lab --metric time
expect_rc 0 "compare table"
expect_eq "$(printf '%s\n' "$out" | awk '$1 == "rmse" || $1 == "fit.intercept" || $1 == "deming.intercept" { print $2, $3 }')" \
	"$want" "rmse and the intercepts in units"
expect_eq "$(printf '%s\n' "$out" | awk '$1 == "rmse" { print $2, $3 }')" \
	"120.3 µs" "the issue's rmse"
expect_not_in "0.0001203" "$out" "no raw seconds"

# --points: model and ref in units; the JSON points stay SI
run pc compare --model archsim@2.4.0 --ref h100-lab --metric time --points --format json
printf '%s\n' "$out" >"$T/p.json"
want=$(python3 -c "$SI"'
import json, sys
for p in json.load(open(sys.argv[1]))["points"][:5]:
    print(p["workload"], p["op"], si(p["model"], "s"), si(p["ref"], "s"))
' "$T/p.json")
run pc compare --model archsim@2.4.0 --ref h100-lab --metric time --points
got=$(printf '%s\n' "$out" | sed -n '/^pairs, largest/,$p' | awk 'NR > 2 && NR <= 7 { print $1, $2, $4, $5, $6, $7 }')
expect_eq "$got" "$want" "--points in units"

# a dimensionless metric without a prefix, a count unit with one
cat >"$T/m.csv" <<'CSV'
workload,op,metric,value,unit
w/bs=1,gemm,arithmetic_intensity,0.9995,
w/bs=2,gemm,arithmetic_intensity,1234,
w/bs=1,gemm,cycles,249600,cycles
w/bs=2,gemm,cycles,1000,cycles
CSV
cat >"$T/r.csv" <<'CSV'
workload,op,metric,value,unit
w/bs=1,gemm,arithmetic_intensity,1.05,
w/bs=2,gemm,arithmetic_intensity,1200,
w/bs=1,gemm,cycles,250000,cycles
w/bs=2,gemm,cycles,1100,cycles
CSV
pc import -q -s um -k perfsim -V 1 "$T/m.csv" || fail "import m"
pc import -q -s ur -k rtl -V 1 "$T/r.csv" || fail "import r"
run pc compare --model um --ref ur --metric arithmetic_intensity --points
expect_eq "$(printf '%s\n' "$out" | awk '$3 == "arithmetic_intensity" { print $1, $4, $5 }')" \
	"w/bs=1 0.9995 1.05
w/bs=2 1234 1200" "dimensionless: 0.9995 and 1234, not 999.5m and 1.234k"
run pc compare --model um --ref ur --metric cycles --points
expect_eq "$(printf '%s\n' "$out" | awk '/^w\// && $3 == "cycles" { print $1, $4, $5, $6, $7 }')" \
	"w/bs=2 1 kcycles 1.1 kcycles
w/bs=1 249.6 kcycles 250 kcycles" "a count unit keeps its prefix"
finish
