# Helpers for the import_<format>.sh tests (sourced after lib.sh).

# get SOURCE WORKLOAD OP METRIC: "value unit" from `export results`.
get() {
	pc export results --source "$1" | awk -F, -v w="$2" -v o="$3" \
		-v m="$4" '$6 == w && $7 == o && $8 == m { print $9, $10 }'
}

# expect_val SOURCE WORKLOAD OP METRIC VALUE UNIT: the stored SI value
# matches VALUE to 1e-9 relative, and the unit is UNIT.
expect_val() {
	local got v u
	got=$(get "$1" "$2" "$3" "$4")
	v=${got% *}
	u=${got##* }
	if [ -z "$got" ]; then
		fail "$1 $2 $3 $4: no result"
		return
	fi
	if awk -v a="$v" -v b="$5" 'BEGIN { d = a - b; if (d < 0) d = -d;
		s = b < 0 ? -b : b; exit !(d <= 1e-9 * s + 1e-300) }'; then
		ok
	else
		fail "$1 $2 $3 $4: value $v, expected $5"
	fi
	expect_eq "$u" "$6" "$1 $2 $3 $4 unit"
}

# expect_refused DESCRIPTION NEEDLE import-args...: exit 1, NEEDLE (the
# file:line position) in stderr, database unchanged.
expect_refused() {
	local desc=$1 needle=$2 before after
	shift 2
	before=$(db_digest)
	run pc import "$@"
	expect_rc 1 "$desc"
	expect_in "$needle" "$err" "$desc: position"
	after=$(db_digest)
	expect_eq "$after" "$before" "$desc: database unchanged"
}

# count SOURCE: number of results exported for SOURCE.
count() {
	pc export results --source "$1" | tail -n +2 | wc -l | tr -d ' '
}
