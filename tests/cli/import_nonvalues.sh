#!/usr/bin/env bash
# Values that are not values are file:line errors, exit 1, database
# unchanged (docs/formats.md). Each of these was stored before: nan as
# "empty", 1e-400 as 0, 0x10 as 16, n = -1, 2.5 or 1e30, min > max,
# a value outside [min, max], a name cut at a NUL byte.
. "$(dirname "$0")/lib.sh"

pc import --source s --kind silicon "$FIXTURES/native/ok.csv" 2>/dev/null
before=$(db_digest)

bad() { # description expected-message header row
	printf '%s\n%s\n' "$3" "$4" > "$T/bad.csv"
	run pc import --source s "$T/bad.csv"
	expect_rc 1 "$1"
	expect_in "bad.csv:2: $2" "$err" "$1: file:line and field"
	expect_eq "$(db_digest)" "$before" "$1: database unchanged"
}
H='workload,op,metric,value,unit,n,min,max'
bad "nan value" "column 'value': 'nan' is not a value" "$H" 'w,gemm,time,nan,us,,,'
bad "NaN value" "column 'value': 'NaN' is not a value" "$H" 'w,gemm,time,NaN,us,,,'
bad "underflow" "column 'value': '1e-400' is not a number" "$H" 'w,gemm,time,1e-400,us,,,'
bad "hexadecimal" "column 'value': '0x10' is not a number" "$H" 'w,gemm,time,0x10,us,,,'
bad "negative hexadecimal" "column 'value': '-0X1p3' is not a number" "$H" 'w,gemm,time,-0X1p3,us,,,'
bad "hexadecimal n" "column 'n': '0x10' is not a number" "$H" 'w,gemm,time,5,us,0x10,,'
bad "negative n" "n -1 is not a count of samples" "$H" 'w,gemm,time,5,us,-1,,'
bad "fractional n" "n 2.5 is not a count of samples" "$H" 'w,gemm,time,5,us,2.5,,'
bad "overflowing n" "n 1e+30 is not a count of samples" "$H" 'w,gemm,time,5,us,1e30,,'
bad "min > max" "min 6 is above max 4" "$H" 'w,gemm,time,5,us,,6,4'
bad "value above max" "value 7 is above max 6" "$H" 'w,gemm,time,7,us,,4,6'
bad "value below min" "value 3 is below min 4" "$H" 'w,gemm,time,3,us,,4,6'
bad "mean outside" "mean 9 is above max 6" 'workload,op,metric,value,unit,mean,min,max' 'w,gemm,time,5,us,9,4,6'
printf 'workload,op,metric,value,unit\nw\0x,gemm,time,7,us\n' > "$T/nul.csv"
run pc import --source s "$T/nul.csv"
expect_rc 1 "NUL in a name"
expect_in "nul.csv:2: a NUL byte inside a field" "$err" "NUL: file:line"
printf 'workload,op,metric,value,unit\n"w\0x",gemm,time,7,us\n' > "$T/nulq.csv"
run pc import --source s "$T/nulq.csv"
expect_in "nulq.csv:2: a NUL byte inside a field" "$err" "NUL in a quoted field"
printf '{"format": "perfcorr-json",\n "results": [{"workload": "w\\u0000x", "op": "gemm", "metric": "time", "value": 1, "unit": "s"}]}\n' > "$T/nul.json"
run pc import --source s "$T/nul.json"
expect_rc 1 "JSON \\u0000 in a name"
expect_in "nul.json:2: a \\u0000 (NUL) inside a string" "$err" "JSON NUL: file:line"
expect_eq "$(db_digest)" "$before" "NUL files: database unchanged"

# what stays accepted: a missing stat, min = value = max, the value at
# min within 1e-9 relative (a mean computed in floating point), n = 0,
# a subnormal that is not zero, a whole n written 20.0
printf '%s\n%s\n%s\n%s\n' "$H" 'w,a,time,5,us,,5,5' 'w,b,time,4.0000000001,us,20.0,4.0000000002,6' \
	'w,c,time,1e-310,s,0,,' > "$T/good.csv"
run pc import --source s "$T/good.csv"
expect_rc 0 "edge values that are values"
expect_in "3 results" "$err" "all three stored"
finish
