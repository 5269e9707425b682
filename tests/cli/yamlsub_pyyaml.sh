#!/bin/bash
# The YAML reader of the llm-d Benchmark Report (importers/yamlsub.h) reads
# what PyYAML writes as PyYAML reads it back: random documents dumped in
# four styles (yaml.dump(indent=2) as llm-d-benchmark writes its reports,
# indent=4 unsorted with unicode, flow leaves, width 40 with '---') compare
# equal to yaml.safe_load, or are refused (complex keys, flow collections
# over several lines). Needs PyYAML: skipped where it is not installed.
. "$(dirname "$0")/../cli/lib.sh"
python3 -c 'import yaml' 2>/dev/null || { echo "skip: no PyYAML"; exit 77; }
Y="$(dirname "$PERFCORR")/tests/test_yamlsub"
[ -x "$Y" ] || { echo "skip: $Y not built"; exit 77; }
out=$(python3 - "$Y" "$T" <<'PY'
import json, math, os, random, subprocess, sys, yaml
exe, tmp = sys.argv[1], sys.argv[2]
rng = random.Random(37)
WORDS = ["a", "b c", "0.0.1", "yes", "no", "null", "~", "1:30", "0x1F", "012", "1e5", "1.5",
         ".inf", "it's", 'say "hi"', "a: b", "a #b", "- x", "[x]", "{x}", "*x", "&x", "!x",
         "%x", "@x", "line1\nline2", "line1\n\nline3", "trail\n", "\ttab", "caf\u00e9",
         " lead", "trail ", "x" * 90, "word " * 30, ("lorem ipsum " * 15).strip(),
         "http://h:80/p", "--flag", "? q", ":", "-", "#", "'", '"', "", "true",
         "2025-11-05T18:00:42Z", "ms/token", "\\back", "a\\nb", "\u00a0nbsp", "end\n\n", "a,b"]
def scalar():
    r = rng.random()
    if r < 0.35: return rng.choice(WORDS)
    if r < 0.5: return rng.randint(-10**6, 10**12)
    if r < 0.65: return rng.choice([0.1, 1.5e-7, 1e20, -2.5, 123456789.123, float("inf"), 3.0])
    if r < 0.75: return rng.choice([True, False, None])
    return "".join(rng.choice("ab c:#'\"-\n\\x") for _ in range(rng.randint(0, 12)))
def node(d):
    r = rng.random()
    if d > 4 or r < 0.4: return scalar()
    if r < 0.7:
        return {rng.choice(WORDS[:20]) + str(rng.randint(0, 9)): node(d + 1) for _ in range(rng.randint(0, 4))}
    return [node(d + 1) for _ in range(rng.randint(0, 4))]
def norm(o):
    if isinstance(o, float) and math.isnan(o): return None
    if o == "__inf__": return float("inf")
    if o == "__-inf__": return -float("inf")
    if isinstance(o, dict): return {str(k): norm(v) for k, v in o.items()}
    if isinstance(o, list): return [norm(v) for v in o]
    if isinstance(o, bool) or o is None: return o
    if isinstance(o, (int, float)): return float(o)
    return str(o)
same = refused = 0
for t in range(400):
    d = {"root": node(0), "k": node(1)}
    text = [yaml.dump(d, indent=2), yaml.dump(d, indent=4, sort_keys=False, allow_unicode=True),
            yaml.dump(d, default_flow_style=None, width=100000),
            yaml.dump(d, indent=2, width=40, explicit_start=True)][t % 4]
    path = os.path.join(tmp, "t.yaml")
    open(path, "w").write(text)
    got = subprocess.run([exe, "dump_file"], capture_output=True, text=True,
                         env=dict(os.environ, YAMLSUB_FILE=path)).stdout.splitlines()[0]
    if got.startswith("ERR"):
        if "complex key" in got or "several lines" in got:
            refused += 1
            continue
        print("refused case %d: %s" % (t, got)); print(text); break
    if norm(json.loads(got)) != norm(yaml.safe_load(text)):
        print("differs case %d" % t); print(text); print(got); break
    same += 1
print("same", same, "refused", refused)
PY
)
echo "$out" | tail -1
expect_in "same " "$out" "every document read as PyYAML reads it (or refused)"
case $out in *"same "*) n=${out##*same }; n=${n%% *}; [ "$n" -ge 300 ] && ok || fail "only $n of 400 compared" ;; esac
finish
