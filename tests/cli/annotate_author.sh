# The author of an annotation: $USER, else $LOGNAME, else the login name of
# the real uid in the password database (containers and CI set neither),
# never "unknown" when the password database knows the user.
. "$(dirname "$0")/../cli/lib.sh"
G="$FIXTURES/gate"

pc init >/dev/null
pc import --source h100 --kind silicon --version 2024 "$G/ref.csv" 2>/dev/null
pc import --source archsim --kind perfsim --version 2.0 "$G/model-2.0.csv" \
	2>/dev/null
# computed independently of perfcorr (python's pwd module)
want=$(python3 -c 'import os, pwd; print(pwd.getpwuid(os.getuid()).pw_name)' \
	2>/dev/null) || want=unknown
ann() { # USER LOGNAME (empty = unset), then annotate options
	local u=$1 l=$2
	shift 2
	env -u USER -u LOGNAME ${u:+USER=$u} ${l:+LOGNAME=$l} "$PERFCORR" \
		annotate --workload llama3-8b/decode/bs=32 --op e2e \
		--metric time --status investigating --note n "$@" 2>/dev/null
}
author() { pcsql "SELECT author FROM annotations WHERE id=$1"; }

run ann "" ""
expect_rc 0 "annotate without USER and LOGNAME"
expect_eq "$(author "$out")" "$want" "author from the password database"
expect_not_in unknown "$(author "$out")" "not unknown"
run ann "" "lg"
expect_eq "$(author "$out")" "lg" "LOGNAME when USER is unset"
run ann "us" "lg"
expect_eq "$(author "$out")" "us" "USER first"
run ann "" "" --author carol
expect_eq "$(author "$out")" "carol" "--author wins"
finish
