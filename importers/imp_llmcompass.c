/*
 * llmcompass: LLMCompass logs. Matmul lines "M, N, K, <t>ms, <r>Tflops"
 * (no header; the paper's real A100/MI210 measurements use the same
 * format, so they import as silicon with --kind silicon), and
 * transformer-block logs: 12 latencies in seconds (qkv, q_mul_k, a_mul_v,
 * h_matmul0, h1_matmul1, h2_matmul2, softmax, layernorm, layernorm,
 * gelu, allreduce, allreduce) on one line or one per line.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "importers/importer.h"
#include "importers/lines.h"
#include "base/error.h"
#include "base/util.h"

#define N_BLOCK 12

static const char *const block_ops[N_BLOCK] = {
	"qkv", "q_mul_k", "a_mul_v", "h_matmul0", "h1_matmul1", "h2_matmul2",
	"softmax", "layernorm", "layernorm", "gelu", "allreduce", "allreduce",
};

/* A number glued to a unit suffix ("0.1900ms"): 0 when s is exactly
 * number + suffix. */
static int suffixed(const char *s, const char *suffix, double *out)
{
	const char *end;
	char unit[16];

	if (lines_quantity(s, out, unit, sizeof(unit), &end) < 0)
		return -1;
	return strcmp(unit, suffix) || *end ? -1 : 0;
}

static int is_matmul_line(const char *line)
{
	const char *ms = strstr(line, "ms,");

	return ms && strstr(ms, "Tflops") && strchr(line, ',') < ms;
}

/* The HW block file: exactly 12 lines, each one number. */
static int one_per_line(const char *head)
{
	int lines = 0;

	for (const char *p = head; *p; ) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char buf[64];
		double v;

		if (n && n < sizeof(buf)) {
			memcpy(buf, p, n);
			buf[n] = '\0';
			if (util_parse_double(buf, &v) < 0)
				return 0;
			lines++;
		} else if (n) {
			return 0;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return lines == N_BLOCK;
}

static int probe(const char *head, size_t len, const char *filename)
{
	const char *nl = strchr(head, '\n');
	char first[256];
	size_t n = nl ? (size_t)(nl - head) : len;
	int commas = 0;

	(void)filename;
	if (n >= sizeof(first))
		return 0;
	memcpy(first, head, n);
	first[n] = '\0';
	if (is_matmul_line(first))
		return 60;
	for (const char *p = first; *p; p++) {
		if (*p == ',')
			commas++;
		else if (!strchr("0123456789.eE+- \r", *p))
			return 0;
	}
	if (commas == N_BLOCK - 1)
		return 40;
	return one_per_line(head) ? 35 : 0;
}

static int emit(struct imp_sink *sink, long line, const struct imp_param *p,
		size_t np, const char *raw, const char *op, const char *metric,
		double v, const char *unit, unsigned flags)
{
	struct imp_record r;

	imp_record_init(&r);
	r.params = p;
	r.nparams = np;
	r.raw_name = raw;
	r.op = op;
	r.metric = metric;
	r.value = v;
	r.unit = unit;
	r.flags = flags;
	r.line = line;
	return sink->emit(sink, &r);
}

static int matmul(struct imp_sink *sink, struct csv *c)
{
	static const char *const dim[] = { "m", "n", "k" };
	struct imp_param p[3];
	double v, t, rate;
	int rc;

	if (c->nfields != 5)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected 5 fields "
				    "(M, N, K, <t>ms, <r>Tflops), found %zu",
				    c->path, c->line, c->nfields);
	for (int i = 0; i < 3; i++) {
		if (util_parse_double(c->fields[i], &v) || v < 1 ||
		    v != floor(v))
			return pc_error_set(PC_EINVALID, "%s:%ld: field %d: "
				"'%s' is not a matrix size", c->path, c->line,
				i + 1, c->fields[i]);
		p[i].name = dim[i];
		p[i].value = util_trim(c->fields[i]);
	}
	if (suffixed(c->fields[3], "ms", &t) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: field 4: '%s' is not "
				    "a latency like 0.19ms", c->path, c->line,
				    c->fields[3]);
	if (suffixed(c->fields[4], "Tflops", &rate) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: field 5: '%s' is not "
				    "a rate like 101.7Tflops", c->path, c->line,
				    c->fields[4]);
	if ((rc = emit(sink, c->line, p, 3, NULL, "gemm", "time", t, "ms",
		       0)) < 0)
		return rc;
	return emit(sink, c->line, p, 3, NULL, "gemm", "attained_flop_rate",
		    rate, "Tflops", 0);
}

/* One block value (the i-th of 12). */
static int block_value(struct imp_sink *sink, struct csv *c, size_t f,
		       int i, double *sum)
{
	double v;

	if (i >= N_BLOCK)
		return pc_error_set(PC_EINVALID, "%s:%ld: more than %d block "
				    "latencies", c->path, c->line, N_BLOCK);
	if (util_parse_double(c->fields[f], &v) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: field %zu: '%s' is "
				    "not a latency in seconds", c->path,
				    c->line, f + 1, c->fields[f]);
	*sum += v;
	return emit(sink, c->line, NULL, 0, block_ops[i], NULL, "time", v, "s",
		    0);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	int rc, nblock = 0, nmat = 0;
	double sum = 0;
	long last = 0;

	csv_init(&c, in->fp, in->path);
	c.trim_space = 1;
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c))
			continue;
		last = c.line;
		if (nmat || (!nblock && c.nfields == 5)) {
			if (!nmat++)
				rc = sink->meta(sink, "default.name", "gemm");
			if (rc >= 0)
				rc = matmul(sink, &c);
		} else {
			for (size_t f = 0; f < c.nfields && rc >= 0; f++)
				rc = block_value(sink, &c, f, nblock++, &sum);
		}
		if (rc < 0)
			break;
	}
	if (rc == 0 && !nmat && nblock != N_BLOCK)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: a transformer block "
				  "log has %d latencies, found %d", in->path,
				  last, N_BLOCK, nblock);
	if (rc == 0 && nblock)
		rc = emit(sink, last, NULL, 0, NULL, "e2e", "time", sum, "s",
			  IMP_DERIVED);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_llmcompass = {
	.name = "llmcompass",
	.kind = NULL,
	.desc = "LLMCompass matmul logs (M, N, K, 0.19ms, 101.7Tflops; also "
		"its measured A100/MI210 files) and transformer-block logs",
	.probe = probe,
	.import = import,
};
