#!/usr/bin/env bash
# Least privilege on one host (issue 36 item 2, docs/service.md
# "Privileges"): a real run of the watcher with the unit's user, groups,
# StateDirectoryMode and UMask (read from dist/systemd), senders and
# readers as other accounts (setpriv, numeric ids: nothing is added to
# the system), then the file modes and each account's rights. Senders
# write the drop directory only; the database, its -wal/-shm and the
# archive are writable by the service user alone; the readers' group
# reads (compare) and cannot write. Skipped (77) when not root.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "skip: needs root and setpriv (accounts are switched)" >&2
	exit 77
fi
UNIT=$TESTS/../dist/systemd/perfcorr-watch@.service.in
key() { sed -n "s/^$1=//p" "$UNIT"; }
gid_of() { case $1 in perfcorr) echo 60112 ;; perfcorr-review) echo 60111 ;; *) echo 60119 ;; esac; }
SVC=60110 G_SVC=$(gid_of "$(key Group)") G_SUPP=$(gid_of "$(key SupplementaryGroups)")
G_SEND=$(gid_of perfcorr) G_REVIEW=$(gid_of perfcorr-review)
UM=$(key UMask) SDM=$(key StateDirectoryMode)
[ -n "$UM" ] && [ -n "$SDM" ] && ok || fail "UMask/StateDirectoryMode not in the unit"
svc() { setpriv --reuid $SVC --regid "$G_SVC" --groups "$G_SUPP" -- \
	bash -c 'umask '"$UM"'; exec "$@"' _ "$@"; }
sender() { setpriv --reuid 60113 --regid $G_SEND --clear-groups -- \
	bash -c 'umask 0002; exec "$@"' _ "$@"; }
reviewer() { setpriv --reuid 60114 --regid $G_REVIEW --clear-groups -- "$@"; }
chmod 755 "$T"
S=$T/state D=$T/srv/nightly
# what systemd does for StateDirectory=, and docs/service.md for DIR
mkdir -p "$S" && chown $SVC:"$G_SVC" "$S" && chmod "$SDM" "$S"
mkdir -p "$T/srv" && install -d -o $SVC -g $G_SEND -m 2770 "$D"
export PERFCORR_DB=$S/perfcorr.db HOME=$S
svc "$PERFCORR" init >/dev/null 2>&1 || fail "init as the service user"
printf 'workload,op,metric,value,unit\nw1,gemm,time,1.0,ms\nw2,gemm,time,2.0,ms\n' >"$T/hw.csv"
printf 'workload,op,metric,value,unit\nw1,gemm,time,1.1,ms\nw2,gemm,time,2.1,ms\n' >"$T/sim.csv"
chmod 644 "$T/hw.csv" "$T/sim.csv"
for f in hw sim; do
	sender sh -c "cp '$T/$f.csv' '$D/$f.csv'" || fail "sender: deliver $f"
done
sender sh -c "printf '%s\n' '{\"source\": \"hw\", \"kind\": \"silicon\"}' >'$D/hw.csv.perfcorr.json'"
sender sh -c "printf '%s\n' '{\"source\": \"sim\", \"kind\": \"perfsim\"}' >'$D/sim.csv.perfcorr.json'"
setpriv --reuid $SVC --regid "$G_SVC" --groups "$G_SUPP" -- bash -c \
	'umask '"$UM"'; exec "$@"' _ "$PERFCORR" watch --interval 0.2 "$D" \
	>"$T/w.log" 2>"$T/w.err" &
WP=$!
wait_for 60 test -f "$D/imported/sim.csv.perfcorr.json" ||
	fail "the watcher did not import: $(cat "$T/w.log" "$T/w.err")"
wait_for 60 test -f "$D/imported/hw.csv.perfcorr.json" || fail "hw.csv"

check_modes() { # WHEN
	local f m
	for f in "$S"/* "$S"; do
		m=$(stat -c '%a %u' "$f")
		expect_eq "${m#* }" $SVC "$1: $(basename "$f") belongs to the service user"
		[ $(( 0${m% *} & 022 )) -eq 0 ] && ok || fail "$1: $(basename "$f") is $m: group/other may write"
		[ $(( 0${m% *} & 07 )) -eq 0 ] && ok || fail "$1: $(basename "$f") is $m: others have access"
	done
	for f in "$D/imported" "$D/failed"; do
		expect_eq "$(stat -c '%a %u %g' "$f")" "750 $SVC $G_REVIEW" "$1: $(basename "$f"): the service's, readers' group"
	done
	sender sh -c "echo x >>'$S/perfcorr.db'" 2>/dev/null && fail "$1: a sender wrote the database" || ok
	sender sh -c "echo x >'$S/new'" 2>/dev/null && fail "$1: a sender wrote the database directory" || ok
	sender sh -c "echo x >>'$D/imported/hw.csv.perfcorr.json'" 2>/dev/null &&
		fail "$1: a sender rewrote an archived manifest" || ok
	sender sh -c "echo x >'$D/imported/planted'" 2>/dev/null && fail "$1: a sender wrote the archive" || ok
	reviewer sh -c "echo x >>'$S/perfcorr.db'" 2>/dev/null && fail "$1: a reader wrote the database" || ok
	run reviewer "$PERFCORR" compare --model sim --ref hw
	expect_rc 0 "$1: a reader compares"
	expect_in "pairs: 2" "$out" "$1: and sees the runs"
	run reviewer "$PERFCORR" annotate --workload w1 --op gemm --status open --category unknown --note n --author r
	expect_rc 1 "$1: a reader cannot annotate on SQLite"
	expect_in "read-only" "$err" "$1: says the database is read-only"
	run sender "$PERFCORR" compare --model sim --ref hw
	expect_rc 1 "$1: a sender cannot even read the database"
}
[ -e "$S/perfcorr.db-wal" ] && ok || fail "no -wal while the watcher runs: $(ls "$S")"
check_modes "watcher running"
stop_pid $WP TERM 60
expect_eq "$wrc" 0 "the watcher stops"
check_modes "watcher stopped"
expect_eq "$(pcsql "SELECT count(*) FROM runs")" 2 "two runs, nothing else written"
finish
