# Shared helpers for tests/pkg/*.sh (sourced after tests/cli/lib.sh).
BUILD=$(cd "$(dirname "$PERFCORR")" && pwd)
SRC=$(cd "$TESTS/.." && pwd)
VERSION=$(sed -n 's/^project(perfcorr VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")

# The commands, from the usage text (not from the generators under test).
commands() {
	"$PERFCORR" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
}

# Every file an install holds, relative to the prefix, sorted.
expected_files() {
	{
		echo bin/perfcorr
		echo share/man/man1/perfcorr.1.gz
		for c in $(commands); do echo "share/man/man1/perfcorr-$c.1.gz"; done
		echo share/man/man5/perfcorr-policy.5.gz
		echo share/man/man5/perfcorr-manifest.5.gz
		echo share/bash-completion/completions/perfcorr
		echo share/zsh/vendor-completions/_perfcorr
		echo share/fish/vendor_completions.d/perfcorr.fish
		echo share/perfcorr/policy/example.json
		echo share/perfcorr/map/cuda_kernels.json
		echo share/perfcorr/manifest/results.csv.perfcorr.json
		echo share/perfcorr/systemd/perfcorr-watch-remote.conf
		echo share/doc/perfcorr/README.md
		echo share/doc/perfcorr/copyright
		echo lib/systemd/system/perfcorr-watch@.service
	} | LC_ALL=C sort
}

# Warnings man(1) and groff print for a page (empty when clean).
man_warnings() { # page
	{
		MANWIDTH=80 man -l "$1" 2>&1 >/dev/null
		case $1 in
		*.gz) zcat "$1" ;;
		*) cat "$1" ;;
		esac | groff -ww -man -Tutf8 -z 2>&1
	} | sed "s|^|$(basename "$1"): |"
}

# "perfcorr VERSION (git X)" / "sqlite A, gsl B, cjson C[, ncurses D]",
# the library versions checked against pkg-config's (independent).
check_version() { # binary
	local v line1 line2 want
	v=$("$1" --version) || { fail "$1 --version: exit $?"; return; }
	line1=$(sed -n 1p <<<"$v")
	line2=$(sed -n 2p <<<"$v")
	case $line1 in
	"perfcorr $VERSION (git "*")") ok ;;
	*) fail "--version line 1: '$line1'" ;;
	esac
	if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
		# git describe: [TAG-N-g]HASH[-dirty]; HASH must be a commit of
		# this repository (HEAD unless committed since the build).
		local h=${line1##*(git }
		h=${h%)}; h=${h%-dirty}; h=${h##*-g}
		if git -C "$SRC" rev-parse -q --verify "$h^{commit}" >/dev/null; then
			ok
			[ "$(git -C "$SRC" rev-parse "$h")" = "$(git -C "$SRC" rev-parse HEAD)" ] ||
				echo "note: built from $h, HEAD is newer (rebuild)" >&2
		else
			fail "--version names '$h', not a commit of $SRC"
		fi
	fi
	for lib in "sqlite:sqlite3" "gsl:gsl" "cjson:libcjson"; do
		want=$(pkg-config --modversion "${lib#*:}" 2>/dev/null) || continue
		expect_in "${lib%%:*} $want" "$line2" "--version: ${lib%%:*}"
	done
}

# share/doc/perfcorr/copyright is Debian's machine-readable format (DEP-5)
# and carries LICENSE whole (checked against LICENSE, unindented here).
check_copyright() { # file
	local f=$1
	[ -f "$f" ] || { fail "no $f"; return; }
	expect_eq "$(sed -n 1p "$f")" \
		"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" \
		"copyright: DEP-5 Format line"
	expect_in "Files: *" "$(cat "$f")" "copyright: a Files: stanza"
	expect_eq "$(sed -n 's/^Copyright: //p' "$f")" "2026 the perfcorr authors" "copyright: holder"
	expect_eq "$(grep -c '^License: Expat$' "$f")" 1 "copyright: License: Expat (MIT)"
	# the licence text: the indented lines after "License:", " ." = blank
	expect_eq "$(sed -n '/^License:/,$p' "$f" | tail -n +2 | sed 's/^ //; s/^\.$//')" \
		"$(cat "$SRC/LICENSE")" "copyright: the text of LICENSE"
	expect_in "MIT License" "$(sed -n 1p "$SRC/LICENSE")" "LICENSE is MIT"
}
