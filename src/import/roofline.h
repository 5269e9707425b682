#ifndef PC_SRC_ROOFLINE_H
#define PC_SRC_ROOFLINE_H
/*
 * The built-in roofline calculator: a hardware spec (JSON: platform,
 * peak FLOP/s per precision, memory bandwidth, optional clock and fixed
 * overhead) and a list of ops (CSV: FLOPs and bytes, or GEMM m,n,k) give
 * per op time = max(FLOPs / peak(precision), bytes / bandwidth) +
 * overhead, the limiter and the arithmetic intensity. roofline_store()
 * writes them as one roofline run through the db writer, versioned by
 * the spec's hash. Never prints.
 */
#include <stdint.h>

struct db;

enum roofline_prec { RL_FP32, RL_TF32, RL_BF16, RL_FP16, RL_FP8, RL_INT8,
		     RL_N_PREC };

struct roofline_hw {
	char *platform;
	double peak[RL_N_PREC];	/* FLOP/s; NaN = the part has none */
	double bandwidth;	/* B/s */
	double clock_hz;	/* NaN = not given */
	double overhead_s;	/* fixed per-op time, 0 by default */
	char sha256[65];	/* of the spec file's bytes */
};

struct roofline_op {
	char *workload;		/* key text, or NULL = the run's */
	char *name;		/* op */
	enum roofline_prec prec;
	double m, n, k;		/* NaN unless a GEMM row */
	double flops, bytes;
	long line;
};

struct roofline_result {
	double compute_s, memory_s, time_s;
	double intensity;	/* FLOP per byte */
	int compute_bound;	/* 1 compute, 0 memory (the limiter) */
};

/* Parse a precision name ("bf16"); -1 when unknown. */
int roofline_prec_parse(const char *s);
const char *roofline_prec_name(enum roofline_prec p);
/* Bytes per element of a precision (for GEMM byte counts). */
int roofline_prec_bytes(enum roofline_prec p);

/* Load a spec; errors name the file and the key. Free with
 * roofline_hw_release. */
int roofline_hw_load(struct roofline_hw *hw, const char *path);
void roofline_hw_release(struct roofline_hw *hw);

/* Read the ops CSV: columns op, precision (or default_prec), and flops
 * + bytes or m, n, k (GEMM: 2mnk FLOPs, (mk + kn + mn) elements moved);
 * optional workload. Errors are "path:line: column 'x': ...". */
int roofline_ops_load(struct roofline_op **out, long *n, const char *path,
		      const char *default_prec);
void roofline_ops_free(struct roofline_op *ops, long n);

/* One op's roofline on hw: PC_EINVALID when hw has no peak for the op's
 * precision (message names the op's line). */
int roofline_eval(const struct roofline_hw *hw, const struct roofline_op *op,
		  const char *ops_path, struct roofline_result *out);

struct roofline_store_opts {
	const char *source;	/* default "roofline" */
	const char *workload;	/* key for rows without one */
	const char *platform;	/* overrides the spec's */
	const char *hw_path, *ops_path;
	int replace;
	const char *precision;	/* --precision (recorded for perfcorr bundle) */
	double cost;		/* what computing it cost (import_cost_parse) */
	const char *cost_unit;	/* NULL: not given */
};

/* Evaluate every op and store one run (version = first 12 hex digits of
 * the spec's sha256; the run's bytes are the spec's plus the ops').
 * PC_EEXISTS when that pair is already stored. *run_id on success. */
int roofline_store(struct db *db, const struct roofline_hw *hw,
		   const struct roofline_op *ops, long n,
		   const struct roofline_store_opts *o, int64_t *run_id,
		   long *results);

#endif
