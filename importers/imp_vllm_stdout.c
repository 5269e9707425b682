/*
 * vllm-stdout: the "Serving Benchmark Result" block vLLM prints to the
 * console (benchmark_serving.py and vllm bench serve), for people who
 * kept only the log. Labels are matched case-insensitively up to the
 * colon; values may carry trailing spaces. "Traffic request rate:" and
 * "Maximum request concurrency:" lines before the block, and the
 * block's own concurrency/rate lines, become workload parameters. A log
 * may hold several blocks (one per run); each needs its closing line.
 * The workload fingerprint (issue 37), as the vllm JSON states it: the
 * totals over the successful requests as input/output_len, the totals,
 * the requested rate and concurrency, the request throughput achieved,
 * tool vllm-bench-serve; a log of several blocks states only what they
 * agree on.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "importers/fpstate.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/lines.h"
#include "importers/serving.h"
#include "base/error.h"
#include "base/util.h"

static const struct {
	const char *label, *metric, *unit;
} scalars[] = {
	{ "Successful requests", "completed", "requests" },
	{ "Failed requests", "failed", "requests" },
	{ "Benchmark duration (s)", "duration", "s" },
	{ "Total input tokens", "input_tokens", "tokens" },
	{ "Total generated tokens", "output_tokens", "tokens" },
	{ "Request throughput (req/s)", "request_throughput", "req/s" },
	{ "Request goodput (req/s)", "request_goodput", "req/s" },
	{ "Output token throughput (tok/s)", "output_throughput", "tokens/s" },
	{ "Peak output token throughput (tok/s)", "peak_output_throughput",
	  "tokens/s" },
	{ "Peak concurrent requests", "peak_concurrent_requests", "requests" },
	{ "Total token throughput (tok/s)", "total_throughput", "tokens/s" },
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	return strstr(head, "Serving Benchmark Result") ? 90 : 0;
}

struct ctx {
	const char *path;
	struct imp_sink *sink;
	char rate[64], conc[64], prompts[32];
	struct imp_param p[3];
	int in_block;
	long block_line, blocks;	/* blocks: closed ones */
	struct serving s;
	struct {
		long line;
		char *label, *text;
	} *held;		/* the block's lines until it is complete */
	size_t nheld, capheld;
	struct fpstate fp;	/* the blocks' fingerprint */
};

/* One block's fingerprint: ok successful requests, the totals and the
 * throughput from its lines. */
static void note_fp(struct ctx *x, double ok)
{
	for (size_t i = 0; i < x->nheld; i++) {
		const char *l = x->held[i].label;
		double v;

		if (util_parse_double(util_trim(x->held[i].text), &v) < 0)
			continue;
		if (!strcasecmp(l, "Total input tokens")) {
			fpstate_num(&x->fp, "input_tokens", v);
			if (ok > 0)
				fpstate_num(&x->fp, "input_len", v / ok);
		} else if (!strcasecmp(l, "Total generated tokens")) {
			fpstate_num(&x->fp, "output_tokens", v);
			if (ok > 0)
				fpstate_num(&x->fp, "output_len", v / ok);
		} else if (!strcasecmp(l, "Request throughput (req/s)")) {
			fpstate_num(&x->fp, "achieved_request_rate", v);
		}
	}
	if (strcasecmp(x->rate, "inf") && *x->rate)
		fpstate_jnum_text(&x->fp, "request_rate", x->rate);
	else if (*x->rate)
		fpstate_note(&x->fp, "request_rate", "inf");
	fpstate_jnum_text(&x->fp, "concurrency", x->conc);
	fpstate_note(&x->fp, "tool", "vllm-bench-serve");
}

/* "Mean TTFT (ms)" -> stat "mean", metric "ttft". */
static int latency_label(const char *label, char *stat, size_t slen,
			 char *metric, size_t mlen)
{
	char a[16], b[16];
	size_t i;

	if (sscanf(label, "%15s %15s (ms)", a, b) != 2 ||
	    !strstr(label, "(ms)"))
		return 0;
	for (i = 0; a[i]; i++)
		a[i] = (char)tolower((unsigned char)a[i]);
	for (i = 0; b[i]; i++)
		b[i] = (char)tolower((unsigned char)b[i]);
	if (strcmp(a, "mean") && strcmp(a, "median") && strcmp(a, "std") &&
	    !(a[0] == 'p' && isdigit((unsigned char)a[1])))
		return 0;
	if (strcmp(b, "ttft") && strcmp(b, "tpot") && strcmp(b, "itl") &&
	    strcmp(b, "e2el"))
		return 0;
	snprintf(stat, slen, "%s", a);
	snprintf(metric, mlen, "%s", b);
	return 1;
}

static int value(struct ctx *x, long line, const char *label, char *text,
		 double *out)
{
	char *t = util_trim(text);

	if (util_parse_double(t, out) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is not a "
				    "number", x->path, line, label, t);
	return 0;
}

static void set_text(char *dst, size_t len, const char *v)
{
	char *t = xstrdup(v);

	snprintf(dst, len, "%s", util_trim(t));
	free(t);
}

/* A known line in another unit ("Mean TTFT (furlongs)", "Benchmark
 * duration (min)") is refused: skipped as a line of another version it
 * would drop a result silently. 0 for any other line. */
static int other_unit(struct ctx *x, long line, const char *label)
{
	const char *open = strrchr(label, '('), *want = NULL;
	char name[64], unit[32], a[16], b[16], m[80];
	size_t n = strlen(label);

	if (!open || open == label || label[n - 1] != ')')
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)(open - label), label);
	util_trim(name);
	snprintf(unit, sizeof(unit), "%.*s", (int)(n - (size_t)(open - label)
		 - 2), open + 1);
	for (size_t i = 0; i < sizeof(scalars) / sizeof(*scalars) && !want;
	     i++) {
		const char *u = strchr(scalars[i].label, '(');
		size_t k = u ? (size_t)(u - scalars[i].label - 1) :
			       strlen(scalars[i].label);

		if (strlen(name) == k &&
		    !strncasecmp(scalars[i].label, name, k))
			want = scalars[i].label;
	}
	snprintf(m, sizeof(m), "%s (ms)", name);
	if (!want && latency_label(m, a, sizeof(a), b, sizeof(b)))
		want = m;
	if (!want)
		return 0;
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': unknown unit '%s' "
			    "(vLLM writes '%s'; convert the values to its unit "
			    "and write the label so)", x->path, line, label,
			    unit, want);
}

static int block_line(struct ctx *x, long line, char *label, char *text)
{
	char stat[16], metric[16];
	double v;
	int rc;

	if (!strcasecmp(label, "Maximum request concurrency") ||
	    !strcasecmp(label, "Request rate configured (RPS)"))
		return 0;	/* parameters, see end_block() */
	for (size_t i = 0; i < sizeof(scalars) / sizeof(*scalars); i++)
		if (!strcasecmp(scalars[i].label, label)) {
			if ((rc = value(x, line, label, text, &v)) < 0)
				return rc;
			x->s.line = line;
			return serving_scalar(&x->s, scalars[i].metric, v,
					      scalars[i].unit);
		}
	if (!latency_label(label, stat, sizeof(stat), metric, sizeof(metric)))
		return other_unit(x, line, label); /* else another version's */
	if ((rc = value(x, line, label, text, &v)) < 0)
		return rc;
	x->s.line = line;
	return serving_latency(&x->s, metric, stat, v);
}

static void begin_block(struct ctx *x, long line)
{
	x->in_block = 1;
	x->block_line = line;
	x->nheld = 0;
}

static void hold(struct ctx *x, long line, const char *label,
		 const char *text)
{
	if (x->nheld == x->capheld) {
		x->capheld = x->capheld ? x->capheld * 2 : 32;
		x->held = xrealloc(x->held, x->capheld * sizeof(*x->held));
	}
	x->held[x->nheld].line = line;
	x->held[x->nheld].label = xstrdup(label);
	x->held[x->nheld++].text = xstrdup(text);
}

static void drop_held(struct ctx *x)
{
	for (size_t i = 0; i < x->nheld; i++) {
		free(x->held[i].label);
		free(x->held[i].text);
	}
	x->nheld = 0;
}

/* The block is complete: parameters first, then the values. */
static int end_block(struct ctx *x, long line)
{
	size_t n = 0;
	int rc = 0;
	double ok = NAN, failed = NAN, v;

	x->in_block = 0;
	for (size_t i = 0; i < x->nheld; i++) {
		char *t = util_trim(x->held[i].text);

		if (util_parse_double(t, &v) < 0)
			v = NAN;
		if (!strcasecmp(x->held[i].label, "Successful requests"))
			ok = v;
		else if (!strcasecmp(x->held[i].label, "Failed requests"))
			failed = v;
		if (!strcasecmp(x->held[i].label, "Maximum request concurrency"))
			set_text(x->conc, sizeof(x->conc), x->held[i].text);
		else if (!strcasecmp(x->held[i].label,
				     "Request rate configured (RPS)"))
			set_text(x->rate, sizeof(x->rate), x->held[i].text);
	}
	if (*x->rate) {
		x->p[n].name = "request_rate";
		x->p[n++].value = x->rate;
	}
	if (*x->conc) {
		x->p[n].name = "max_concurrency";
		x->p[n++].value = x->conc;
	}
	if (!isnan(ok) && !isnan(failed)) {
		/* every prompt is one request: the JSON's num_prompts */
		snprintf(x->prompts, sizeof(x->prompts), "%.0f", ok + failed);
		x->p[n].name = "num_prompts";
		x->p[n++].value = x->prompts;
	}
	note_fp(x, ok);
	serving_init(&x->s, x->sink, x->block_line, x->p, n);
	for (size_t i = 0; i < x->nheld && !rc; i++)
		rc = block_line(x, x->held[i].line, x->held[i].label,
				x->held[i].text);
	drop_held(x);
	x->s.line = line;
	if (!rc)
		rc = serving_flush(&x->s);
	if (!rc && !x->s.emitted)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: the result block has "
				  "no values", x->path, x->block_line);
	*x->rate = *x->conc = '\0';
	return rc;
}

static int text_line(void *arg, long line, char *buf)
{
	struct ctx *x = arg;
	char *colon = strchr(buf, ':');

	if (strstr(buf, "Serving Benchmark Result")) {
		if (x->in_block)
			return pc_error_set(PC_EINVALID, "%s:%ld: a result block "
				"starts before line %ld's ends", x->path, line,
				x->block_line);
		begin_block(x, line);
		return 0;
	}
	if (x->in_block && !strncmp(buf, "=====", 5))
		return end_block(x, line);
	if (!colon || buf[0] == '-')
		return 0;
	*colon = '\0';
	util_trim(buf);
	if (x->in_block) {
		hold(x, line, buf, colon + 1);
		return 0;
	}
	if (!strcasecmp(buf, "Traffic request rate"))
		set_text(x->rate, sizeof(x->rate), colon + 1);
	else if (!strcasecmp(buf, "Maximum request concurrency"))
		set_text(x->conc, sizeof(x->conc), colon + 1);
	return 0;
}

/* A line, counting the blocks that close. */
static int counted_line(void *arg, long line, char *buf)
{
	struct ctx *x = arg;
	int was = x->in_block, rc = text_line(x, line, buf);

	x->blocks += was && !x->in_block;
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	long line = 0;
	int rc;

	memset(&x, 0, sizeof(x));
	x.path = in->path;
	x.sink = sink;
	line = rc = lines_each(in, counted_line, &x);
	if (rc > 0)
		rc = 0;
	drop_held(&x);
	free(x.held);
	if (rc == 0)
		rc = fpstate_flush(&x.fp, sink);
	fpstate_release(&x.fp);
	if (rc == 0 && x.in_block)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: the result block that "
			"starts at line %ld has no closing '=====' line (file "
			"cut?)", in->path, line, x.block_line);
	else if (rc == 0 && !x.blocks)
		rc = pc_error_set(PC_EINVALID, "%s: no 'Serving Benchmark "
				  "Result' block", in->path);
	return rc < 0 ? rc : 0;
}

const struct importer imp_vllm_stdout = {
	.name = "vllm-stdout",
	.kind = "silicon",
	.desc = "vLLM benchmark console output ('Serving Benchmark Result' "
		"block)",
	.probe = probe,
	.import = import,
};
