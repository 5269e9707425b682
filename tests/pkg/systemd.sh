#!/usr/bin/env bash
# The systemd unit perfcorr-watch@.service as installed: the binary by its
# installed path, a dedicated user, the hardening the issue asks for, the
# drop directory and the database directory the only writable paths,
# restart on failure with a back-off; `systemd-analyze verify` clean where
# it exists (its man-page check finds the installed pages).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../pkg/lib_pkg.sh"

P=$T/prefix
cmake --install "$BUILD" --prefix "$P" >/dev/null || fail "cmake --install"
U=$P/lib/systemd/system/perfcorr-watch@.service
[ -f "$U" ] && ok || { fail "no unit at $U"; finish; exit; }
key() { sed -n "s/^$1=//p" "$U"; }
expect_eq "$(key ExecStart)" "$P/bin/perfcorr watch \$PERFCORR_WATCH_OPTS /srv/perfcorr/%i" "ExecStart: installed binary, instance = drop directory"
expect_eq "$(key User)" "perfcorr" "dedicated user"
expect_eq "$(key NoNewPrivileges)" "yes" "NoNewPrivileges"
expect_eq "$(key ProtectSystem)" "strict" "ProtectSystem=strict"
expect_eq "$(key PrivateTmp)" "yes" "PrivateTmp"
expect_eq "$(key ProtectHome)" "yes" "ProtectHome"
expect_eq "$(key ReadWritePaths)" "-/srv/perfcorr/%i /var/lib/perfcorr/%i" "writable: drop directory and database directory only"
expect_eq "$(key StateDirectory)" "perfcorr/%i" "the database directory is the state directory"
expect_in "PERFCORR_DB=/var/lib/perfcorr/%i/perfcorr.db" "$(key Environment)" "the database is in it"
expect_eq "$(key Restart)" "on-failure" "Restart=on-failure"
expect_eq "$(key RestartSec)" "5s" "RestartSec"
expect_eq "$(key RestartSteps)" "8" "back-off steps"
expect_eq "$(key RestartMaxDelaySec)" "5min" "back-off ceiling"
expect_eq "$(key StartLimitIntervalSec)" "0" "never gives up"
expect_eq "$(key CapabilityBoundingSet)" "" "no capabilities"

if command -v systemd-analyze >/dev/null; then
	ver=$(systemd-analyze --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
	# verify loads the template through an instance; its Documentation=
	# man: links are looked up in the installed pages.
	run env MANPATH="$P/share/man" systemd-analyze verify "$P/lib/systemd/system/perfcorr-watch@nightly.service"
	expect_rc 0 "systemd-analyze verify"
	msgs=$(printf '%s\n' "$out" "$err" | sed '/^$/d')
	if [ "${ver:-0}" -lt 254 ]; then
		# RestartSteps/RestartMaxDelaySec are newer than this systemd
		msgs=$(grep -v "Unknown key 'Restart\(Steps\|MaxDelaySec\)'" <<<"$msgs")
	fi
	expect_eq "$msgs" "" "systemd-analyze verify prints nothing (systemd $ver)"
else
	echo "systemd-analyze not installed: unit not verified" >&2
fi
finish
