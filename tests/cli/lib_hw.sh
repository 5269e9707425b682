# Helpers for the measured-hardware importer tests (sourced after lib.sh).

# Export every result into $T/export.csv and a table e in $T/x.db
# (call after the imports).
export_now() {
	pc export results >"$T/export.csv"
	rm -f "$T/x.db"
	sqlite3 "$T/x.db" ".import --csv '$T/export.csv' e"
}

# xv [col=value]... [field]: the field (default value) of the one export
# row whose columns match; prints NONE or MANY otherwise.
xv() {
	local field=value where=1 a k v n r
	if [ $# -gt 0 ] && [ "${!#}" = "${!#%%=*}" ]; then
		field=${!#}
		set -- "${@:1:$#-1}"
	fi
	for a in "$@"; do
		k=${a%%=*}
		v=${a#*=}
		where="$where AND \"$k\" = '${v//\'/\'\'}'"
	done
	r=$(sqlite3 -separator $'\x1f' "$T/x.db" \
		"SELECT count(*), max(\"$field\") FROM e WHERE $where")
	n=${r%%$'\x1f'*}
	case $n in 0) echo NONE ;; 1) echo "${r#*$'\x1f'}" ;; *) echo MANY ;; esac
}

# expect_near actual expected [reltol] description
expect_near() {
	local a=$1 b=$2 tol=1e-9 d
	if [ $# -eq 4 ]; then tol=$3; d=$4; else d=$3; fi
	if awk -v a="$a" -v b="$b" -v t="$tol" 'BEGIN {
		if (a !~ /^[-+0-9.eE]+$/) exit 1
		a += 0; b += 0; d = a - b; if (d < 0) d = -d
		m = a < 0 ? -a : a; n = b < 0 ? -b : b; if (n > m) m = n
		exit !(a == b || d <= t * m) }'; then ok; else
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
