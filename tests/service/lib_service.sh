# Shared helpers for tests/service/*.sh (sourced after tests/cli/lib.sh).

# csv_rows FILE N [OP_PREFIX]: a perfcorr-csv file with N distinct rows.
csv_rows() {
	python3 - "$1" "$2" "${3:-op}" <<'PY'
import sys
path, n, pre = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, 'w') as f:
    f.write('workload,op,metric,value,unit\n')
    for i in range(n):
        f.write('m/decode/bs=%d,%s%d,time,%d.5,us\n' % (i % 16, pre, i // 16, i + 1))
PY
}

# deliver DIR NAME SRCFILE MANIFEST_JSON: data first, then the manifest,
# each written to a dot-name and renamed (what a well-behaved sender does).
deliver() {
	cp "$3" "$1/.$2.tmp" && mv "$1/.$2.tmp" "$1/$2"
	printf '%s\n' "$4" >"$1/.$2.m.tmp" && mv "$1/.$2.m.tmp" "$1/$2.perfcorr.json"
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s; 1 on timeout.
wait_for() {
	local end=$(( $(date +%s%N) + ${1%.*} * 1000000000 )); shift
	until "$@"; do
		[ "$(date +%s%N)" -lt "$end" ] || return 1
		sleep 0.1
	done
}

q() { pcsql "$1"; }

# start_watch LOG ERR ARGS...: start perfcorr watch in the background and
# wait until its signal handlers are in place; sets WP.
start_watch() {
	local log=$1 errf=$2; shift 2
	"$PERFCORR" watch "$@" >"$log" 2>"$errf" &
	WP=$!
	wait_for 60 grep -q "watching" "$errf" || fail "watch did not start: $(cat "$errf")"
}

# stop_pid PID SIG SECONDS: send SIG, wait at most SECONDS for the exit;
# sets wrc (the exit status, or 999 after a kill -9 on timeout).
stop_pid() {
	local n=0 max=$(( $3 * 10 ))
	kill -"$2" "$1" 2>/dev/null
	while kill -0 "$1" 2>/dev/null && [ $n -lt $max ]; do
		sleep 0.1; n=$((n + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -9 "$1"; wait "$1" 2>/dev/null; wrc=999
	else
		wait "$1"; wrc=$?
	fi
}
