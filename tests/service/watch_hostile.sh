#!/usr/bin/env bash
# The drop directory is hostile ground (docs/service.md "Threat model"):
# a sender who can write DIR must not make the watcher write, move or
# read anything outside DIR, hang it, or make it move whole folders.
# The sender runs as 'nobody' where that matters (skipped when not root).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../service/lib_service.sh"
M='{"source": "lab", "kind": "silicon"}'
chmod 755 "$T"
printf 'workload,op,metric,value,unit\nm/bs=1,gemm,time,10,us\n' >"$T/good.csv"
SECRET='root:x:0:0:SECRET-LINE:/root:/bin/bash'
printf '%s\n' "$SECRET" >"$T/secret.txt"
printf 'workload,op,metric,value,unit\nSECRET/bs=1,gemm,time,10,us\n' >"$T/secret.csv"

as_sender() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
ROOT=0; [ "$(id -u)" -eq 0 ] && ROOT=1

# --- archive folders: a symbolic link planted by a sender is refused ------
if [ $ROOT -eq 1 ]; then
	D=$T/d1; mkdir "$D" "$T/victim"; chown nobody "$D"
	as_sender ln -s "$T/victim" "$D/failed" || fail "sender plants the link"
	as_sender cp "$T/secret.csv" "$D/bad.csv"
	as_sender sh -c "printf '{\"source\": \"lab\", \"colour\": 1}\n' >'$D/bad.csv.perfcorr.json'"
	run pc watch --once --interval 0.1 "$D"
	expect_rc 1 "symlinked failed/ refuses to start"
	expect_in "failed' is a symbolic link: refused" "$err" "names the link"
	[ -z "$(ls -A "$T/victim")" ] && ok || fail "wrote through the link: $(ls "$T/victim")"
	# the folders the watcher makes are its own and not writable by senders
	rm "$D/failed"
	run pc watch --once --interval 0.1 "$D"
	expect_rc 0 "starts once the link is gone"
	expect_eq "$(stat -c '%a %u' "$D/failed" "$D/imported" | sort -u)" "750 0" "archive folders 0750, owned by the service"
	as_sender ln -s "$T/victim/x" "$D/failed/y.error.tmp" 2>/dev/null \
		&& fail "a sender could write into failed/" || ok
else
	echo "SKIP (not root): symlinked archive folders as an unprivileged sender"
fi

# --- a planted NAME.error.tmp link inside failed/ is never followed --------
D=$T/d2; mkdir -p "$D/failed"
printf 'do not overwrite\n' >"$T/target"
ln -s "$T/target" "$D/failed/bad.csv.error.tmp"
ln -s "$T/target" "$D/failed/bad.csv.error.tmp.tmp"
cp "$T/secret.csv" "$D/bad.csv"
printf '{"source": "lab", "colour": 1}\n' >"$D/bad.csv.perfcorr.json"
run pc watch --once --interval 0.1 "$D"
expect_eq "$(cat "$T/target")" "do not overwrite" "error file written through a link"
expect_in "unknown key 'colour'" "$(cat "$D/failed/bad.csv.error" 2>/dev/null)" ".error written in failed/"

# --- manifests naming files outside DIR, symbolic links ------------------
D=$T/d3; mkdir "$D" "$T/maps"
printf '[{"match": "gemm", "op": "gemm_mapped"}]\n' >"$T/maps/m.json"
cp "$T/good.csv" "$D/abs.csv"
printf '{"source": "lab", "kind": "silicon", "map": "%s"}\n' "$T/secret.txt" >"$D/abs.csv.perfcorr.json"
cp "$T/good.csv" "$D/dots.csv"
printf '{"source": "lab", "kind": "silicon", "map": "../secret.txt"}\n' >"$D/dots.csv.perfcorr.json"
mkdir "$D/sub"; ln -s "$T" "$D/sub/up"
cp "$T/good.csv" "$D/via.csv"
printf '{"source": "lab", "kind": "silicon", "map": "sub/up/secret.txt"}\n' >"$D/via.csv.perfcorr.json"
ln -s "$T/secret.csv" "$D/link.csv"
printf '%s\n' "$M" >"$D/link.csv.perfcorr.json"
cp "$T/good.csv" "$D/mlink.csv"
printf '%s\n' "$M" >"$T/outside.json"
ln -s "$T/outside.json" "$D/mlink.csv.perfcorr.json"
cp "$T/good.csv" "$D/topo.csv"
printf '{"source": "lab", "kind": "silicon", "opts": {"topology": "/etc/passwd"}}\n' >"$D/topo.csv.perfcorr.json"
cp "$T/good.csv" "$D/allowed.csv"
printf '{"source": "lab", "kind": "silicon", "map": "%s/maps/m.json"}\n' "$T" >"$D/allowed.csv.perfcorr.json"
run pc watch --once --interval 0.1 --allow "$T/maps" "$D"
expect_rc 0 "watch runs"
expect_not_in "SECRET" "$out$err$(cat "$D"/failed/*.error)" "nothing outside DIR is quoted"
expect_eq "$(q "SELECT count(*) FROM workloads WHERE key LIKE 'SECRET%'")" 0 "a linked data file is not imported"
expect_in "failed abs.csv: '$T/secret.txt' is outside the drop directory: refused, not opened" "$out" "absolute path refused"
expect_in "failed dots.csv: '../secret.txt': '..' is not allowed" "$out" "'..' refused"
expect_in "failed via.csv: 'sub/up/secret.txt': a symbolic link on the way: refused" "$out" "link on the way refused"
expect_in "failed link.csv: 'link.csv' is not a regular file (a symbolic link" "$out" "linked data refused"
expect_in "failed mlink.csv: 'mlink.csv.perfcorr.json' is a symbolic link: refused" "$out" "linked manifest refused"
expect_in "failed topo.csv: '/etc/passwd' is outside the drop directory" "$out" "path option refused"
expect_in "imported allowed.csv" "$out" "--allow permits a folder"
[ -L "$D/failed/link.csv" ] && [ -f "$T/secret.csv" ] && ok || fail "the link itself moved, its target stays"

# --- relative paths resolve against DIR, not the working directory --------
D=$T/d4; mkdir "$D"
cp "$FIXTURES/sim/gemm_topology.csv" "$D/t.csv"
cp "$FIXTURES/sim/scalesim_v2_gemm_COMPUTE_REPORT.csv" "$D/ss.csv"
printf '{"source": "ss", "kind": "perfsim", "workload": "t100/gemm", "clock_mhz": 1500, "opts": {"topology": "t.csv"}}\n' >"$D/ss.csv.perfcorr.json"
(cd / && run pc watch --once --interval 0.1 "$D"; echo "$out" >"$T/d4.out")
expect_in "imported ss.csv" "$(cat "$T/d4.out")" "documented {\"topology\": \"t.csv\"} works"

# --- a FIFO named by a manifest never hangs the watcher ----------------
D=$T/d5; mkdir "$D"
mkfifo "$D/rules.fifo"
cp "$T/good.csv" "$D/f.csv"
printf '{"source": "lab", "kind": "silicon", "map": "rules.fifo"}\n' >"$D/f.csv.perfcorr.json"
out=$(timeout 20 "$PERFCORR" watch --once --interval 0.1 "$D" 2>&1); rc=$?
expect_rc 0 "no hang on a FIFO"
expect_in "failed f.csv: 'rules.fifo': 'rules.fifo' is not a regular file" "$out" "FIFO refused"

# --- folders named like deliveries: never moved ---------------------------
D=$T/d6; mkdir "$D"
run pc watch --once --interval 0.1 "$D"
printf '%s\n' "$M" >"$D/imported.perfcorr.json"
mkdir "$D/sub.csv"; printf '%s\n' "$M" >"$D/sub.csv.perfcorr.json"
cp "$T/good.csv" "$D/imported/keep.csv"
run pc watch --once --interval 0.1 "$D"
[ -f "$D/imported/keep.csv" ] && [ -d "$D/imported" ] && ok || fail "imported/ was moved: $(ls -R "$D")"
[ -d "$D/sub.csv" ] && ok || fail "a folder was moved"
expect_in "failed imported: 'imported' is not a regular file (a folder): refused, left in place" "$out" "says so"
[ -f "$D/failed/imported.perfcorr.json" ] && ok || fail "manifest archived"

# --- two watchers on one directory; a replaced directory ------------------
D=$T/d7; mkdir "$D"
start_watch "$T/w.log" "$T/w.err" --interval 0.2 "$D"
run pc watch --once --interval 0.1 "$D"
expect_rc 1 "a second watcher is refused"
expect_in "another perfcorr watch is already watching" "$err" "says why"
mv "$D" "$T/d7.old"; mkdir "$D"
wait_for 20 sh -c "! kill -0 $WP 2>/dev/null" && ok || fail "watcher kept going on a replaced directory"
wait $WP; expect_eq "$?" 1 "exit 1"
expect_in "was removed or replaced while watching" "$(cat "$T/w.err")" "says why"
finish
