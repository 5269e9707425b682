/*
 * llm-viewer: LLM-Viewer's per-layer CSV (ModelAnalyzer.save_csv). Each
 * append starts with a banner "=== <model> <hardware> w_bit=.. a_bit=..
 * kv_bit=.. batchsize=B seqlen=S===" and a header; values are human
 * formatted (8.6G, 33.6MB, 55.4us). Rows are one transformer block's
 * layers (lm_head once); --opt layers=N scales them to the whole model
 * and adds a derived e2e time. See docs/importers-models.md.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "importers/importer.h"
#include "base/error.h"
#include "base/util.h"

enum col { C_NAME, C_OPS, C_ACCESS, C_AI, C_PERF, C_BOUND, C_TIME, N_COLS };

static const char *const col_names[N_COLS] = {
	"layer_name", "OPs", "Access", "arithmetic_intensity", "performance",
	"bound", "inference_time",
};

enum hkind { H_FLOP, H_BYTES, H_TIME, H_PLAIN };

struct state {
	struct imp_input *in;
	struct imp_sink *sink;
	int col[N_COLS];
	size_t ncols;
	int header, meta_done;
	double layers;		/* NaN = per block */
	char bs[32], seq[32];	/* from the current banner */
	struct imp_param prm[3];
	size_t nprm;
	double e2e;		/* scaled time sum of the current block */
	long e2e_line;
	int rows;
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (strstr(head, "layer_name,OPs,Access,arithmetic_intensity"))
		return strstr(head, "===") ? 95 : 85;
	return 0;
}

/* "8.6G" / "33.6MB" / "55.4us" / "0.00B" / "0.25": the value and the
 * unit it is written in (a db/units.c name) for the kind of column. */
static int human(const char *s, enum hkind k, double *out, const char **unit)
{
	static const char *const flop_u[] = { "FLOP", "KFLOP", "MFLOP",
		"GFLOP", "TFLOP" };
	static const char *const byte_u[] = { "B", "KB", "MB", "GB", "TB" };
	static const char *const pfx = "KMGT";
	char *end;
	const char *p;
	double v;
	int i = 0;

	while (isspace((unsigned char)*s))
		s++;
	v = strtod(s, &end);
	if (end == s || !isfinite(v))
		return -1;
	if (*end && (p = strchr(pfx, *end)) != NULL && k != H_TIME) {
		i = (int)(p - pfx) + 1;
		end++;
	}
	*out = v;
	switch (k) {
	case H_FLOP:
		*unit = flop_u[i];
		break;
	case H_BYTES:
		if (*end == 'B')
			end++;
		*unit = byte_u[i];
		break;
	case H_PLAIN:
		*out = v * pow(1e3, i);
		*unit = "";
		break;
	case H_TIME:
		if (*end == 'm' || *end == 'u' || *end == 'n') {
			*unit = *end == 'm' ? "ms" : *end == 'u' ? "us" : "ns";
			end++;
		} else {
			*unit = "s";
		}
		if (*end != 's')
			return -1;
		end++;
		break;
	}
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -1 : 0;
}

static int field(struct state *st, struct csv *c, enum col col,
		 enum hkind k, double *v, const char **unit)
{
	const char *s = c->fields[st->col[col]];

	if (human(s, k, v, unit) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': '%s' is "
				    "not a number", c->path, c->line,
				    col_names[col], s);
	return 0;
}

static const char *param(const char *banner, const char *key, char *buf,
			 size_t len)
{
	const char *p = strstr(banner, key);
	size_t n = 0;

	if (!p)
		return NULL;
	p += strlen(key);
	while (isalnum((unsigned char)p[n]) && n < len - 1)
		n++;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n ? buf : NULL;
}

/* The banner names the model, the hardware and the configuration; the
 * model is the workload name unless --workload gave one. */
static int banner(struct state *st, const char *text)
{
	char model[256] = "", hw[256] = "", bits[32];
	const char *base = strrchr(st->in->path, '/');
	int rc = 0;

	sscanf(text, "=== %255s %255s", model, hw);
	st->nprm = 0;
	if (param(text, "batchsize=", st->bs, sizeof(st->bs)))
		st->prm[st->nprm++] = (struct imp_param){ "bs", st->bs };
	if (param(text, "seqlen=", st->seq, sizeof(st->seq)))
		st->prm[st->nprm++] = (struct imp_param){ "seq", st->seq };
	base = base ? base + 1 : st->in->path;
	if (strstr(base, "_decode"))
		st->prm[st->nprm++] = (struct imp_param){ "phase", "decode" };
	else if (strstr(base, "_prefill"))
		st->prm[st->nprm++] = (struct imp_param){ "phase", "prefill" };
	st->header = 0;
	if (st->meta_done)
		return 0;
	st->meta_done = 1;
	if (*model && (rc = st->sink->meta(st->sink, "default.name", model)))
		return rc;
	if (*hw && (rc = st->sink->meta(st->sink, "platform", hw)))
		return rc;
	for (int i = 0; !rc && i < 3; i++) {
		static const char *const k[] = { "w_bit=", "a_bit=", "kv_bit=" };
		char key[16];

		if (!param(text, k[i], bits, sizeof(bits)))
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)strlen(k[i]) - 1, k[i]);
		rc = st->sink->meta(st->sink, key, bits);
	}
	return rc;
}

static int header(struct state *st, struct csv *c)
{
	for (int i = 0; i < N_COLS; i++)
		if ((st->col[i] = csv_col(c, col_names[i])) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: missing column "
					    "'%s'", c->path, c->line,
					    col_names[i]);
	st->ncols = c->nfields;
	st->header = 1;
	return 0;
}

static int emit(struct state *st, long line, const char *layer,
		const char *metric, double v, const char *unit,
		unsigned flags, const char *op)
{
	struct imp_record r;

	imp_record_init(&r);
	r.params = st->prm;
	r.nparams = st->nprm;
	r.op = op;
	r.raw_name = op ? NULL : layer;
	r.metric = metric;
	r.value = v;
	r.unit = unit;
	r.flags = flags;
	r.line = line;
	return st->sink->emit(st->sink, &r);
}

static int row(struct state *st, struct csv *c)
{
	const char *layer = util_trim(c->fields[st->col[C_NAME]]);
	const char *bound = util_trim(c->fields[st->col[C_BOUND]]);
	const char *u_ops, *u_acc, *u_time, *u_ai, *u_perf;
	double ops, acc, t, ai, perf, scale = 1, lim;
	int rc;

	if (c->nfields != st->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, st->ncols,
				    c->nfields);
	if (!*layer)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'layer_name' "
				    "is empty", c->path, c->line);
	if ((rc = field(st, c, C_OPS, H_FLOP, &ops, &u_ops)) ||
	    (rc = field(st, c, C_ACCESS, H_BYTES, &acc, &u_acc)) ||
	    (rc = field(st, c, C_TIME, H_TIME, &t, &u_time)) ||
	    (rc = field(st, c, C_AI, H_PLAIN, &ai, &u_ai)) ||
	    (rc = field(st, c, C_PERF, H_PLAIN, &perf, &u_perf)))
		return rc;
	if (!strcmp(bound, "compute"))
		lim = 1;
	else if (!strcmp(bound, "memory"))
		lim = 0;
	else
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'bound': '%s' "
				    "is neither 'compute' nor 'memory'",
				    c->path, c->line, bound);
	/* lm_head is already whole-model; the others are per block */
	if (!isnan(st->layers) && strcmp(layer, "lm_head"))
		scale = st->layers;
	st->e2e += t * scale * (!strcmp(u_time, "ms") ? 1e-3 :
		   !strcmp(u_time, "us") ? 1e-6 : !strcmp(u_time, "ns") ?
		   1e-9 : 1);
	st->e2e_line = c->line;
	st->rows++;
	if ((rc = emit(st, c->line, layer, "time", t * scale, u_time, 0,
		       NULL)) ||
	    (rc = emit(st, c->line, layer, "flops", ops * scale, u_ops, 0,
		       NULL)) ||
	    (rc = emit(st, c->line, layer, "bytes", acc * scale, u_acc, 0,
		       NULL)) ||
	    (rc = emit(st, c->line, layer, "arithmetic_intensity", ai, "", 0,
		       NULL)) ||
	    (rc = emit(st, c->line, layer, "attainable_flop_rate", perf,
		       "FLOP/s", 0, NULL)))
		return rc;
	return emit(st, c->line, layer, "limiter", lim, "", 0, NULL);
}

/* With --opt layers=N: the whole model's time, summed from the block. */
static int finish_block(struct state *st)
{
	int rc = 0;

	if (st->rows && !isnan(st->layers))
		rc = emit(st, st->e2e_line, NULL, "time", st->e2e, "s",
			  IMP_DERIVED, "e2e");
	st->rows = 0;
	st->e2e = 0;
	return rc;
}

static int options(struct state *st)
{
	const char *l = imp_opt(st->in, "layers");
	char buf[32];

	st->layers = NAN;
	if (!l)
		return st->sink->meta(st->sink, "scope", "per-block");
	if (util_parse_double(l, &st->layers) || st->layers < 1 ||
	    st->layers != floor(st->layers))
		return pc_error_set(PC_EUSAGE, "--opt layers='%s': expected a "
				    "positive whole number", l);
	snprintf(buf, sizeof(buf), "%.0f", st->layers);
	return st->sink->meta(st->sink, "layers", buf);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct state st;
	struct csv c;
	int rc;

	memset(&st, 0, sizeof(st));
	st.in = in;
	st.sink = sink;
	if ((rc = options(&st)) < 0)
		return rc;
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c))
			continue;
		if (!strncmp(c.fields[0], "===", 3)) {
			if ((rc = finish_block(&st)) < 0 ||
			    (rc = banner(&st, c.fields[0])) < 0)
				break;
		} else if (!strcmp(util_trim(c.fields[0]), "layer_name")) {
			if ((rc = header(&st, &c)) < 0)
				break;
		} else if (!st.header) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: expected the "
				"'=== model hardware ...===' banner or the "
				"layer_name header", c.path, c.line);
			break;
		} else if ((rc = row(&st, &c)) < 0) {
			break;
		}
	}
	if (rc == 0)
		rc = finish_block(&st);
	if (rc == 0 && !st.header)
		rc = pc_error_set(PC_EINVALID, "%s: no layer_name header",
				  in->path);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

static const char *const opt_keys[] = { "layers", NULL };

const struct importer imp_llm_viewer = {
	.name = "llm-viewer",
	.kind = "roofline",
	.desc = "LLM-Viewer per-layer CSV (banner, 8.6G/33.6MB/55.4us values)",
	.probe = probe,
	.import = import,
	.options = opt_keys,
};
