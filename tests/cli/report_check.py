#!/usr/bin/env python3
"""Check a perfcorr report against `perfcorr compare` (used by
tests/cli/report*.sh; python3 standard library only).

    report_check.py metrics DIR        print the metrics of DIR/cmp.json
    report_check.py json DIR           DIR/rep.json vs compare
    report_check.py csv DIR            DIR/rep.csv vs compare
    report_check.py md DIR N           DIR/rep.md (top N) vs compare

DIR holds cmp.json (compare --points --group-by metric --group-by
op_class) and cmp-METRIC.json (compare --metric METRIC) for each metric;
md also needs rep.json (to know which points the report excludes).
Prints one line per mismatch and exits 1 when there is any.
"""
import csv
import json
import re
import sys

bad = []


def same(a, b, where):
    if a != b:
        bad.append("%s: report %r != compare %r" % (where, a, b))


def load(d, name):
    with open("%s/%s" % (d, name)) as f:
        return json.load(f)


def metrics(cmp):
    return sorted({g["key"]["metric"] for g in cmp["groups"]})


def figured(cmp, least=5):
    """Metrics whose pairs in the statistics (noisy and invalid references
    left out, as in the figures) reach the report's least number for a
    scatter (src/report_fig.c REPORT_FIG_MIN_POINTS); the others get a
    table of their pairs."""
    n = {}
    for g in cmp["groups"]:
        m = g["key"]["metric"]
        n[m] = n.get(m, 0) + g["n"]
    return sorted(m for m, k in n.items() if k >= least)


def key(p):
    return (p["workload"], p["op"], p["metric"])


def check_json(d):
    rep, cmp = load(d, "rep.json"), load(d, "cmp.json")
    for k, v in cmp["summary"].items():
        same(rep["summary"][k], v, "summary." + k)
    for s in ("model", "ref"):
        for k in ("source", "version", "kind"):
            same(rep[s][k], cmp[s][k], s + "." + k)
    groups = {(g["key"]["metric"], g["key"]["op_class"]): g
              for g in rep["groups"]}
    for g in cmp["groups"]:
        k = (g["key"]["metric"], g["key"]["op_class"])
        if k not in groups:
            bad.append("group %r missing" % (k,))
            continue
        for s, v in g.items():
            if s != "key":
                same(groups[k][s], v, "group %r.%s" % (k, s))
    same(len(groups), len(cmp["groups"]) + len(metrics(cmp)), "groups")
    for m in metrics(cmp):
        c = load(d, "cmp-%s.json" % m)
        for s, v in c["summary"].items():
            same(groups[(m, None)][s], v, "metric %s.%s" % (m, s))
        if rep["trend"]:
            i = rep["trend"]["versions"].index(rep["model"]["version"])
            same(rep["trend"]["mape"][m][i], c["summary"]["mape"],
                 "trend of the current version, " + m)
    pts = {key(p): p for p in rep["points"]}
    same(len(rep["points"]), len(cmp["points"]), "number of points")
    for p in cmp["points"]:
        q = pts.get(key(p))
        if q is None:
            bad.append("point %r missing" % (key(p),))
            continue
        for k in ("model", "ref", "err", "ref_stddev", "within_noise",
                  "sol_violation"):
            same(q[k], p[k], "point %r.%s" % (key(p), k))
        same(q["annotation"] is None, p["annotation"] is None,
             "annotation of %r" % (key(p),))
    errs = [abs(p["err"]) for p in rep["points"] if p["err"] is not None]
    same(errs, sorted(errs, reverse=True), "points by |error|, largest first")


def check_csv(d):
    cmp = load(d, "cmp.json")
    with open(d + "/rep.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    same(len(rows), len(cmp["points"]), "rows")
    by = {key(r): r for r in rows}
    for p in cmp["points"]:
        r = by.get(key(p))
        if r is None:
            bad.append("row %r missing" % (key(p),))
            continue
        for k in ("model", "ref", "err", "ref_stddev"):
            v = float(r[k]) if r[k] != "" else None
            same(v, p[k], "%r.%s" % (key(p), k))
        same(r["within_noise"] == "1", p["within_noise"],
             "%r.within_noise" % (key(p),))
        same(r["sol_violation"] == "1", p["sol_violation"],
             "%r.sol_violation" % (key(p),))
        a = p["annotation"]
        same(r["annotation_status"], a["status"] if a else "",
             "%r.annotation_status" % (key(p),))


def pct(v):
    return "n/a" if v is None else "%.2f%%" % (v * 100)


def err(v):
    """A signed error as md and html print it (issue 35): +19.75%."""
    return "n/a" if v is None else ("+" if v > 0 else "") + pct(v)


def num(v):
    return "n/a" if v is None else "%.4f" % v


def unescape(s):
    return re.sub(r"\\(.)", r"\1", s.strip())


def check_md(d, top):
    with open(d + "/rep.md") as f:
        md = f.read()
    rep, cmp = load(d, "rep.json"), load(d, "cmp.json")
    for m in metrics(cmp):
        s = load(d, "cmp-%s.json" % m)["summary"]
        sec = md.split("\n### %s" % m, 1)[1]
        row = re.search(r"^\| \*\*all\*\* \|.*$", sec, re.M).group(0)
        cells = [c.strip() for c in row.split(" |")[1:-1]]
        want = [str(s["n"]), pct(s["mape"]), pct(s["bias"]),
                pct(s["p95_abs_err"]), num(s["pearson"]),
                num(s["spearman"]), num(s["fit"]["slope"]),
                str(s["excluded_noisy"]), str(s["sol_violations"])]
        same(cells, want, "md headline of " + m)
    cmpts = {key(p): p for p in cmp["points"]}
    pts = rep["points"]
    # the discrepancies, worst first, as many as the report counts (at
    # most top), then the closest to the limit: pairs in the statistics
    # that are not discrepancies, largest |error| first, at most 5
    disc = [p for p in pts if p["discrepancy"]]
    same(len(disc), rep["discrepancies"], "json discrepancy count")
    kept = [p for p in pts if not p["noisy_ref"] and not p["invalid"] and
            p["err"] is not None and not p["discrepancy"]]
    # rep.json has the default --top 20
    same([pts[i] for i in rep["listed"]["discrepancies"]], disc[:20],
         "json listed discrepancies")
    same([pts[i] for i in rep["listed"]["closest_to_limit"]], kept[:5],
         "json listed closest to the limit")
    # issue 35 item 6: the open discrepancies (no annotation, open or
    # investigating) first, worst first, at most top; the others folded
    # in a <details> under them
    def is_open(p):
        a = p["annotation"]
        return a is None or a["status"] in ("open", "investigating")
    opn = [p for p in disc if is_open(p)]
    settled = [p for p in disc if not is_open(p)]
    same(rep["open"], len(opn), "json open count")
    same([pts[i] for i in rep["listed"]["open"]], opn[:20], "json listed open")
    body = md.split("## Open discrepancies (%d of %d)\n" % (len(opn), len(disc)),
                    1)[1]
    body = body.split("\n## ", 1)[0]
    sec, _, near = body.partition("\n### Closest to the limit")
    sec, _, fold = sec.partition("<details>")
    for name, text, want in (("open discrepancies", sec, opn[:top]),
                             ("settled discrepancies", fold, settled[:top]),
                             ("closest", near, kept[:5])):
        rows = re.findall(r"^\| (\d+) \|(.*)$", text, re.M)
        same(len(rows), len(want), "md %s rows" % name)
        for (rank, rest), p in zip(rows, want):
            cells = [c for c in re.split(r"(?<!\\)\|", rest)]
            k = tuple(unescape(c) for c in cells[:3])
            same(k, key(p), "md %s %s key" % (name, rank))
            same(cells[5].strip(), err(cmpts[key(p)]["err"]),
                 "md %s %s error" % (name, rank))
    if len(opn) > top:
        same("... and %d more" % (len(opn) - top) in sec, True,
             "md says how many open discrepancies are not listed")


def main():
    what, d = sys.argv[1], sys.argv[2]
    if what == "metrics":
        print("\n".join(metrics(load(d, "cmp.json"))))
        return 0
    if what == "figured":
        print("\n".join(figured(load(d, "cmp.json"))))
        return 0
    {"json": lambda: check_json(d), "csv": lambda: check_csv(d),
     "md": lambda: check_md(d, int(sys.argv[3]))}[what]()
    print("\n".join(bad))
    return 1 if bad else 0


sys.exit(main())
