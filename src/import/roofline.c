/* The built-in roofline calculator (see roofline.h). */
#include "src/import/roofline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/writer.h"
#include "db/wkey.h"
#include "base/csv.h"
#include "base/jsonutil.h"
#include "base/error.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/util.h"

static const struct {
	const char *name;
	int bytes;
} precs[RL_N_PREC] = {
	[RL_FP32] = { "fp32", 4 }, [RL_TF32] = { "tf32", 4 },
	[RL_BF16] = { "bf16", 2 }, [RL_FP16] = { "fp16", 2 },
	[RL_FP8] = { "fp8", 1 }, [RL_INT8] = { "int8", 1 },
};

int roofline_prec_parse(const char *s)
{
	for (int i = 0; i < RL_N_PREC; i++)
		if (!strcmp(precs[i].name, s))
			return i;
	return -1;
}

const char *roofline_prec_name(enum roofline_prec p)
{
	return precs[p].name;
}

int roofline_prec_bytes(enum roofline_prec p)
{
	return precs[p].bytes;
}

static int hash_file(const char *path, char hex[65])
{
	FILE *fp = fopen(path, "rb");
	struct sha256 s;
	char buf[65536];
	size_t n;

	if (!fp)
		return pc_error_set(PC_EIO, "cannot open '%s': %s", path,
				    strerror(errno));
	sha256_init(&s);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sha256_update(&s, buf, n);
	fclose(fp);
	sha256_final_hex(&s, hex);
	return 0;
}

/* A positive number member; absent is 1 (and *out untouched). */
static int positive(const cJSON *o, const char *key, double *out,
		    const char *path, int required)
{
	int rc = jsonutil_number(o, key, out, path);

	if (rc < 0)
		return rc;
	if (rc == 1 && required)
		return pc_error_set(PC_EINVALID, "%s: '%s' is missing", path,
				    key);
	if (rc == 0 && !(*out > 0) && strcmp(key, "overhead_s"))
		return pc_error_set(PC_EINVALID, "%s: '%s' must be a positive "
				    "number", path, key);
	if (rc == 0 && *out < 0)
		return pc_error_set(PC_EINVALID, "%s: '%s' must not be "
				    "negative", path, key);
	return rc;
}

static int load_peaks(struct roofline_hw *hw, const cJSON *doc,
		      const char *path)
{
	const cJSON *pk = cJSON_GetObjectItemCaseSensitive(doc, "peak_flops");
	const cJSON *it;
	int any = 0;

	if (!cJSON_IsObject(pk))
		return pc_error_set(PC_EINVALID, "%s: 'peak_flops' must be an "
				    "object of FLOP/s per precision", path);
	cJSON_ArrayForEach(it, pk) {
		int p = roofline_prec_parse(it->string);

		if (p < 0)
			return pc_error_set(PC_EINVALID, "%s: peak_flops: "
				"unknown precision '%s' (fp32, tf32, bf16, "
				"fp16, fp8, int8)", path, it->string);
		if (!cJSON_IsNumber(it) || !(it->valuedouble > 0))
			return pc_error_set(PC_EINVALID, "%s: peak_flops.%s must "
					    "be a positive number", path,
					    it->string);
		hw->peak[p] = it->valuedouble;
		any = 1;
	}
	return any ? 0 : pc_error_set(PC_EINVALID, "%s: 'peak_flops' is "
				      "empty", path);
}

int roofline_hw_load(struct roofline_hw *hw, const char *path)
{
	FILE *fp;
	cJSON *doc = NULL;
	const cJSON *plat;
	double mhz = NAN;
	int rc;

	memset(hw, 0, sizeof(*hw));
	for (int i = 0; i < RL_N_PREC; i++)
		hw->peak[i] = NAN;
	hw->clock_hz = NAN;
	if ((rc = hash_file(path, hw->sha256)) < 0)
		return rc;
	if (!(fp = fopen(path, "rb")))
		return pc_error_set(PC_EIO, "cannot open '%s'", path);
	rc = jsonutil_parse_file(&doc, fp, path, 1u << 20);
	fclose(fp);
	if (rc < 0)
		return rc;
	plat = cJSON_GetObjectItemCaseSensitive(doc, "platform");
	if (!cJSON_IsObject(doc))
		rc = pc_error_set(PC_EINVALID, "%s: expected a JSON object",
				  path);
	else if (!cJSON_IsString(plat) || !*plat->valuestring)
		rc = pc_error_set(PC_EINVALID, "%s: 'platform' must be a "
				  "non-empty string", path);
	if (!rc)
		hw->platform = xstrdup(plat->valuestring);
	if (!rc)
		rc = load_peaks(hw, doc, path);
	if (!rc)
		rc = positive(doc, "memory_bandwidth", &hw->bandwidth, path, 1);
	if (rc >= 0 && (rc = positive(doc, "clock_mhz", &mhz, path, 0)) == 0)
		hw->clock_hz = mhz * 1e6;
	if (rc >= 0)
		rc = positive(doc, "overhead_s", &hw->overhead_s, path, 0);
	cJSON_Delete(doc);
	return rc < 0 ? rc : 0;
}

void roofline_hw_release(struct roofline_hw *hw)
{
	free(hw->platform);
	hw->platform = NULL;
}

int roofline_eval(const struct roofline_hw *hw, const struct roofline_op *op,
		  const char *ops_path, struct roofline_result *out)
{
	double peak = hw->peak[op->prec];

	if (isnan(peak))
		return pc_error_set(PC_EINVALID, "%s:%ld: op '%s': the spec "
				    "for '%s' has no %s peak", ops_path,
				    op->line, op->name, hw->platform,
				    precs[op->prec].name);
	out->compute_s = op->flops / peak;
	out->memory_s = op->bytes / hw->bandwidth;
	out->compute_bound = out->compute_s >= out->memory_s;
	out->time_s = fmax(out->compute_s, out->memory_s) + hw->overhead_s;
	out->intensity = op->bytes > 0 ? op->flops / op->bytes : INFINITY;
	return 0;
}

enum ocol { O_OP, O_PREC, O_FLOPS, O_BYTES, O_M, O_N, O_K, O_WORKLOAD,
	    N_OCOLS };

static const char *const ocol_names[N_OCOLS] = { "op", "precision", "flops",
	"bytes", "m", "n", "k", "workload" };

static int ops_header(struct csv *c, int *col)
{
	for (int i = 0; i < N_OCOLS; i++)
		col[i] = csv_col(c, ocol_names[i]);
	for (size_t f = 0; f < c->nfields; f++) {
		int i;

		for (i = 0; i < N_OCOLS; i++)
			if (col[i] == (int)f)
				break;
		if (i == N_OCOLS && *util_trim(c->fields[f]))
			return pc_error_set(PC_EINVALID, "%s:%ld: unknown column "
				"'%s' (expected op, precision, flops, bytes, "
				"m, n, k, workload)", c->path, c->line,
				c->fields[f]);
	}
	if ((col[O_FLOPS] < 0) != (col[O_BYTES] < 0) ||
	    (col[O_FLOPS] < 0 && (col[O_M] < 0 || col[O_N] < 0 ||
				  col[O_K] < 0)))
		return pc_error_set(PC_EINVALID, "%s:%ld: need columns flops "
				    "and bytes, or m, n and k", c->path,
				    c->line);
	if (col[O_OP] < 0 && col[O_M] < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: missing column 'op'",
				    c->path, c->line);
	return 0;
}

static int cell_number(struct csv *c, const int *col, int i, double *out)
{
	const char *s = col[i] >= 0 ? c->fields[col[i]] : "";

	if (csv_number(s, out) < 0 || (!isnan(*out) && *out < 0))
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': '%s' is "
				    "not a non-negative number", c->path,
				    c->line, ocol_names[i], s);
	return 0;
}

static int ops_row(struct csv *c, const int *col, const char *def_prec,
		   struct roofline_op *op)
{
	const char *prec = col[O_PREC] >= 0 ? util_trim(c->fields[col[O_PREC]])
				: "";
	int p, rc;

	memset(op, 0, sizeof(*op));
	op->line = c->line;
	if (!*prec && def_prec)
		prec = def_prec;
	if ((p = roofline_prec_parse(prec)) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'precision': "
				    "'%s' is not fp32, tf32, bf16, fp16, fp8 "
				    "or int8", c->path, c->line, prec);
	op->prec = (enum roofline_prec)p;
	if ((rc = cell_number(c, col, O_FLOPS, &op->flops)) < 0 ||
	    (rc = cell_number(c, col, O_BYTES, &op->bytes)) < 0 ||
	    (rc = cell_number(c, col, O_M, &op->m)) < 0 ||
	    (rc = cell_number(c, col, O_N, &op->n)) < 0 ||
	    (rc = cell_number(c, col, O_K, &op->k)) < 0)
		return rc;
	if (isnan(op->flops) || isnan(op->bytes)) {
		double e = precs[p].bytes;

		if (isnan(op->m) || isnan(op->n) || isnan(op->k))
			return pc_error_set(PC_EINVALID, "%s:%ld: give flops "
				"and bytes, or m, n and k", c->path, c->line);
		op->flops = 2 * op->m * op->n * op->k;
		op->bytes = (op->m * op->k + op->k * op->n + op->m * op->n) * e;
	}
	op->name = xstrdup(col[O_OP] >= 0 && *util_trim(c->fields[col[O_OP]]) ?
			   c->fields[col[O_OP]] : "gemm");
	if (col[O_WORKLOAD] >= 0 && *util_trim(c->fields[col[O_WORKLOAD]]))
		op->workload = xstrdup(c->fields[col[O_WORKLOAD]]);
	return 0;
}

int roofline_ops_load(struct roofline_op **out, long *n, const char *path,
		      const char *default_prec)
{
	FILE *fp = fopen(path, "rb");
	struct roofline_op *ops = NULL;
	struct csv c;
	int col[N_OCOLS], rc, hdr = 0;
	long cnt = 0;

	if (!fp)
		return pc_error_set(PC_EIO, "cannot open '%s': %s", path,
				    strerror(errno));
	csv_init(&c, fp, path);
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c) || c.fields[0][0] == '#')
			continue;
		if (!hdr++) {
			if ((rc = ops_header(&c, col)) < 0)
				break;
			continue;
		}
		ops = xrealloc(ops, (size_t)(cnt + 1) * sizeof(*ops));
		if ((rc = ops_row(&c, col, default_prec, &ops[cnt])) < 0)
			break;
		cnt++;
	}
	if (rc == 0 && !cnt)
		rc = pc_error_set(PC_EINVALID, "%s: no ops", path);
	csv_release(&c);
	fclose(fp);
	if (rc < 0) {
		roofline_ops_free(ops, cnt);
		return rc;
	}
	*out = ops;
	*n = cnt;
	return 0;
}

void roofline_ops_free(struct roofline_op *ops, long n)
{
	for (long i = 0; i < n; i++) {
		free(ops[i].workload);
		free(ops[i].name);
	}
	free(ops);
}

/* The run's identity: the spec's bytes followed by the ops'. */
static int hash_pair(const char *a, const char *b, char hex[65],
		     long long *size_b)
{
	const char *paths[2] = { a, b };
	struct sha256 s;
	char buf[65536];
	size_t n;

	sha256_init(&s);
	for (int i = 0; i < 2; i++) {
		FILE *fp = fopen(paths[i], "rb");
		long long total = 0;

		if (!fp)
			return pc_error_set(PC_EIO, "cannot open '%s': %s",
					    paths[i], strerror(errno));
		while ((n = fread(buf, 1, sizeof(buf), fp)) > 0) {
			sha256_update(&s, buf, n);
			total += (long long)n;
		}
		fclose(fp);
		*size_b = total;
	}
	sha256_final_hex(&s, hex);
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The op's workload: --workload, its workload column, GEMM m/n/k and
 * the precision (a bf16 and an int8 GEMM are different workloads). */
static int op_wkey(struct wkey *k, const struct roofline_op *op,
		   const struct roofline_store_opts *o)
{
	static const char *const dim[] = { "m", "n", "k" };
	const double v[] = { op->m, op->n, op->k };
	char buf[32];
	int rc = 0;

	wkey_init(k);
	if (o->workload)
		rc = wkey_parse(k, o->workload);
	if (!rc && op->workload)
		rc = wkey_parse(k, op->workload);
	for (int i = 0; !rc && i < 3; i++) {
		if (isnan(v[i]))
			continue;
		snprintf(buf, sizeof(buf), "%.0f", v[i]);
		rc = wkey_set(k, dim[i], buf);
	}
	if (!rc)
		rc = wkey_set(k, "precision", precs[op->prec].name);
	if (!rc && !k->name)
		rc = wkey_set(k, "name", "gemm");
	return rc;
}

static int put(struct db_writer *w, const struct wkey *k,
	       const struct roofline_op *op, const char *metric, double v,
	       const char *unit)
{
	struct db_result_in in;

	memset(&in, 0, sizeof(in));
	in.line = op->line;
	in.workload = k;
	in.op = op->name;
	in.metric = metric;
	in.value = v;
	in.unit = unit;
	in.n = in.mean = in.median = in.min = in.max = in.stddev = NAN;
	return db_writer_put(w, &in);
}

static int store_op(struct db_writer *w, const struct roofline_hw *hw,
		    const struct roofline_op *op,
		    const struct roofline_store_opts *o)
{
	struct roofline_result r = { 0 };
	struct wkey k;
	int rc;

	if ((rc = roofline_eval(hw, op, o->ops_path, &r)) < 0)
		return rc;
	if ((rc = op_wkey(&k, op, o)) == 0 &&
	    (rc = put(w, &k, op, "time", r.time_s, "s")) == 0 &&
	    (rc = put(w, &k, op, "compute_time", r.compute_s, "s")) == 0 &&
	    (rc = put(w, &k, op, "memory_time", r.memory_s, "s")) == 0 &&
	    (rc = put(w, &k, op, "flops", op->flops, "FLOP")) == 0 &&
	    (rc = put(w, &k, op, "bytes", op->bytes, "B")) == 0 &&
	    (rc = put(w, &k, op, "limiter", r.compute_bound, "")) == 0 &&
	    isfinite(r.intensity))
		rc = put(w, &k, op, "arithmetic_intensity", r.intensity, "");
	if (rc < 0) {
		/* a repeated key of an op stored before is the first error */
		long line = op->line;

		db_writer_settle(w, &line);
		pc_error_prefix("%s:%ld", o->ops_path, line);
	}
	wkey_release(&k);
	return rc;
}

int roofline_store(struct db *db, const struct roofline_hw *hw,
		   const struct roofline_op *ops, long n,
		   const struct roofline_store_opts *o, int64_t *run_id,
		   long *results)
{
	struct db_run_info ri;
	struct db_writer *w;
	struct db_writer_summary sum;
	char hex[65], version[13];
	long long size = 0;
	int rc;

	if ((rc = hash_pair(o->hw_path, o->ops_path, hex, &size)) < 0)
		return rc;
	snprintf(version, sizeof(version), "%.12s", hw->sha256);
	memset(&ri, 0, sizeof(ri));
	ri.source = o->source ? o->source : "roofline";
	ri.kind = "roofline";
	ri.version = version;
	ri.format = "roofline";
	ri.file_name = base_name(o->ops_path);
	ri.sha256 = hex;
	ri.file_size = size;
	ri.platform = o->platform ? o->platform : hw->platform;
	ri.clock_hz = hw->clock_hz;
	ri.replace = o->replace;
	ri.cost = o->cost;
	ri.cost_unit = o->cost_unit;
	if ((rc = db_writer_begin(&w, db, &ri)) < 0)
		return rc;
	if ((rc = db_writer_meta(w, "spec", base_name(o->hw_path))) < 0 ||
	    (rc = db_writer_meta(w, "spec_sha256", hw->sha256)) < 0 ||
	    (o->workload && (rc = db_writer_meta(w, "import.workload",
						 o->workload)) < 0) ||
	    (o->precision && (rc = db_writer_meta(w, "import.precision",
						  o->precision)) < 0))
		goto fail;
	for (long i = 0; i < n; i++)
		if ((rc = store_op(w, hw, &ops[i], o)) < 0)
			goto fail;
	if ((rc = db_writer_input_done(w)) < 0) {
		long line = 0;

		if (db_writer_settle(w, &line))
			pc_error_prefix("%s:%ld", o->ops_path, line);
		goto fail;
	}
	if ((rc = db_writer_finish(w, &sum)) < 0)
		return rc;
	*run_id = sum.run_id;
	*results = sum.results;
	return 0;
fail:
	db_writer_abort(w);
	return rc;
}
