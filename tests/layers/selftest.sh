#!/usr/bin/env bash
# The layer check fails where it must (issue 33): small trees, checked
# against the real table (tests/layers/layers.txt), with an include up a
# floor, across one floor, a circle, an include that names no file and a
# folder the table lacks; and passes a clean tree with a private header.
set -u
TESTS=${TESTS:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
CHECK="$TESTS/layers/check.py"
TABLE="$TESTS/layers/layers.txt"
T=$(mktemp -d "${TMPDIR:-/tmp}/perfcorr-layers.XXXXXX")
trap 'rm -rf "$T"' EXIT
FAILS=0
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

# tree NAME: a clean tree; then the caller adds its one defect
tree() {
	R="$T/$1"
	mkdir -p "$R/base" "$R/db" "$R/importers" "$R/src/stats" "$R/src/corr"
	printf '#include "base/a.h"\n' >"$R/base/a.c"
	: >"$R/base/a.h"
	printf '#include "db/d.h"\n#include "base/a.h"\n' >"$R/db/d.c"
	: >"$R/db/d.h"
	: >"$R/importers/i.h"
	printf '#include "src/stats/s.h"\n#include "base/a.h"\n' >"$R/src/stats/s.c"
	: >"$R/src/stats/s.h"
	# a module in two files behind a private header (m_int.h is module m)
	printf '#include "src/corr/m.h"\n#include "src/corr/m_int.h"\n' >"$R/src/corr/m.c"
	printf '#include "src/corr/m_int.h"\n#include "db/d.h"\n' >"$R/src/corr/m_part.c"
	printf '#include "src/corr/m.h"\n#include "src/stats/s.h"\n' >"$R/src/corr/m_int.h"
	: >"$R/src/corr/m.h"
}
# expect NAME RC NEEDLE: the check's exit status and a line of its output
expect() {
	out=$(python3 "$CHECK" "$T/$1" "$TABLE" 2>&1)
	rc=$?
	[ "$rc" -eq "$2" ] || fail "$1: exit $rc, expected $2: $out"
	case "$out" in *"$3"*) ;; *) fail "$1: '$3' not in: $out" ;; esac
}

tree clean
expect clean 0 "layers: ok: 11 files"

tree up			# db/ reaching up into src/ (what src/base/ looked like)
printf '#include "src/stats/s.h"\n' >>"$R/db/d.c"
expect up 1 'db/d.c:3: #include "src/stats/s.h": db/ (floor 1) includes src/stats/ (floor 2), above it'

tree across		# db/ and importers/ share a floor: neither includes the other
printf '#include "importers/i.h"\n' >>"$R/db/d.c"
expect across 1 "db/ (floor 1) includes importers/ (floor 1), on the same floor as it"

tree base_up		# base/ is the bottom: nothing above it
printf '#include "db/d.h"\n' >>"$R/base/a.c"
expect base_up 1 "base/a.c:2"

tree circle		# two modules of one folder including each other
printf '#include "src/stats/s.h"\n' >"$R/src/stats/t.h"
printf '#include "src/stats/t.h"\n' >>"$R/src/stats/s.c"
expect circle 1 "include circle between modules src/stats/s <-> src/stats/t"

tree circle3		# a longer circle, through a header
printf '#include "src/corr/n.h"\n' >>"$R/src/corr/m_int.h"
printf '#include "src/corr/o.h"\n' >"$R/src/corr/n.h"
printf '#include "src/corr/m.h"\n' >"$R/src/corr/o.h"
printf '#include "src/corr/m_int.h"\n' >"$R/src/corr/o.c"
expect circle3 1 "include circle between modules src/corr/m <-> src/corr/n <-> src/corr/o"

tree missing		# an include that resolves to no file
printf '#include "src/stats/gone.h"\n' >>"$R/src/stats/s.c"
expect missing 1 'src/stats/s.c:3: #include "src/stats/gone.h" names no file'

tree unknown		# a folder the table does not name
mkdir -p "$R/src/newthing"
printf '#include "base/a.h"\n' >"$R/src/newthing/x.c"
expect unknown 1 "src/newthing/x.c: its folder is not in"

[ "$FAILS" -eq 0 ] && echo "layers selftest: ok" || exit 1
