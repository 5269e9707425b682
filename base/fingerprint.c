/* The workload fingerprint's field table (see fingerprint.h). */
#include "base/fingerprint.h"

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
	{ "precision", FP_TEXT, 0, 1, NULL,
	  "weights/activations precision (bf16, fp8 ...)" },
	{ "kv_cache", FP_TEXT, 0, 1, NULL,
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
	}
	return 0;
}
