# The HTML report never breaks a name at a hyphen (issue 35 QA 4): in the
# odd-one-out tables of "who disagrees with whom" a workload, op, metric,
# source or pattern cell wrapped at its '-' ("h100-" / "lab", "t100-" /
# "rtl"), reading as two names. Headless Chromium lays the review out at
# 1400 and 900 px; tests/cli/report_keys_nowrap.js finds, in every name
# cell, a '-' whose next character starts a new line. A workload key may
# still break after a '/'. Skipped where Chromium is missing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_meeting.sh"
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROME" ]; then
	echo "skip: no chromium (scripts/bootstrap.sh installs it)" >&2
	exit 77
fi
meeting_db
pc report --model archsim --ref h100-lab --since-last-review \
	--policy "$FIXTURES/policy/example.json" -o "$T/review.html" && ok || fail "review html"
python3 - "$T/review.html" "$TESTS/cli/report_keys_nowrap.js" "$T/check.html" <<'PY'
import sys
page, js = open(sys.argv[1]).read(), open(sys.argv[2]).read()
open(sys.argv[3], "w").write(page.replace("</body>", "<script>" + js + "</script></body>"))
PY
for w in 1400 900; do
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
		--no-first-run --user-data-dir="$T/chrome" --window-size=$w,1000 \
		--dump-dom "file://$T/check.html" >"$T/$w.dom" 2>"$T/$w.chrome" ||
		fail "chromium at $w: $(tail -3 "$T/$w.chrome")"
	run python3 - "$T/$w.dom" <<'PY'
import html, re, sys
found = re.findall(r'<pre id="keys-check">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
if not found:
    print("no report: the check did not run"); sys.exit(1)
lines = html.unescape(found[-1]).strip().split("\n")
if not lines[0].startswith("KEYS ") or lines[-1] != "END":
    print("unexpected: %r" % lines[:3]); sys.exit(1)
cells = int(lines[-2].split()[1])
bad = lines[1:-2]
print("\n".join(bad) if bad else "%d cells" % cells, end="")
sys.exit(1 if bad or cells < 30 else 0)
PY
	expect_rc 0 "at $w px no name breaks at a hyphen: $out"
done
finish
