#!/usr/bin/env bash
# Install what perfcorr needs to build and test, only when it is missing.
# Works as root on a fresh Debian 12; uses sudo when run as another user.
set -euo pipefail

# Debian package -> a file (or command) that proves it is installed.
declare -A NEED=(
	[build-essential]=/usr/bin/gcc
	[cmake]=/usr/bin/cmake
	[pkg-config]=/usr/bin/pkg-config
	[libncurses-dev]=/usr/include/ncursesw/curses.h
	[libsqlite3-dev]=/usr/include/sqlite3.h
	[libgsl-dev]=/usr/include/gsl/gsl_fit.h
	[libcjson-dev]=/usr/include/cjson/cJSON.h
	[sqlite3]=/usr/bin/sqlite3
	[tmux]=/usr/bin/tmux
	[python3]=/usr/bin/python3
	[libxml2-utils]=/usr/bin/xmllint
	# the HTML report's layout at 1400 px (tests/cli/report_layout.sh:
	# headless Chromium measures the boxes; skipped without it)
	[chromium]=/usr/bin/chromium
	# service checks: libFuzzer smoke (scripts/fuzz.sh), valgrind ctest,
	# peak-RSS measurements (/usr/bin/time)
	[clang]=/usr/bin/clang
	[libclang-rt-dev]=/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
	[valgrind]=/usr/bin/valgrind
	[time]=/usr/bin/time
	# install and package checks (tests/pkg): man -l and groff -ww for
	# the man pages, dpkg-shlibdeps for the package's dependencies, zsh
	# and fish for their completions, systemd-analyze verify for the unit
	[man-db]=/usr/bin/man
	[groff-base]=/usr/bin/groff
	[dpkg-dev]=/usr/bin/dpkg-shlibdeps
	[zsh]=/usr/bin/zsh
	[fish]=/usr/bin/fish
	[systemd]=/usr/bin/systemd-analyze
	# the PostgreSQL engine (issue 22): libpq to build against, the
	# server programs for the tests' throwaway cluster (tests/pg/)
	[libpq-dev]=/usr/include/postgresql/libpq-fe.h
	[postgresql]=/usr/lib/postgresql/15/bin/pg_ctl
)
missing=()
for pkg in "${!NEED[@]}"; do
	[ -e "${NEED[$pkg]}" ] || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
IFS=$'\n' missing=($(sort <<<"${missing[*]}")); unset IFS
echo "bootstrap: installing missing Debian packages: ${missing[*]}" >&2
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then SUDO=sudo; else
		echo "bootstrap: not root and no sudo; install as root: apt-get install ${missing[*]}" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "bootstrap: done" >&2
