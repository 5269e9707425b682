# Helpers for the measured-hardware importer tests (sourced after lib.sh).

# Export every result into $T/export.csv (call after the imports).
export_now() { pc export results >"$T/export.csv"; }

# xv [col=value]... [field]: the field (default value) of the one export
# row whose columns match; prints NONE or MANY otherwise.
xv() {
	python3 - "$T/export.csv" "$@" <<'PY'
import csv, sys
path, args = sys.argv[1], sys.argv[2:]
field = "value"
if args and "=" not in args[-1]:
    field = args.pop()
flt = [a.split("=", 1) for a in args]
rows = [r for r in csv.DictReader(open(path, newline=""))
        if all(r[k] == v for k, v in flt)]
print("NONE" if not rows else "MANY" if len(rows) > 1 else rows[0][field])
PY
}

# expect_near actual expected [reltol] description
expect_near() {
	local a=$1 b=$2 tol=1e-9 d
	if [ $# -eq 4 ]; then tol=$3; d=$4; else d=$3; fi
	if python3 -c "import sys,math; a,b,t=map(float,sys.argv[1:4]); \
sys.exit(0 if a==b or abs(a-b)<=t*max(abs(a),abs(b)) else 1)" \
		"$a" "$b" "$tol" 2>/dev/null; then ok; else
		fail "$d: got '$a', expected '$b'"; fi
}

# expect_refused needle description FILE [import args...]: exit 1, the
# message contains needle, and the database is unchanged.
expect_refused() {
	local needle=$1 desc=$2 before
	shift 2
	before=$(db_digest)
	run pc import -s refused -k silicon -w refused/decode "$@"
	expect_rc 1 "$desc"
	expect_in "$needle" "$err" "$desc"
	expect_eq "$(db_digest)" "$before" "$desc: database unchanged"
}
