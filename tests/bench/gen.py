#!/usr/bin/env python3
"""Synthetic but realistic correlation studies for the benchmarks.

A study is workloads x ops x metrics for a model source (a perfsim-like
tool) and a silicon source (repeated measurements with n/stddev/min/max).
Values are lognormal per (op class, metric); the model tracks silicon with
a small bias and noise, about 1% gross outliers, and about 5% of the
silicon results are noisy (CV 0.4). Rows are grouped by workload, as the
tools write them.

Two shapes (--shape):
  kernel  few workloads (N/200 at N >= 100k), 50 ops x 4 metrics each,
          rows grouped by workload (a profiler's per-kernel dump).
  sweep   a parameter grid (model x phase x batch x seq x tp x precision,
          then /rev=R): N/8 distinct workload keys, each with 2 ops x 4
          metrics drawn from a vocabulary of 50 ops; the rows of 128 keys
          at a time are shuffled, so the workload key changes on almost
          every row (and a key comes back a few rows later), as a sweep
          driver that writes results as they finish does.

usage: gen.py N OUTDIR [--shape kernel|sweep] [--nsys-workloads K] [--seed S]
writes OUTDIR/model.csv and OUTDIR/silicon.csv (perfcorr-csv, N rows
each: N pairs) and, for the kernel shape,
OUTDIR/nsys/<workload>_cuda_gpu_kern_sum.csv for the first K workloads
(default 20). Python 3 standard library only.
"""
import argparse
import math
import os
import random

MODELS = ["llama3-8b", "llama3-70b", "llama3-405b", "mistral-7b",
          "mixtral-8x7b", "mixtral-8x22b", "qwen2-7b", "qwen2-72b",
          "gemma2-9b", "gemma2-27b", "phi3-mini", "phi3-medium",
          "falcon-40b", "falcon-180b", "gpt-j-6b", "gpt-neox-20b",
          "opt-13b", "opt-66b", "bloom-176b", "mpt-30b", "dbrx-132b",
          "deepseek-v2", "deepseek-67b", "yi-34b", "command-r",
          "grok-1", "jamba-52b", "olmo-7b", "starcoder2-15b", "t5-11b"]
PHASES = ["prefill", "decode"]
BATCH = [1, 2, 4, 8, 16, 32, 64, 128, 256]
SEQ = [128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768]
TP = [1, 2, 4, 8]
PREC = ["bf16", "fp8", "fp16"]

# op name -> (class, log-mean of its time in seconds, nsys kernel name)
OP_KINDS = [
    ("qkv_gemm", -10.5, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"),
    ("attn", -10.0, "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64, 4, false, false, cutlass::bfloat16_t>, false, false>(Flash_fwd_params)"),
    ("out_proj", -11.0, "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn"),
    ("mlp_up", -10.2, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_cublas"),
    ("mlp_down", -10.4, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x256x64_cublas"),
    ("rmsnorm", -13.0, "void rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, const c10::BFloat16*, const c10::BFloat16*, float, int, int)"),
    ("rope", -13.5, "void rotary_embedding_kernel<c10::BFloat16, true>(const long*, c10::BFloat16*, c10::BFloat16*, const c10::BFloat16*, int, long, long, int, int, int)"),
    ("allreduce", -11.5, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"),
    ("softmax", -13.2, "void softmax_warp_forward<c10::BFloat16, c10::BFloat16, float, 10, false, false>(c10::BFloat16*, const c10::BFloat16*, int, int, int, const bool*, int, bool)"),
    ("silu_mul", -13.4, "void act_and_mul_kernel<c10::BFloat16, &silu_kernel>(c10::BFloat16*, const c10::BFloat16*, int)"),
]

# metric, unit written by the model, unit written by silicon, scale of
# the value relative to the op's time in seconds (log offset)
METRICS = [
    ("time", "us", "ns", 0.0),
    ("energy", "uJ", "mJ", math.log(400.0)),      # ~400 W
    ("bytes", "B", "MB", math.log(2.0e12)),      # ~2 TB/s
    ("flops", "FLOP", "GFLOP", math.log(4.0e14)),  # ~400 TFLOP/s
]
UNIT_SCALE = {"s": 1.0, "us": 1e-6, "ns": 1e-9, "uJ": 1e-6, "mJ": 1e-3,
              "J": 1.0, "B": 1.0, "MB": 1e6, "FLOP": 1.0, "GFLOP": 1e9}


def workload_key(i):
    """The i-th workload key (mixed radix over the parameter space)."""
    parts = []
    for vals in (MODELS, PHASES, BATCH, SEQ, TP, PREC):
        parts.append(vals[i % len(vals)])
        i //= len(vals)
    m, ph, bs, seq, tp, prec = parts
    key = "%s/%s/bs=%d/seq=%d/tp=%d/%s" % (m, ph, bs, seq, tp, prec)
    if i:
        key += "/rev=%d" % i
    return key


def op_list(n_ops):
    """n_ops op names: layer<L>.<kind>."""
    ops = []
    layer = 0
    while len(ops) < n_ops:
        for kind in OP_KINDS:
            if len(ops) == n_ops:
                break
            ops.append(("layer%d.%s" % (layer, kind[0]), kind))
        layer += 1
    return ops


def shape(n):
    """(workloads, ops, metrics) with product n (n a multiple of 4*10)."""
    n_metrics = len(METRICS)
    n_ops = 50 if n >= 100000 else 10
    per = n_ops * n_metrics
    if n % per:
        raise SystemExit("gen.py: N must be a multiple of %d" % per)
    return n // per, n_ops, n_metrics


def fmt(v):
    return "%.6g" % v


SWEEP_OPS = 50      # op vocabulary of the sweep shape
SWEEP_PER_KEY = 2   # ops per sweep key (x 4 metrics = 8 results per key)
SWEEP_WINDOW = 128  # keys whose rows are shuffled together


def rows_of(rnd, key, wscale, kops, nsys):
    """The model and silicon rows of one workload key over kops."""
    gauss = rnd.gauss
    rand = rnd.random
    mrows, srows = [], []
    for op, kind in kops:
        t_log = kind[1] + wscale + gauss(0.0, 0.3)
        for metric, munit, sunit, off in METRICS:
            true = math.exp(t_log + off + gauss(0.0, 0.1))
            cv = 0.4 if rand() < 0.05 else abs(gauss(0.02, 0.01))
            reps = 5 + int(rand() * 16)
            sil = true * math.exp(gauss(0.0, cv / 3))
            model = true * math.exp(gauss(-0.03, 0.12))
            if rand() < 0.01:
                model *= math.exp(gauss(0.0, 1.5))
            ms, ss = UNIT_SCALE[munit], UNIT_SCALE[sunit]
            sd = sil * cv
            mrows.append("%s,%s,%s,%s,%s\n" % (
                key, op, metric, fmt(model / ms), munit))
            srows.append("%s,%s,%s,%s,%s,%d,%s,%s,%s\n" % (
                key, op, metric, fmt(sil / ss), sunit, reps,
                fmt(sd / ss), fmt(max(sil - 2 * sd, 0) / ss),
                fmt((sil + 2 * sd) / ss)))
            if metric == "time" and nsys is not None:
                nsys.append((sil * 1e9, reps, sd * 1e9, kind[2]))
    return mrows, srows


def generate(n, outdir, nsys_workloads, seed, shape_name="kernel"):
    rnd = random.Random(seed)
    os.makedirs(os.path.join(outdir, "nsys"), exist_ok=True)
    mpath = os.path.join(outdir, "model.csv")
    spath = os.path.join(outdir, "silicon.csv")
    with open(mpath + ".tmp", "w") as mf, open(spath + ".tmp", "w") as sf:
        mf.write("workload,op,metric,value,unit\n")
        sf.write("workload,op,metric,value,unit,n,stddev,min,max\n")
        if shape_name == "sweep":
            per = SWEEP_PER_KEY * len(METRICS)
            if n % per:
                raise SystemExit("gen.py: N must be a multiple of %d" % per)
            vocab = op_list(SWEEP_OPS)
            n_keys = n // per
            for w0 in range(0, n_keys, SWEEP_WINDOW):
                pairs = []
                for w in range(w0, min(w0 + SWEEP_WINDOW, n_keys)):
                    j = (w * SWEEP_PER_KEY) % SWEEP_OPS
                    kops = vocab[j:j + SWEEP_PER_KEY]
                    m, s = rows_of(rnd, workload_key(w), rnd.gauss(0.0, 0.7),
                                   kops, None)
                    pairs.extend(zip(m, s))
                rnd.shuffle(pairs)
                mf.write("".join(p[0] for p in pairs))
                sf.write("".join(p[1] for p in pairs))
        else:
            n_wl, n_ops, _ = shape(n)
            ops = op_list(n_ops)
            for w in range(n_wl):
                key = workload_key(w)
                nsys = [] if w < nsys_workloads else None
                m, s = rows_of(rnd, key, rnd.gauss(0.0, 0.7), ops, nsys)
                mf.write("".join(m))
                sf.write("".join(s))
                if nsys:
                    write_nsys(outdir, key, nsys)
    os.replace(mpath + ".tmp", mpath)
    os.replace(spath + ".tmp", spath)


def write_nsys(outdir, key, rows):
    """One nsys cuda_gpu_kern_sum CSV per workload: kernels merged by
    name as nsys does, sorted by total time descending."""
    agg = {}
    for avg, reps, sd, name in rows:
        a = agg.setdefault(name, [0.0, 0, avg, avg, sd])
        a[0] += avg * reps
        a[1] += reps
        a[2] = min(a[2], avg - sd)
        a[3] = max(a[3], avg + sd)
    total = sum(a[0] for a in agg.values()) or 1.0
    path = os.path.join(outdir, "nsys",
                        key.replace("/", "_") + "_cuda_gpu_kern_sum.csv")
    with open(path, "w") as f:
        f.write("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),"
                "Min (ns),Max (ns),StdDev (ns),Name\n")
        for name, a in sorted(agg.items(), key=lambda kv: -kv[1][0]):
            avg = a[0] / a[1]
            q = '"%s"' % name.replace('"', '""') if "," in name else name
            f.write("%.1f,%d,%d,%.1f,%.1f,%d,%d,%.1f,%s\n" % (
                100.0 * a[0] / total, round(a[0]), a[1], avg, avg,
                round(max(a[2], 0)), round(a[3]), a[4], q))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", type=int, help="results per source (pairs)")
    ap.add_argument("outdir")
    ap.add_argument("--nsys-workloads", type=int, default=20)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--shape", choices=("kernel", "sweep"), default="kernel")
    a = ap.parse_args()
    generate(a.n, a.outdir, a.nsys_workloads, a.seed, a.shape)


if __name__ == "__main__":
    main()
