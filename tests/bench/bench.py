#!/usr/bin/env python3
"""perfcorr benchmarks against the floors and the peers (issues 9, 21).

Run through tests/bench/run.sh (make bench), which checks the tools.
Environment:
  BENCH_TIERS   tiers to run (default "100k 1M"; add 10M for the big one;
                `make bench TIERS="100k 1M 10M"` sets it). 10k also exists.
  BENCH_SHAPES  study shapes (default "kernel sweep"; gen.py --shape)
  BENCH_REPS    repetitions of each timed command (default 3; tiers >= 10M
                run once): figures are medians of CPU (user + sys) time
  BENCH_REPS2   repetitions of the derived commands (--metric/--op
                selections, --group-by, report, index; default BENCH_REPS)
  BENCH_RSS_BIG "1" adds the opt-in RSS tier: a ~2 GB model CSV of each
                shape imported once beside a 40 MB prefix of it
  BENCH_DIR     scratch directory for data and databases (default
                build/bench); data of tiers >= 10M is deleted after use,
                BENCH_KEEP_DATA=1 keeps it (0 deletes every tier's)
  BENCH_RESULTS the results file the run is merged into (default
                tests/bench/results/last-run.json): an entry per shape and
                tier, each with its own date, commit and load average; a
                run replaces the entries it measured and keeps the others,
                so tiers can be measured in separate runs
  BENCH_OUT     markdown written (default docs/benchmarks.md; "-" = stdout)
  BENCH_PEERS   "0" skips pandas/scipy (no peers, no ratios)
  BENCH_PROFILE "1" records a perf profile (perf record -F 499) of one more
                run of import, compare, --group-by op, report html and index
                at the 1M tier (or a list of those: "import compare
                group-by report index"): the shares by library and the top
                symbols are rendered with the run (section Profiles)
Python 3 standard library only; the peers run under /usr/bin/python3.
`bench.py --render [RESULTS.json]` writes the markdown again from the
results file without measuring; `bench.py --merge RESULTS.json...` merges
the entries of runs made apart into BENCH_RESULTS and renders. Not part of `make test`.

Every target of issue 21 is one row of the Targets table per shape (and per
tier where the issue names tiers); a missed target links to its paragraph
in tests/bench/notes.md (an anchor `<a id="miss-..."></a>`): the profile
that explains it and the floor measured on this machine. A "no" without
its paragraph is flagged in the table and on stderr.
"""
import hashlib
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PY = "/usr/bin/python3"
TIME = "/usr/bin/time"
SIZES = {"10k": 10000, "100k": 100000, "1M": 1000000, "10M": 10000000}
SHAPES = ("kernel", "sweep")
TIER_ORDER = ("10k", "100k", "1M", "10M", "2G")
RSS_SMALL = 40 * 1000 * 1000      # the 40 MB file of the RSS target
RSS_BIG_N = {"kernel": 26400000, "sweep": 22400000}  # ~2 GB model CSVs

# issue 21 (judged on CPU-time ratios in one run, at 1M unless said)
T_FLOOR = {"kernel": 1.5, "sweep": 2.0}  # import / sqlite3 .import
T_RSS_FLAT = 1.2     # "flat": big-file RSS at most 1.2x the 40 MB file's
T_CMP_X = 5.0        # compare >= 5x faster than pandas + scipy
T_CMP_S = 1.0        # compare under 1 s at 1M
T_CMP_BPP = 64.0     # peak RSS bytes per pair
T_SEL = 1.5          # selection: CPU share <= 1.5 x the pairs' share
T_GRP = 1.3          # compare --group-by op <= 1.3x compare
T_REPORT_ADD = 0.5   # report html <= compare + 0.5 s
T_INDEX = 2.0        # index <= 2x compare
T_TUI_CACHED = 50.0  # cached TUI open, ms
# issue 9 (kept as a second table)
T_PANDAS = 3.0       # import at least 3x faster than pandas
T_REPORT_S = 5.0     # report under 5 s at 1M pairs
T_REPORT_MB = 5.0    # report output under 5 MB
T_RSS_MB = 200.0     # peak RSS at 10M
T_TUI_KEY = 20.0     # every keystroke, ms

OP_GLOB = "*.attn"
PROFILED = ("import", "compare", "group-by", "report", "index")   # --op selection: one op kind of ten


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class M:
    """One measurement: wall and CPU (user + sys) seconds, peak RSS MiB."""

    def __init__(self, wall, cpu, rss, out=""):
        self.wall, self.cpu, self.rss, self.out = wall, cpu, rss, out


def run(cmd, keep_out=True):
    """Run cmd under /usr/bin/time; return an M."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        t0 = time.perf_counter()
        p = subprocess.run([TIME, "-f", "@@ %M %U %S", "-o", tf.name] + cmd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            raise SystemExit("bench: failed (%d): %s\n%s" % (
                p.returncode, " ".join(cmd), p.stderr[-2000:]))
        f = tf.read().split("@@")[-1].split()
    # /usr/bin/time counts CPU in 10 ms ticks: a command under one tick
    # reads 0.00 s, and every ratio against it would divide by zero (the
    # 10k tier's sqlite3 .import floor on an idle machine). Half a tick
    # is the best estimate of a time known only to be under one.
    cpu = max(float(f[1]) + float(f[2]), 0.005)
    return M(wall, cpu, int(f[0]) / 1024.0, p.stdout if keep_out else "")


def agg(ms):
    """Medians of wall and CPU, the peak RSS, the last output."""
    return M(median([m.wall for m in ms]), median([m.cpu for m in ms]),
             max(m.rss for m in ms), ms[-1].out)


def rm_db(path):
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def rkey(shape, tier):
    return "%s-%s" % (shape, tier)


def git_commit():
    p = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %cI"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True)
    return p.stdout.strip() or "?"


def load_now():
    return [round(x, 1) for x in os.getloadavg()]


class Bench:
    def __init__(self, perfcorr):
        self.pc = os.path.abspath(perfcorr)
        self.tiers = os.environ.get("BENCH_TIERS", "100k 1M").split()
        for t in self.tiers:
            if t not in SIZES:
                raise SystemExit("bench: unknown tier '%s' (10k 100k 1M 10M)"
                                 % t)
        self.shapes = os.environ.get("BENCH_SHAPES", "kernel sweep").split()
        for sh in self.shapes:
            if sh not in SHAPES:
                raise SystemExit("bench: unknown shape '%s' (kernel sweep)"
                                 % sh)
        self.reps = int(os.environ.get("BENCH_REPS", "3"))
        self.reps2 = int(os.environ.get("BENCH_REPS2", str(self.reps)))
        self.dir = os.path.abspath(os.environ.get(
            "BENCH_DIR", os.path.join(ROOT, "build", "bench")))
        self.peers = os.environ.get("BENCH_PEERS", "1") != "0"
        self.keep = os.environ.get("BENCH_KEEP_DATA")
        self.rss_big = os.environ.get("BENCH_RSS_BIG", "0") == "1"
        pv = os.environ.get("BENCH_PROFILE", "0")
        self.profile = set() if pv == "0" or not shutil.which("perf") else (
            set(PROFILED) if pv == "1" else set(pv.split()))
        os.makedirs(self.dir, exist_ok=True)
        self.floor_bin = self.build_floor()
        self.commit = git_commit()
        self.results = None

    def build_floor(self):
        """tests/bench/floor_compare.c: the minimal C reader of compare's
        query (the floor of compare on this machine)."""
        out = os.path.join(self.dir, "floor_compare")
        src = os.path.join(HERE, "floor_compare.c")
        subprocess.run(["cc", "-O2", "-std=c11", src, "-o", out, "-lsqlite3",
                        "-lm"], check=True)
        return out

    def reps_for(self, n, reps):
        return 1 if n >= 10000000 else reps

    def data(self, n, shape, name):
        d = os.path.join(self.dir, "data-" + name)
        stamp = os.path.join(d, ".gen")
        with open(os.path.join(HERE, "gen.py"), "rb") as f:
            sig = hashlib.sha256(f.read()).hexdigest()
        if os.path.exists(stamp) and open(stamp).read() == sig:
            return d
        log("bench: generating %d pairs (%s shape) into %s" % (n, shape, d))
        shutil.rmtree(d, ignore_errors=True)
        subprocess.run(["nice", "-n", "5", sys.executable,
                        os.path.join(HERE, "gen.py"), str(n), d, "--shape",
                        shape], check=True)
        with open(stamp, "w") as f:
            f.write(sig)
        return d

    def drop_data(self, d, n):
        if self.keep == "1" or (self.keep is None and n < 10000000):
            return
        shutil.rmtree(d, ignore_errors=True)

    def prefix(self, csv, nbytes):
        """The first nbytes of csv cut at a line end: a valid CSV of the
        same file's first rows."""
        out = os.path.join(self.dir, "prefix.csv")
        with open(csv, "rb") as f:
            buf = f.read(nbytes)
        with open(out, "wb") as f:
            f.write(buf[:buf.rfind(b"\n") + 1])
        return out

    def pcrun(self, db, *args):
        return run([self.pc, "--db", db] + list(args))

    # -- import: perfcorr vs the floor (sqlite3 .import) and pandas -------
    def bench_import(self, n, d, r, db):
        """The last perfcorr import is left in db: the study's model side."""
        csv = os.path.join(d, "model.csv")
        fdb = os.path.join(self.dir, "floor.db")
        ndb = os.path.join(self.dir, "pandas.db")
        pc, fl, pa = [], [], []
        floor = n < 10000000 or os.environ.get("BENCH_FLOOR_10M", "1") == "1"
        for i in range(self.reps_for(n, self.reps)):
            rm_db(fdb)
            if floor:
                fl.append(run(["sqlite3", fdb, "-cmd", ".mode csv",
                               ".import %s results" % csv]))
            rm_db(db)
            pc.append(self.pcrun(db, "import", "-q", "-s", "sim", "-k",
                                 "perfsim", csv))
            if self.peers and n <= 1000000:
                rm_db(ndb)
                pa.append(run([PY, os.path.join(HERE, "peer_import.py"), csv,
                               ndb]))
            log("bench: import rep %d: perfcorr cpu %.2f s%s%s" % (
                i + 1, pc[-1].cpu, ", sqlite3 .import %.2f s" % fl[-1].cpu
                if fl else "", ", pandas %.2f s" % pa[-1].cpu if pa else ""))
        r["import"] = agg(pc)
        if fl:
            r["floor"] = agg(fl)
            r["floor_db_bytes"] = os.path.getsize(fdb)
        if pa:
            r["pandas"] = agg(pa)
        r["import_db_bytes"] = os.path.getsize(db)
        r["csv_bytes"] = os.path.getsize(csv)
        rm_db(fdb)
        rm_db(ndb)
        # RSS against file size: the 40 MB prefix of the same file
        if r["csv_bytes"] > 1.5 * RSS_SMALL:
            pre = self.prefix(csv, RSS_SMALL)
            pdb = os.path.join(self.dir, "prefix.db")
            rm_db(pdb)
            r["import_rss40"] = self.pcrun(pdb, "import", "-q", "-s", "sim",
                                           "-k", "perfsim", pre)
            r["rss40_bytes"] = os.path.getsize(pre)
            rm_db(pdb)
            os.unlink(pre)
        r["import2"] = self.pcrun(db, "import", "-q", "-s", "hw", "-k",
                                  "silicon", os.path.join(d, "silicon.csv"))
        r["study_db_bytes"] = os.path.getsize(db)

    # -- compare and what derives from it ---------------------------------
    def bench_compare(self, n, r, db, big):
        base = ["compare", "-m", "sim", "-r", "hw", "-f", "json"]
        pc, pe, fl = [], [], []
        der = {k: [] for k in ("cmp_metric", "cmp_op", "cmp_grp", "report",
                               "index")}
        tui = []
        rep_html = os.path.join(self.dir, "report.html")
        for i in range(self.reps_for(n, self.reps)):
            pc.append(self.pcrun(db, *base))
            if big:      # a 10M run keeps each step as it completes
                r["compare"] = agg(pc)
                r["pairs"] = json.loads(pc[-1].out)["summary"]["n"]
                r["floor_compare"] = agg([run([self.floor_bin, db, "sim",
                                               "hw"])])
                self.step("import, compare")
            if self.peers:
                pe.append(run([PY, os.path.join(HERE, "peer_compare.py"), db,
                               "sim", "hw"]))
            fl.append(r["floor_compare"] if big else
                      run([self.floor_bin, db, "sim", "hw"]))
            if big and pe:
                r["peer_compare"] = agg(pe)
                r["peer_agree"] = agree(json.loads(pc[-1].out),
                                        json.loads(pe[-1].out))
                self.step("import, compare, pandas+scipy")
            log("bench: compare rep %d: perfcorr cpu %.2f s (%.0f MB), floor "
                "%.2f s%s" % (i + 1, pc[-1].cpu, pc[-1].rss, fl[-1].cpu,
                              ", pandas+scipy %.2f s" % pe[-1].cpu
                              if pe else ""))
            if i < self.reps_for(n, self.reps2):
                if not big:
                    der["cmp_metric"].append(self.pcrun(
                        db, *(base + ["--metric", "time"])))
                    der["cmp_op"].append(self.pcrun(
                        db, *(base + ["--op", OP_GLOB])))
                    der["cmp_grp"].append(self.pcrun(
                        db, *(base + ["--group-by", "op"])))
                    der["report"].append(self.pcrun(
                        db, "report", "-m", "sim", "-r", "hw", "-f", "html",
                        "-o", rep_html))
                    r["report_html_bytes"] = os.path.getsize(rep_html)
                    os.unlink(rep_html)
                run([self.pc, "--db", db, "index", "--clear"])
                der["index"].append(self.pcrun(db, "index", "-q", "-m", "sim",
                                               "-r", "hw"))
                t = self.bench_tui(db)
                if t:
                    tui.append(t)
                log("bench: derived rep %d: %s" % (i + 1, ", ".join(
                    "%s %.2f s" % (k, v[-1].cpu) for k, v in der.items()
                    if v)))
        r["compare"] = agg(pc)
        r["floor_compare"] = agg(fl)
        s = json.loads(r["compare"].out)["summary"]
        r["pairs"] = s["n"]
        pc[-1].out = r["compare"].out
        r["floor_pairs"] = int(fl[-1].out.split()[1])
        for k, v in der.items():
            if v:
                r[k] = agg(v)
        for k in ("cmp_metric", "cmp_op"):
            if k in r:
                r[k + "_pairs"] = json.loads(r[k].out)["summary"]["n"]
        for k in ("compare", "cmp_metric", "cmp_op", "cmp_grp"):
            if k in r:
                r[k].out = ""        # the JSON is not kept in the results
        if tui:
            r["tui"] = tui
        if pe:
            r["peer_compare"] = agg(pe)
            q = json.loads(r["peer_compare"].out)
            r["peer_agree"] = agree(json.loads(pc[-1].out), q)
            r["peer_compare"].out = ""

    def perf(self, r, name, cmd):
        """One more run of cmd under perf record: r["prof"][name] = the
        shares of the libraries and the top symbols (percent of samples)."""
        data = os.path.join(self.dir, "perf.data")
        p = subprocess.run(["perf", "record", "-q", "-F", "499", "-o", data,
                            "--"] + cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            log("bench: perf record failed: %s" % p.stderr[-300:])
            return

        def report(sort, top):
            q = subprocess.run(["perf", "report", "-i", data, "--stdio",
                                "--sort", sort], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            rows = []
            for line in q.stdout.splitlines():
                m = re.match(r"\s*([\d.]+)%\s+(\S+)(?:\s+\[.\]\s+(.*?))?\s*$",
                             line)
                if m and not line.lstrip().startswith("#"):
                    what = m.group(3) or m.group(2)
                    if sort != "dso":
                        what = "%s (%s)" % (m.group(3) or "?", short_dso(
                            m.group(2)))
                    rows.append([float(m.group(1)), what.strip()])
            return rows[:top]
        r.setdefault("prof", {})[name] = {"dso": report("dso", 6),
                                          "sym": report("dso,sym", 10)}
        os.unlink(data)
        log("bench: profiled %s" % name)

    def bench_tui(self, db):
        """Headless TUI from the pair cache `index` just filled, driven by a
        key script; the TUI times itself (PERFCORR_TIMING): the first
        screen, then each key's handling + redraw."""
        cyc = (["<PgDn>"] * 5 + ["s"] + ["<PgDn>"] * 3 +
               list("fmetric=time") + ["<Enter>", "<Enter>", "q"] +
               ["j"] * 3 + ["F", "h", "h", "s"])
        keys = cyc * 3 + ["<PgDn>"] * 5 + ["<Enter>", "q"]
        script = os.path.join(self.dir, "keys.txt")
        timing = os.path.join(self.dir, "timing.txt")
        with open(script, "w") as f:
            f.write("".join(keys) + "\nq\n")
        env = dict(os.environ, PERFCORR_HEADLESS="1", PERFCORR_SCRIPT=script,
                   PERFCORR_TIMING=timing, COLUMNS="160", LINES="50")
        if os.path.exists(timing):
            os.unlink(timing)
        p = subprocess.run([self.pc, "--db", db, "tui", "-m", "sim", "-r",
                            "hw"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode != 0 or not os.path.exists(timing):
            log("bench: tui run failed: %s" % p.stderr[-500:])
            return None
        with open(timing) as f:
            return f.read()

    def entry(self, shape, tier, n):
        key = rkey(shape, tier)
        log("bench: == %s (%d pairs), load %s" % (key, n, load_now()))
        r = {}
        meta = {"date": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                "commit": self.commit, "load_start": load_now(),
                "reps": self.reps_for(n, self.reps),
                "reps2": self.reps_for(n, self.reps2), "n": n}
        t0 = time.time()
        d = self.data(n, shape, key)
        db = os.path.join(self.dir, "study-%s.db" % key)
        self.bench_import(n, d, r, db)
        prof = self.profile and n == SIZES[os.environ.get(
            "BENCH_PROFILE_TIER", "1M")]
        if prof and "import" in self.profile:
            pdb = os.path.join(self.dir, "perf.db")
            rm_db(pdb)
            self.perf(r, "import", [self.pc, "--db", pdb, "import", "-q",
                                    "-s", "sim", "-k", "perfsim",
                                    os.path.join(d, "model.csv")])
            rm_db(pdb)
        self.drop_data(d, n)
        self.partial(key, meta, r, "import")
        self.step = lambda done: self.partial(key, meta, r, done)
        self.bench_compare(n, r, db, n >= 10000000)
        if prof:
            base = [self.pc, "--db", db, "compare", "-m", "sim", "-r", "hw",
                    "-f", "json"]
            if "compare" in self.profile:
                self.perf(r, "compare", base)
            if "group-by" in self.profile:
                self.perf(r, "compare --group-by op", base + ["--group-by",
                                                             "op"])
            if "report" in self.profile:
                self.perf(r, "report html", [
                    self.pc, "--db", db, "report", "-m", "sim", "-r", "hw",
                    "-f", "html", "-o", os.path.join(self.dir, "perf.html")])
            if "index" in self.profile:
                run([self.pc, "--db", db, "index", "--clear"])
                self.perf(r, "index", [self.pc, "--db", db, "index", "-q",
                                       "-m", "sim", "-r", "hw"])
        rm_db(db)
        meta["load_end"] = load_now()
        meta["wall"] = time.time() - t0
        meta.pop("partial", None)
        return key, {"meta": meta, "res": r}

    def partial(self, key, meta, r, done):
        """Save what an entry measured so far (a 10M run may not finish
        in the time a session has): marked partial until it completes."""
        if self.results is None:
            return
        m = dict(meta, partial=done, load_end=load_now(), wall=0)
        self.results["entries"][key] = {"meta": m, "res": dict(r)}
        save(self.results)

    def entry_rss(self, shape):
        """The opt-in RSS tier: a ~2 GB model CSV imported once beside the
        40 MB prefix of the same file."""
        key = rkey(shape, "2G")
        n = RSS_BIG_N[shape]
        meta = {"date": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                "commit": self.commit, "load_start": load_now(), "reps": 1,
                "reps2": 0, "n": n}
        t0 = time.time()
        d = self.data(n, shape, key)
        csv = os.path.join(d, "model.csv")
        db = os.path.join(self.dir, "rss.db")
        r = {"csv_bytes": os.path.getsize(csv)}
        rm_db(db)
        r["import"] = self.pcrun(db, "import", "-q", "-s", "sim", "-k",
                                 "perfsim", csv)
        rm_db(db)
        pre = self.prefix(csv, RSS_SMALL)
        r["rss40_bytes"] = os.path.getsize(pre)
        r["import_rss40"] = self.pcrun(db, "import", "-q", "-s", "sim", "-k",
                                       "perfsim", pre)
        rm_db(db)
        os.unlink(pre)
        self.drop_data(d, n)
        meta["load_end"] = load_now()
        meta["wall"] = time.time() - t0
        return key, {"meta": meta, "res": r}

    def go(self, results):
        self.results = results
        for tier in self.tiers:
            for shape in self.shapes:
                k, e = self.entry(shape, tier, SIZES[tier])
                results["entries"][k] = e
                save(results)    # each entry as soon as it is measured
        if self.rss_big:
            for shape in self.shapes:
                k, e = self.entry_rss(shape)
                results["entries"][k] = e
                save(results)


AGREE = ("mape", "bias", "median_abs_err", "p95_abs_err", "max_abs_err",
         "geomean_ratio", "rmse", "pearson", "pearson_log", "spearman",
         "kendall_tau_b", "loa_low", "loa_high")


def agree(ours, peer):
    """[largest relative difference, counts equal] between compare's JSON
    and the peer's: the summary over all pairs and each metric's."""
    worst, same = 0.0, True
    sides = [(ours["summary"], peer["summary"])]
    pm = {x["metric"]: x for x in peer["by_metric"]}
    for x in ours.get("by_metric") or []:
        if x["metric"] in pm:
            sides.append((x, pm[x["metric"]]))
        else:
            same = False
    for s, q in sides:
        for k in AGREE:
            if s.get(k) is None or q.get(k) is None:
                continue
            worst = max(worst, abs(s[k] - q[k]) / max(abs(q[k]), 1e-300))
        same = same and s["n"] == q["n"] and s["outliers"] == q["outliers"]
    return [worst, same, len(sides)]


# -- results file -----------------------------------------------------------

def enc(v):
    if isinstance(v, M):
        return {"M": [v.wall, v.cpu, v.rss, v.out]}
    if isinstance(v, list):
        return [enc(x) for x in v]
    return v


def dec(v):
    if isinstance(v, dict) and "M" in v:
        return M(*v["M"])
    if isinstance(v, list):
        return [dec(x) for x in v]
    return v


def results_path():
    return os.environ.get("BENCH_RESULTS", os.path.join(
        HERE, "results", "last-run.json"))


def load_results(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError):
        d = {}
    if d.get("version") != 2:
        d = {"version": 2, "entries": {}}
    for e in d["entries"].values():
        e["res"] = {k: dec(v) for k, v in e["res"].items()}
    d["path"] = path
    return d


def save(results):
    d = {"version": 2, "machine": machine(), "entries": {
        k: {"meta": e["meta"], "res": {kk: enc(vv)
                                       for kk, vv in e["res"].items()}}
        for k, e in results["entries"].items()}}
    os.makedirs(os.path.dirname(results["path"]) or ".", exist_ok=True)
    with open(results["path"] + ".tmp", "w") as f:
        json.dump(d, f, indent=0)
    os.replace(results["path"] + ".tmp", results["path"])
    results["machine"] = d["machine"]


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = "%.0f GiB" % (int(line.split()[1]) / 1048576.0)
    except OSError:
        pass
    sq = subprocess.run(["sqlite3", "--version"], stdout=subprocess.PIPE,
                        text=True).stdout.split()[0]
    pd = subprocess.run([PY, "-c", "import pandas, scipy; print(pandas."
                         "__version__, scipy.__version__)"],
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                        text=True).stdout.split() or ["-", "-"]
    return ("%s, %d cores (os.cpu_count), %s RAM, %s %s; sqlite3 %s, "
            "pandas %s, scipy %s, Python %s" % (
                cpu, os.cpu_count() or 0, mem, platform.system(),
                platform.release(), sq, pd[0], pd[1],
                platform.python_version()))


def short_dso(d):
    d = os.path.basename(d)
    return {"[kernel.kallsyms]": "kernel"}.get(d, d.split(".so")[0])


# -- rendering --------------------------------------------------------------

def yes(ok):
    return "**yes**" if ok else "**no**"


def mb(x):
    return x / 1048576.0


def tui_parse(raw):
    """PERFCORR_TIMING text -> ((wall, cpu), [(key, wall, cpu)]); cpu is
    None when the TUI does not report it."""
    first, lat = (None, None), []
    for line in raw.splitlines():
        f = line.split()
        if f and f[0] == "first_screen_ms":
            first = (float(f[1]), float(f[3]) if len(f) > 3 else None)
        elif f and f[0] == "key" and len(f) >= 3:
            lat.append((f[1], float(f[2]),
                        float(f[4]) if len(f) > 4 else None))
    return first, lat


def tui_first(r):
    """Median first screen (CPU ms when reported, else wall) of the cached
    opens, and the max key latency."""
    firsts, keys = [], []
    for raw in r.get("tui", []):
        (w, c), lat = tui_parse(raw)
        if w is None:
            continue
        firsts.append(c if c is not None else w)
        keys += [c if c is not None else kw for _, kw, c in lat]
    if not firsts:
        return None, None
    return median(firsts), (max(keys) if keys else None)


def tier_of(key):
    return key.split("-", 1)[1]


def shape_of(key):
    return key.split("-", 1)[0]


def ordered(entries):
    return sorted(entries, key=lambda k: (SHAPES.index(shape_of(k)),
                                          TIER_ORDER.index(tier_of(k))))


def anchors():
    """Anchor ids present in notes.md (<a id="..."></a>)."""
    try:
        text = open(os.path.join(HERE, "notes.md")).read()
    except OSError:
        return set()
    return set(re.findall(r'<a id="([^"]+)"></a>', text))


class Row:
    def __init__(self, target, shape, tier, measured, ratio, met, miss):
        self.target, self.shape, self.tier = target, shape, tier
        self.measured, self.ratio, self.met, self.miss = (
            measured, ratio, met, miss)


def targets21(E):
    """The rows of issue 21's targets, from the entries E (key -> res)."""
    rows = []

    def add(*a):
        rows.append(Row(*a))

    def R(sh, t):
        return E.get(rkey(sh, t))

    for sh in SHAPES:
        r = R(sh, "1M")
        if r and "floor" in r:
            p, f = r["import"], r["floor"]
            x = p.cpu / f.cpu
            add("import <= %.1fx `sqlite3 .import`" % T_FLOOR[sh], sh, "1M",
                "%.2f s vs %.2f s CPU" % (p.cpu, f.cpu), "%.2fx" % x,
                x <= T_FLOOR[sh], "miss-import-" + sh)
    for sh in SHAPES:
        # the largest file measured against the 40 MB prefix of it
        big = None
        for t in ("2G", "10M", "1M"):
            r = R(sh, t)
            if r and "import_rss40" in r:
                big = (t, r)
                break
        if big:
            t, r = big
            a, b = r["import_rss40"].rss, r["import"].rss
            # judged from a file at least 10x the 40 MB one (the 10M tier,
            # ~760 MB, or the opt-in 2 GB one); a 1M file only shows it
            judged = r["csv_bytes"] >= 10 * RSS_SMALL
            add("import RSS flat in file size (40 MB vs 2 GB file)", sh, t,
                "%.0f MB (40 MB file) vs %.0f MB (%.0f MB file%s)" % (
                    a, b, r["csv_bytes"] / 1e6, "" if t == "2G" else
                    "; the 2 GB tier is opt-in: BENCH_RSS_BIG=1"),
                "%.2fx" % (b / a), b <= T_RSS_FLAT * a if judged else None,
                "miss-rss-" + sh)
    for sh in SHAPES:
        for t in ("100k", "1M", "10M"):
            r = R(sh, t)
            if r and "peer_compare" in r:
                c, x = r["compare"], r["peer_compare"]
                s = x.cpu / c.cpu
                add("compare >= %.0fx faster than pandas + scipy" % T_CMP_X,
                    sh, t, "%.2f s vs %.2f s CPU" % (c.cpu, x.cpu),
                    "%.1fx" % s, s >= T_CMP_X, "miss-compare-peer")
    for sh in SHAPES:
        r = R(sh, "1M")
        if not r or "compare" not in r:
            continue
        c, fl = r["compare"], r.get("floor_compare", M(0, 0, 0))
        add("compare < %.0f s at 1M" % T_CMP_S, sh, "1M",
            "%.2f s CPU (floor: C reader of the same query %.2f s)" % (
                c.cpu, fl.cpu), "%.2fx" % (c.cpu / T_CMP_S),
            c.cpu < T_CMP_S, "miss-compare-time")
        bpp = c.rss * 1048576.0 / SIZES["1M"]
        add("compare <= %.0f B peak RSS per pair" % T_CMP_BPP, sh, "1M",
            "%.0f MB peak for %d pairs: %.0f B/pair (floor reader %.0f MB)"
            % (c.rss, SIZES["1M"], bpp, fl.rss), "%.1fx" % (bpp / T_CMP_BPP),
            bpp <= T_CMP_BPP, "miss-compare-rss")
        for k, what in (("cmp_metric", "--metric time"),
                        ("cmp_op", "--op '%s'" % OP_GLOB)):
            if k not in r:
                continue
            share_p = r[k + "_pairs"] / max(r["pairs"], 1)
            share_c = r[k].cpu / c.cpu
            x = share_c / max(share_p, 1e-9)
            add("`%s` costs in proportion (CPU share <= %.1fx pair share)"
                % (what, T_SEL), sh, "1M",
                "%.0f%% of the pairs, %.0f%% of the CPU (%.2f s)" % (
                    100 * share_p, 100 * share_c, r[k].cpu), "%.2fx" % x,
                x <= T_SEL, "miss-selection")
        if "cmp_grp" in r:
            x = r["cmp_grp"].cpu / c.cpu
            add("`compare --group-by op` <= %.1fx compare" % T_GRP, sh, "1M",
                "%.2f s vs %.2f s CPU" % (r["cmp_grp"].cpu, c.cpu),
                "%.2fx" % x, x <= T_GRP, "miss-group-by")
        if "report" in r:
            d = r["report"].cpu - c.cpu
            add("`report --format html` <= compare + %.1f s" % T_REPORT_ADD,
                sh, "1M", "%.2f s vs %.2f s CPU" % (r["report"].cpu, c.cpu),
                "+%.2f s" % d, d <= T_REPORT_ADD, "miss-report")
        if "index" in r:
            x = r["index"].cpu / c.cpu
            add("`index` (first TUI open) <= %.0fx compare" % T_INDEX, sh,
                "1M", "%.2f s vs %.2f s CPU" % (r["index"].cpu, c.cpu),
                "%.2fx" % x, x <= T_INDEX, "miss-index")
        first, _ = tui_first(r)
        if first is not None:
            add("TUI open from the cache < %.0f ms" % T_TUI_CACHED, sh, "1M",
                "%.0f ms CPU to the first screen (median of %d)" % (
                    first, len(r["tui"])), "%.2fx" % (first / T_TUI_CACHED),
                first < T_TUI_CACHED, "miss-tui-open")
    for sh in SHAPES:
        r = R(sh, "10M")
        if not r:
            continue
        for k, what in (("import", "import"), ("import2", "2nd import"),
                        ("compare", "compare"), ("index", "index")):
            if k in r:
                add("10M results per source: %s completes" % what, sh, "10M",
                    "%.1f s CPU (%.0f s wall), %.0f MB peak RSS" % (
                        r[k].cpu, r[k].wall, r[k].rss), "-", True, "")
    return rows


PROF_OF = {"import": "import", "rss": "import", "compare": "compare",
           "selection": "compare", "group": "compare --group-by op",
           "report": "report html", "index": "index"}


def prof_anchor(E, w):
    """The anchor of this run's perf profile behind a missed row."""
    r = E.get(rkey(w.shape, w.tier), {})
    name = PROF_OF.get(w.miss.split("-")[1], "")
    if name not in r.get("prof", {}):
        return None
    return "prof-%s-%s" % (rkey(w.shape, w.tier), name.split()[0] + (
        "-group-by" if "group" in name else ""))


def targets9(E):
    """Issue 9's targets, kept for the record."""
    rows = []
    r = E.get(rkey("kernel", "1M"))
    if r and "pandas" in r:
        x = r["pandas"].cpu / r["import"].cpu
        rows.append(("import >= %.0fx faster than pandas read_csv + to_sql "
                     "(kernel, 1M)" % T_PANDAS, "%.1fx CPU" % x,
                     x >= T_PANDAS))
    if r and "report" in r:
        m = r["report"]
        rows.append(("report html < %.0f s and < %.0f MB (kernel, 1M)" % (
            T_REPORT_S, T_REPORT_MB), "%.2f s CPU, %.2f MB" % (
                m.cpu, mb(r["report_html_bytes"])),
            m.cpu < T_REPORT_S and mb(r["report_html_bytes"]) < T_REPORT_MB))
    for sh in SHAPES:
        r = E.get(rkey(sh, "1M"))
        if r:
            _, mx = tui_first(r)
            if mx is not None:
                rows.append(("TUI every keystroke < %.0f ms (%s, 1M)" % (
                    T_TUI_KEY, sh), "max %.1f ms CPU" % mx, mx < T_TUI_KEY))
    for sh in SHAPES:
        r = E.get(rkey(sh, "10M"))
        if r:
            pk = max(r[k].rss for k in ("import", "import2", "compare")
                     if k in r)
            rows.append(("peak RSS < %.0f MB at 10M: import, compare (%s)" % (
                T_RSS_MB, sh), "%.0f MB" % pk, pk < T_RSS_MB))
    return rows


def markdown(results):
    entries = results["entries"]
    E = {k: e["res"] for k, e in entries.items()}
    keys = ordered(entries)
    L = []
    a = L.append
    a("# Benchmarks")
    a("")
    a("Written by `make bench` (tests/bench/run.sh -> bench.py; "
      "`bench.py --render` re-renders tests/bench/results/last-run.json); "
      "do not edit by hand: explanations go in tests/bench/notes.md, "
      "appended below. Synthetic studies from tests/bench/gen.py: "
      "workloads x ops x 4 metrics, a perfsim model and a silicon source "
      "(lognormal values, noise, 1% outliers, 5% noisy references). Two "
      "shapes: *kernel* (N/200 workloads x 50 ops, rows grouped by workload "
      "as profilers write them) and *sweep* (a parameter grid: N/8 distinct "
      "workload keys, 2 ops x 4 metrics each from 50 ops, the key changing "
      "on almost every row). A tier of N means N results per source: N "
      "pairs.")
    a("")
    a("- Machine: %s" % results.get("machine", machine()))
    a("- CPU = user + sys seconds of the process (`/usr/bin/time`); RSS = its "
      "peak. This 2-core machine is shared with other jobs (load average "
      "per run below), so every target is judged on CPU time, and a ratio "
      "is always between two commands measured in the same run, "
      "interleaved: medians of the repetitions listed per run below (import "
      "and compare with their floors and peers; the derived commands "
      "in brackets), one run at 10M. Wall times are in the detail tables "
      "and carry the load's noise.")
    a("- Floors measured in the same run: `sqlite3 .import` of the same CSV "
      "(import), tests/bench/floor_compare.c: a minimal C program stepping "
      "compare's own query over both runs with a merge join and one "
      "running mean (compare). Peers: tests/bench/peer_compare.py "
      "(pandas + scipy computing the same summaries from the same "
      "database; the values are checked to agree), "
      "tests/bench/peer_import.py (pandas read_csv + to_sql).")
    a("")
    a("| run | date (UTC) | commit | reps (derived) | load average start "
      "-> end | harness wall s |")
    a("|---|---|---|---|---|---|")
    for k in keys:
        m = entries[k]["meta"]
        a("| %s%s | %s | %s | %d (%d) | %s -> %s | %s |" % (
            k, " (partial: %s only, did not finish)" % m["partial"]
            if m.get("partial") else "", m["date"], m["commit"], m["reps"],
            m["reps2"],
            " ".join("%.1f" % x for x in m["load_start"]),
            " ".join("%.1f" % x for x in m["load_end"]),
            "%.0f" % m["wall"] if m["wall"] else "-"))
    a("")
    a("## Targets (issue 21)")
    a("")
    a("One row per target and shape (and tier where the issue names tiers). "
      "Ratio: measured / target bound (for `>=` targets: the speedup; for "
      "a selection: its share of compare's CPU over its share of the "
      "pairs). Every **no** links to the paragraph of tests/bench/notes.md "
      "(below) with the profile that explains it and the floor measured "
      "on this machine.")
    a("")
    a("| target | shape | tier | measured | ratio | met | why not |")
    a("|---|---|---|---|---|---|---|")
    have = anchors()
    missing = []
    for w in targets21(E):
        why = ""
        if w.met is None:
            why = "not judged: no file of 10x the 40 MB was imported"
        elif not w.met:
            if w.miss in have:
                why = "[profile, floor](#%s)" % w.miss
                pa = prof_anchor(E, w)
                if pa:
                    why += ", [perf](#%s)" % pa
            else:
                why = "**no paragraph (%s)**" % w.miss
                missing.append(w.miss)
        a("| %s | %s | %s | %s | %s | %s | %s |" % (
            w.target, w.shape, w.tier, w.measured, w.ratio,
            "-" if w.met is None else yes(w.met), why))
    for sh in SHAPES:
        for t in ("100k", "1M", "10M"):
            if rkey(sh, t) not in E:
                a("| (not measured in the saved run) | %s | %s | | | | |" %
                  (sh, t))
    if missing:
        log("bench: a missed target has no paragraph in notes.md: %s" %
            " ".join(sorted(set(missing))))
    t9 = targets9(E)
    if t9:
        a("")
        a("Earlier targets (issue 9), same runs:")
        a("")
        a("| target | measured | met |")
        a("|---|---|---|")
        for name, fig, ok in t9:
            a("| %s | %s | %s |" % (name, fig, yes(ok)))
    main_keys = [k for k in keys if tier_of(k) != "2G"]
    a("")
    a("## Import: perfcorr vs the floor (`sqlite3 .import`) and the peer "
      "(pandas read_csv + to_sql)")
    a("")
    a("perfcorr parses, normalises units to SI, canonicalises workload keys, "
      "dedups (UNIQUE per run), keeps the workload and op dictionaries, "
      "hashes the file (re-import detection) and commits one transaction; "
      "the floor loads the same CSV as text into a bare table; the peer "
      "loads it with pandas into a table without indexes (not run at 10M). "
      "RSS 40 MB: the import of the first 40 MB of the same file, same run.")
    a("")
    a("| run | perfcorr CPU s | wall s | RSS MB | RSS MB, 40 MB prefix | "
      "sqlite3 .import CPU s | ratio CPU | pandas CPU s | speedup CPU | "
      "2nd source import CPU s | RSS MB |")
    a("|---|---|---|---|---|---|---|---|---|---|---|")
    for k in main_keys:
        r = E[k]
        p, f = r["import"], r.get("floor")
        a("| %s | %.2f | %.1f | %.0f | %s | %s | %s | %s | %s | %.2f | "
          "%.0f |" % (
              k, p.cpu, p.wall, p.rss, "%.0f" % r["import_rss40"].rss
              if "import_rss40" in r else "-",
              "%.2f" % f.cpu if f else "-",
              "%.2fx" % (p.cpu / f.cpu) if f else "-",
              "%.2f" % r["pandas"].cpu if "pandas" in r else "-",
              "%.1fx" % (r["pandas"].cpu / p.cpu) if "pandas" in r else "-",
              r["import2"].cpu, r["import2"].rss))
    big = [k for k in keys if tier_of(k) == "2G"]
    if big:
        a("")
        a("Opt-in RSS tier (BENCH_RSS_BIG=1): one import of a ~2 GB model "
          "CSV and of its first 40 MB.")
        a("")
        a("| run | file MB | CPU s | RSS MB | RSS MB, 40 MB prefix |")
        a("|---|---|---|---|---|")
        for k in big:
            r = E[k]
            a("| %s | %.0f | %.1f | %.0f | %.0f |" % (
                k, r["csv_bytes"] / 1e6, r["import"].cpu, r["import"].rss,
                r["import_rss40"].rss))
    a("")
    a("## Database size on disk")
    a("")
    a("| run | CSV bytes/row | perfcorr bytes/result (one source) | "
      "bytes/result (two sources) | sqlite3 .import bytes/row |")
    a("|---|---|---|---|---|")
    for k in main_keys:
        r = E[k]
        n = SIZES[tier_of(k)]
        a("| %s | %.1f | %.1f | %.1f | %s |" % (
            k, r["csv_bytes"] / n, r["import_db_bytes"] / n,
            r["study_db_bytes"] / (2 * n), "%.1f" % (
                r["floor_db_bytes"] / n) if "floor_db_bytes" in r else "-"))
    a("")
    a("## compare vs its floor and pandas + scipy")
    a("")
    a("`perfcorr compare -f json` (pairing, noise exclusion, every "
      "statistic of docs/statistics.md with the workload-bootstrap "
      "intervals) against the floor (floor_compare.c: the same query, "
      "pairs counted, one mean) and tests/bench/peer_compare.py (the same "
      "summaries, over all pairs and per metric, without intervals). "
      "Values agree: the largest relative difference over MAPE, bias, "
      "median, p95 and max |error|, geomean ratio, RMSE, Pearson (and "
      "log), Spearman, Kendall tau-b and the limits of agreement of every "
      "summary, and whether n and the outlier counts are equal. Bytes/pair: "
      "peak RSS over the N pairs read.")
    a("")
    a("| run | pairs used | perfcorr CPU s | wall s | RSS MB | B/pair | "
      "floor CPU s | x floor | pandas+scipy CPU s | speedup CPU | "
      "values agree |")
    a("|---|---|---|---|---|---|---|---|---|---|---|")
    for k in main_keys:
        r = E[k]
        if "compare" not in r:
            continue
        c, fl = r["compare"], r.get("floor_compare")
        n = SIZES[tier_of(k)]
        row = "| %s | %d | %.2f | %.1f | %.0f | %.0f | %s | %s |" % (
            k, r["pairs"], c.cpu, c.wall, c.rss, c.rss * 1048576.0 / n,
            "%.2f" % fl.cpu if fl else "-",
            "%.1fx" % (c.cpu / max(fl.cpu, 1e-9)) if fl else "-")
        if "peer_compare" in r:
            x = r["peer_compare"]
            worst, same = r["peer_agree"][:2]
            row += " %.2f | %.1fx | max rel. diff %.1e; n, outliers %s |" % (
                x.cpu, x.cpu / c.cpu, worst, "equal" if same else "DIFFER")
        else:
            row += " - | - | - |"
        a(row)
    der = [k for k in main_keys if "index" in E[k]]
    if der:
        a("")
        a("## Derived commands: selections, group-by, report, index, TUI")
        a("")
        a("CPU seconds (medians), measured interleaved with compare in the "
          "same run; `index` runs after `index --clear` (the first TUI "
          "open's work), the TUI then opens from that cache (headless, a "
          "script of %d keys; CPU ms of the first screen, max over the "
          "keys)." % 62)
        a("")
        a("| run | compare | --metric time (pairs) | --op '%s' (pairs) | "
          "--group-by op | report html (MB) | index (RSS MB) | "
          "TUI cached open ms | TUI key max ms |" % OP_GLOB)
        a("|---|---|---|---|---|---|---|---|---|")
        for k in der:
            r = E[k]
            first, mx = tui_first(r)

            def cell(name, extra=""):
                return ("%.2f%s" % (r[name].cpu, extra)) if name in r else "-"
            a("| %s | %.2f | %s | %s | %s | %s | %s | %s | %s |" % (
                k, r["compare"].cpu,
                cell("cmp_metric", " (%d)" % r.get("cmp_metric_pairs", 0)),
                cell("cmp_op", " (%d)" % r.get("cmp_op_pairs", 0)),
                cell("cmp_grp"),
                cell("report", " (%.2f)" % mb(r.get("report_html_bytes", 0))),
                cell("index", " (%.0f)" % r["index"].rss),
                "-" if first is None else "%.1f" % first,
                "-" if mx is None else "%.1f" % mx))
    prof = [k for k in main_keys if E[k].get("prof")]
    if prof:
        a("")
        a("## Profiles (perf, same run)")
        a("")
        a("`perf record -F 499` of one more run of each command right "
          "after the timed ones (BENCH_PROFILE=1): share of the samples "
          "by library, then the top symbols. These are the profiles the "
          "paragraphs on missed targets (notes, below) refer to.")
        for k in prof:
            for name, pr in E[k]["prof"].items():
                a("")
                a('<a id="prof-%s-%s"></a>' % (k, name.split()[0] + (
                    "-group-by" if "group" in name else "")))
                a("**%s, %s**: %s." % (k, name, ", ".join(
                    "%s %.0f%%" % (short_dso(d), x) for x, d in pr["dso"])))
                a("Top symbols: %s." % "; ".join(
                    "`%s` %.1f%%" % (sym, x) for x, sym in pr["sym"]))
    a("")
    a("## Scaling")
    a("")
    a("Growth of CPU time between consecutive tiers of a shape against the "
      "n log n ratio (10% slack for noise).")
    a("")
    a("| run | import growth | compare growth | index growth |")
    a("|---|---|---|---|")
    for sh in SHAPES:
        prev = None
        for t in ("10k", "100k", "1M", "10M"):
            k = rkey(sh, t)
            if k not in E:
                continue
            if prev:
                pt, pr = prev
                lim = nlogn(SIZES[t]) / nlogn(SIZES[pt])
                cells = []
                for m in ("import", "compare", "index"):
                    if m in E[k] and m in pr and pr[m].cpu >= 0.1:
                        x = E[k][m].cpu / pr[m].cpu
                        cells.append("%.1fx (n log n %.1fx) %s" % (
                            x, lim, "ok" if x <= 1.1 * lim else "WORSE"))
                    else:
                        cells.append("-")
                a("| %s -> %s | %s |" % (rkey(sh, pt), t, " | ".join(cells)))
            prev = (t, E[k])
    a("")
    # measured by hand on a private cluster (tests/bench/pg_*.sh): kept
    # in tests/bench/postgresql.md, rendered here as they are
    pg = os.path.join(HERE, "postgresql.md")
    if os.path.exists(pg):
        a(open(pg).read().rstrip())
        a("")
    notes = os.path.join(HERE, "notes.md")
    if os.path.exists(notes):
        a(open(notes).read().rstrip())
        a("")
    return "\n".join(L) + "\n"


def nlogn(n):
    return n * math.log(n)


def main():
    if len(sys.argv) in (2, 3) and sys.argv[1] == "--render":
        results = load_results(sys.argv[2] if len(sys.argv) == 3
                               else results_path())
        if not results["entries"]:
            raise SystemExit("bench: no saved runs in %s" % results["path"])
    elif len(sys.argv) >= 3 and sys.argv[1] == "--merge":
        # entries of runs made apart (e.g. 10M in one, 100k and 1M in
        # another) into BENCH_RESULTS: later files win per shape and tier
        results = load_results(results_path())
        for path in sys.argv[2:]:
            other = load_results(path)
            if not other["entries"]:
                raise SystemExit("bench: no saved runs in %s" % path)
            results["entries"].update(other["entries"])
        save(results)
    elif len(sys.argv) == 2 and not sys.argv[1].startswith("-"):
        results = load_results(results_path())
        b = Bench(sys.argv[1])
        b.go(results)
    else:
        raise SystemExit("usage: bench.py PERFCORR | bench.py --render "
                         "[RESULTS.json] | bench.py --merge RESULTS.json...")
    md = markdown(results)
    out = os.environ.get("BENCH_OUT", os.path.join(ROOT, "docs",
                                                   "benchmarks.md"))
    if out == "-":
        sys.stdout.write(md)
    else:
        with open(out, "w") as f:
            f.write(md)
        log("bench: wrote %s" % out)


if __name__ == "__main__":
    main()
