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
# least privilege on one host (docs/service.md "Privileges"; the modes
# after a real run: tests/service/service_modes.sh)
expect_eq "$(key Group)" "perfcorr-review" "the files' group is the readers'"
expect_eq "$(key SupplementaryGroups)" "perfcorr" "the senders' group only to reach the drop directory"
expect_eq "$(key StateDirectoryMode)" "0750" "database directory: no group write"
expect_eq "$(key UMask)" "0027" "files: no group write, no other access"
expect_eq "$(key PrivateNetwork)" "yes" "no network by default"
expect_eq "$(key RestrictAddressFamilies)" "AF_UNIX" "Unix sockets only by default"
# the drop-in for a server on another host (docs/service.md)
DI=$P/share/perfcorr/systemd/perfcorr-watch-remote.conf
[ -f "$DI" ] && ok || fail "no drop-in at $DI"
dkey() { sed -n "s/^$1=//p" "$DI"; }
expect_eq "$(dkey PrivateNetwork)" "no" "drop-in: network on"
expect_eq "$(dkey RestrictAddressFamilies | tr '\n' '|')" "|AF_UNIX AF_INET AF_INET6|" "drop-in: resets, then allows IP"

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
	# with the drop-in installed for one instance, as docs/service.md says
	V=$T/units
	mkdir -p "$V/perfcorr-watch@remote.service.d"
	cp "$U" "$V/"
	cp "$DI" "$V/perfcorr-watch@remote.service.d/remote.conf"
	run env MANPATH="$P/share/man" SYSTEMD_UNIT_PATH="$V:" systemd-analyze verify "$V/perfcorr-watch@remote.service"
	expect_rc 0 "systemd-analyze verify with the drop-in"
	msgs=$(printf '%s\n' "$out" "$err" | sed '/^$/d')
	if [ "${ver:-0}" -lt 254 ]; then
		msgs=$(grep -v "Unknown key 'Restart\(Steps\|MaxDelaySec\)'" <<<"$msgs")
	fi
	expect_eq "$msgs" "" "verify with the drop-in prints nothing"
	# (and verify reads it: a bad key there is reported by its file)
	echo 'NoSuchKey=1' >>"$V/perfcorr-watch@remote.service.d/remote.conf"
	run env MANPATH="$P/share/man" SYSTEMD_UNIT_PATH="$V:" systemd-analyze verify "$V/perfcorr-watch@remote.service"
	expect_in "remote.conf:" "$err" "verify loaded the drop-in"
else
	echo "systemd-analyze not installed: unit not verified" >&2
fi
finish
