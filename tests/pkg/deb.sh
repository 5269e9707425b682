#!/usr/bin/env bash
# The Debian package (cpack, `make deb`): control fields, dependencies
# (every shared library the binary needs is provided by a package in
# Depends, checked with ldd + dpkg -S, independently of dpkg-shlibdeps),
# the files in their Debian places and nothing else, the maintainer
# scripts (the service user is created once, with stubs: no real user is
# added here), and the packaged binary running from an extracted tree.
# The package is built once: an up-to-date build/pkg/*.deb is reused.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../pkg/lib_pkg.sh"

for tool in dpkg-deb dpkg cpack; do
	command -v $tool >/dev/null || { echo "$tool not installed: package not checked" >&2; exit 77; }
done
if ldd "$PERFCORR" | grep -q 'libasan\|libubsan'; then
	echo "sanitizer build: not packaged (make deb uses the release build)" >&2
	exit 77
fi
ARCH=$(dpkg --print-architecture)
DEB=$BUILD/pkg/perfcorr_${VERSION}_$ARCH.deb
# Stale when anything packaged is newer than the package.
if [ ! -f "$DEB" ] || [ -n "$(find "$PERFCORR" "$BUILD/man-gz" "$SRC/dist" \
	"$BUILD/dist/copyright" "$BUILD/CPackConfig.cmake" -newer "$DEB" -print -quit)" ]; then
	(cd "$BUILD" && cpack --config CPackConfig.cmake -G DEB) >"$T/cpack.log" 2>&1 ||
		{ fail "cpack failed: $(tail -5 "$T/cpack.log")"; finish; exit; }
fi
[ -f "$DEB" ] && ok || { fail "no $DEB"; finish; exit; }

field() { dpkg-deb -f "$DEB" "$1"; }
expect_eq "$(field Package)" "perfcorr" "Package"
expect_eq "$(field Version)" "$VERSION" "Version"
expect_eq "$(field Architecture)" "$ARCH" "Architecture"
expect_in "perfcorr" "$(field Maintainer)" "Maintainer"
deps=$(field Depends)
# Every NEEDED library's package, found through the real files.
for lib in $(readelf -d "$PERFCORR" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
	path=$(ldd "$PERFCORR" | awk -v l="$lib" '$1 == l { print $3 }')
	path=$(readlink -f "$path")
	pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "${path#/usr}" 2>/dev/null)
	pkg=${pkg%%:*}
	[ -n "$pkg" ] || { fail "$lib ($path) belongs to no package"; continue; }
	expect_in "$pkg" "$deps" "Depends has $pkg (for $lib)"
done
for pkg in libsqlite3-0 libgsl27 libcjson1 libncursesw6 adduser; do
	expect_in "$pkg" "$deps" "Depends has $pkg"
done
run dpkg-deb --info "$DEB"
expect_in "postinst" "$out" "control has postinst"
expect_in "prerm" "$out" "control has prerm"

# Files: the install tree under /usr, man pages gzipped, owned by root.
contents=$(dpkg-deb --contents "$DEB")
got=$(awk '$1 !~ /^d/ { sub(/^\.\/usr\//, "", $6); print $6 }' <<<"$contents" | LC_ALL=C sort)
want=$(expected_files)
if [ "$got" = "$want" ]; then ok; else
	fail "package files differ (< got, > expected):
$(diff <(echo "$got") <(echo "$want"))"
fi
expect_eq "$(awk '{print $2}' <<<"$contents" | sort -u)" "root/root" "owned by root"
expect_eq "$(awk '$6 == "./usr/bin/perfcorr" { print $1 }' <<<"$contents")" "-rwxr-xr-x" "binary mode 0755"

# The packaged binary runs from an extracted tree.
dpkg-deb -x "$DEB" "$T/x"
check_version "$T/x/usr/bin/perfcorr"
check_copyright "$T/x/usr/share/doc/perfcorr/copyright"
# lintian, where installed: no complaint about the copyright file (a
# cpack package draws others, e.g. no changelog: not judged here)
if command -v lintian >/dev/null; then
	expect_eq "$(lintian "$DEB" 2>&1 | grep -i copyright)" "" "lintian: nothing about copyright"
else
	echo "lintian not installed: the package's copyright file is checked by hand only" >&2
fi
grep -q "^ExecStart=/usr/bin/perfcorr watch " "$T/x/usr/lib/systemd/system/perfcorr-watch@.service" \
	&& ok || fail "the unit does not start /usr/bin/perfcorr"
if command -v man >/dev/null; then
	run env MANWIDTH=80 "$T/x/usr/bin/perfcorr" help gate
	expect_in "PERFCORR-GATE(1)" "$out" "the packaged help opens the packaged page"
fi

# postinst configure: adds the system user when missing, not when present.
dpkg-deb -e "$DEB" "$T/ctl"
mkdir -p "$T/stub"
for c in adduser addgroup chown chmod mkdir systemctl; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$c" "$T/calls" >"$T/stub/$c"
	chmod +x "$T/stub/$c"
done
printf '#!/bin/sh\nexit 2\n' >"$T/stub/getent"; chmod +x "$T/stub/getent"
run env PATH="$T/stub:/usr/bin:/bin" sh "$T/ctl/postinst" configure
expect_rc 0 "postinst configure"
expect_in "adduser --system --group --home /var/lib/perfcorr" "$(cat "$T/calls")" "postinst adds the system user"
expect_in "perfcorr" "$(grep adduser "$T/calls")" "the user is perfcorr"
expect_in "addgroup --system perfcorr-review" "$(cat "$T/calls")" "postinst adds the readers' group"
expect_in "chown perfcorr:perfcorr-review /var/lib/perfcorr" "$(cat "$T/calls")" "the state root belongs to the readers' group"
expect_in "perfcorr/systemd/perfcorr-watch-remote.conf" "$(dpkg-deb -c "$DEB")" "the package ships the remote-database drop-in"
: >"$T/calls"
printf '#!/bin/sh\necho "perfcorr:x:999:999::/var/lib/perfcorr:/usr/sbin/nologin"\n' >"$T/stub/getent"
run env PATH="$T/stub:/usr/bin:/bin" sh "$T/ctl/postinst" configure
expect_rc 0 "postinst configure again"
expect_not_in "adduser" "$(cat "$T/calls")" "an existing user is kept"
finish
