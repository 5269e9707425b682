/* The workload fingerprint's field table (see fingerprint.h). */
#include "base/fingerprint.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LEN 0.02	/* lengths: 2% relative */
#define RATE 0.05	/* rates: 5% relative */

const struct fp_field fp_fields[] = {
	{ "input_len", FP_NUMBER, LEN, 1, NULL,
	  "mean input (prompt) length per request, tokens" },
	{ "input_len_sd", FP_NUMBER, LEN, 0, NULL,
	  "spread (stddev) of the per-request input lengths, tokens" },
	{ "output_len", FP_NUMBER, LEN, 1, NULL,
	  "mean output length per request, tokens" },
	{ "output_len_sd", FP_NUMBER, LEN, 0, NULL,
	  "spread (stddev) of the per-request output lengths, tokens" },
	{ "input_tokens", FP_NUMBER, LEN, 0, NULL,
	  "total input tokens sent" },
	{ "output_tokens", FP_NUMBER, LEN, 0, NULL,
	  "total output tokens received" },
	{ "ignore_eos", FP_BOOL, 0, 1, NULL,
	  "generation ran to the requested length, ignoring end-of-sequence" },
	{ "sampling", FP_TEXT, 0, 1, NULL,
	  "sampling (greedy, or the temperature/top-p settings)" },
	{ "request_rate", FP_RATE, RATE, 1, NULL,
	  "requested request rate, requests/s (inf: all at once)" },
	{ "concurrency", FP_INT, 0, 1, NULL,
	  "maximum concurrency requested" },
	{ "achieved_request_rate", FP_RATE, RATE, 0, NULL,
	  "request rate achieved, requests/s" },
	{ "warmup_excluded", FP_BOOL, 0, 1, NULL,
	  "warmup requests excluded from the results" },
	{ "token_counter", FP_CHOICE, 0, 1, "client|server",
	  "who counted the tokens: the client's tokenizer or the server's usage" },
	{ "tp", FP_INT, 0, 1, NULL, "tensor parallelism" },
	{ "pp", FP_INT, 0, 1, NULL, "pipeline parallelism" },
	{ "dp", FP_INT, 0, 1, NULL, "data parallelism" },
	{ "precision", FP_DTYPE, 0, 1, NULL,
	  "weights/activations precision (bf16, fp8 ...)" },
	{ "kv_cache", FP_DTYPE, 0, 1, NULL,
	  "KV-cache settings (dtype, offload ...)" },
	{ "tool", FP_TEXT, 0, 0, NULL, "the tool that produced the file" },
	{ "tool_version", FP_TEXT, 0, 0, NULL, "the tool's version" },
};

const size_t fp_nfields = sizeof(fp_fields) / sizeof(fp_fields[0]);
_Static_assert(sizeof(fp_fields) / sizeof(fp_fields[0]) == FP_NFIELDS,
	       "FP_NFIELDS is the table's length");

const struct fp_field *fp_field_find(const char *name)
{
	if (!strncmp(name, "fp.", 3))
		name += 3;
	for (size_t i = 0; i < fp_nfields; i++)
		if (!strcmp(fp_fields[i].name, name))
			return &fp_fields[i];
	return NULL;
}

size_t fp_field_index(const struct fp_field *f)
{
	return (size_t)(f - fp_fields);
}

static int parse_num(const char *v, double *out)
{
	char *end;

	if (!*v)
		return -1;
	*out = strtod(v, &end);
	return *end || isnan(*out) ? -1 : 0;
}

/* -1 not a boolean, else 0/1 */
static int parse_bool(const char *v)
{
	if (!strcasecmp(v, "true") || !strcmp(v, "1") ||
	    !strcasecmp(v, "yes"))
		return 1;
	if (!strcasecmp(v, "false") || !strcmp(v, "0") ||
	    !strcasecmp(v, "no"))
		return 0;
	return -1;
}

/* The tools' spellings of one dtype (sglang/vLLM "bfloat16", trtllm
 * "FP8", torch "torch.float16"): lowercase, "torch." dropped, then
 * these names, so two files that mean the same precision agree. */
static const struct {
	const char *from, *to;
} dtypes[] = {
	{ "bfloat16", "bf16" }, { "float16", "fp16" }, { "half", "fp16" },
	{ "float32", "fp32" }, { "float", "fp32" }, { "tfloat32", "tf32" },
	{ "float8", "fp8" }, { "float8_e4m3fn", "fp8_e4m3" },
	{ "float8_e5m2", "fp8_e5m2" }, { "float64", "fp64" },
	{ "double", "fp64" },
};

static void dtype_canon(const char *v, char *buf, size_t size)
{
	size_t n = 0;

	if (!strncasecmp(v, "torch.", 6))
		v += 6;
	for (; *v && n + 1 < size; v++)
		buf[n++] = (char)tolower((unsigned char)*v);
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof(dtypes) / sizeof(*dtypes); i++)
		if (!strcmp(buf, dtypes[i].from)) {
			snprintf(buf, size, "%s", dtypes[i].to);
			break;
		}
}

static int in_choices(const char *choices, const char *v)
{
	size_t n = strlen(v);

	for (const char *p = choices; *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncmp(p, v, n))
			return 1;
		p += len + (bar != NULL);
	}
	return 0;
}

int fp_value_ok(const struct fp_field *f, const char *v, const char **expect)
{
	double d;

	switch (f->cls) {
	case FP_NUMBER:
		*expect = "a number >= 0";
		return !parse_num(v, &d) && d >= 0 && isfinite(d) ? 0 : -1;
	case FP_RATE:
		*expect = "a rate >= 0 or inf";
		return !parse_num(v, &d) && d >= 0 ? 0 : -1;
	case FP_BOOL:
		*expect = "true or false";
		return parse_bool(v) >= 0 ? 0 : -1;
	case FP_INT:
		*expect = "a whole number >= 0";
		return !parse_num(v, &d) && d >= 0 && isfinite(d) &&
		       d == floor(d) ? 0 : -1;
	case FP_CHOICE:
		*expect = f->choices;
		return in_choices(f->choices, v) ? 0 : -1;
	case FP_TEXT:
	case FP_DTYPE:
		*expect = "a non-empty text";
		return *v ? 0 : -1;
	}
	return -1;
}

const char *fp_canon(const struct fp_field *f, const char *v, char *buf,
		     size_t size)
{
	double d;

	switch (f->cls) {
	case FP_BOOL:
		snprintf(buf, size, "%s", parse_bool(v) > 0 ? "true" : "false");
		break;
	case FP_NUMBER:
	case FP_RATE:
	case FP_INT:
		if (parse_num(v, &d))
			snprintf(buf, size, "%s", v);
		else if (isinf(d))
			snprintf(buf, size, "inf");
		else
			snprintf(buf, size, "%.10g", d);
		break;
	case FP_DTYPE:
		dtype_canon(v, buf, size);
		break;
	default:
		snprintf(buf, size, "%s", v);
	}
	return buf;
}

int fp_within(double a, double b, double tol)
{
	double m;

	if (isinf(a) || isinf(b))
		return a == b;
	m = fmax(fabs(a), fabs(b));
	return m == 0 || fabs(a - b) <= tol * m * (1 + 1e-12);
}

int fp_same(const struct fp_field *f, const char *a, const char *b)
{
	double x, y;

	switch (f->cls) {
	case FP_NUMBER:
	case FP_RATE:
	case FP_INT:
		if (parse_num(a, &x) || parse_num(b, &y))
			return !strcmp(a, b);
		return fp_within(x, y, f->tol);
	case FP_BOOL:
		return parse_bool(a) == parse_bool(b);
	case FP_CHOICE:
	case FP_TEXT:
		return !strcmp(a, b);
	case FP_DTYPE: {
		char x1[64], y1[64];

		/* stored canonical; folded again for values stored before */
		dtype_canon(a, x1, sizeof(x1));
		dtype_canon(b, y1, sizeof(y1));
		return !strcmp(x1, y1);
	}
	}
	return 0;
}
