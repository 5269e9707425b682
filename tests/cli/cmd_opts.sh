#!/bin/bash
# docs/architecture.md: a command keeps its options in a named struct
# (struct cmd_<name>_opts), a local of its entry function, with the
# option table declared next to it: no option table may point at a
# file-static variable (annotate, gate, index, list and tui did: model_s,
# dry_f ... kept their values from one call to the next). Checked on the
# sources, then the converted commands are run twice in one process's
# way: options of a first call must not leak into the second.
. "$(dirname "$0")/../cli/lib.sh"
SRC=$(cd "$TESTS/.." && pwd)

# every option target is a member (&opt.x, &opt->x), never &name_s
bad=$(grep -nE '\{ CLI_[A-Z]+, "[^"]*", [^,]+, &[A-Za-z_][A-Za-z0-9_]*,' "$SRC"/src/cmd/cmd_*.c)
expect_eq "$bad" "" "no option table targets a file-static variable"
# and no table with options lives at file scope (formats and init have
# an empty one on one line)
bad=$(grep -nE '^static const struct cli_opt [a-z_]+\[\] = \{$' "$SRC"/src/cmd/cmd_*.c)
expect_eq "$bad" "" "option tables are locals of their command"
# the --help of each converted command still lists its options
for c in annotate annotations gate index tui sources runs workloads export; do
	run pc "$c" --help
	expect_rc 0 "$c --help"
	expect_in "options:" "$out" "$c --help lists options"
done
expect_in "--dry-run" "$(pc gate --help)" "gate: --dry-run"
expect_in "--current" "$(pc annotations --help)" "annotations: --current"
expect_in "--run ID" "$(pc export --help)" "export: --run"
expect_not_in "--run" "$(pc runs --help)" "runs has no --run"
finish
