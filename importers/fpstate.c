/* An importer's workload fingerprint over several documents (see
 * fpstate.h). */
#include "importers/fpstate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fingerprint.h"
#include "base/util.h"

void fpstate_note(struct fpstate *f, const char *field, const char *value)
{
	const struct fp_field *ff = fp_field_find(field);
	size_t i;

	if (!ff || !value || !*value)
		return;
	i = fp_field_index(ff);
	if (i >= FPSTATE_MAX)
		return;
	if (!f->val[i])
		f->val[i] = xstrdup(value);
	else if (!fp_same(ff, f->val[i], value))
		f->conflict[i] = 1;
}

void fpstate_num(struct fpstate *f, const char *field, double v)
{
	char buf[40];

	if (isnan(v))
		return;
	if (isinf(v))
		snprintf(buf, sizeof(buf), "inf");
	else
		snprintf(buf, sizeof(buf), "%.10g", v);
	fpstate_note(f, field, buf);
}

void fpstate_json(struct fpstate *f, const char *field, const cJSON *v)
{
	if (cJSON_IsNumber(v))
		fpstate_num(f, field, v->valuedouble);
	else if (cJSON_IsBool(v))
		fpstate_note(f, field, cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsString(v))
		fpstate_note(f, field, v->valuestring);
}

void fpstate_jnum_text(struct fpstate *f, const char *field, const char *s)
{
	char *end;
	double d;

	if (!s || !*s)
		return;
	d = strtod(s, &end);
	if (end != s && !*end)
		fpstate_num(f, field, d);
}

void fpstate_jnum(struct fpstate *f, const char *field, const cJSON *v)
{
	if (cJSON_IsNumber(v))
		fpstate_num(f, field, v->valuedouble);
	else if (cJSON_IsString(v))
		fpstate_jnum_text(f, field, v->valuestring);
}

void fpstate_mean(struct fpstate *f, const char *field, const cJSON *total,
		  const cJSON *count)
{
	if (cJSON_IsNumber(total) && cJSON_IsNumber(count) &&
	    count->valuedouble > 0)
		fpstate_num(f, field, total->valuedouble / count->valuedouble);
}

void fpstate_array(struct fpstate *f, const char *field, const cJSON *arr)
{
	const cJSON *e;
	double n = 0, mean = 0, m2 = 0;
	char sd[64];

	if (!cJSON_IsArray(arr))
		return;
	cJSON_ArrayForEach(e, arr) {
		double d;

		if (!cJSON_IsNumber(e))
			return;
		d = e->valuedouble - mean;	/* Welford */
		n++;
		mean += d / n;
		m2 += d * (e->valuedouble - mean);
	}
	if (n < 1)
		return;
	fpstate_num(f, field, mean);
	snprintf(sd, sizeof(sd), "%s_sd", field);
	if (n >= 2)
		fpstate_num(f, sd, sqrt(m2 / (n - 1)));
}

int fpstate_flush(struct fpstate *f, struct imp_sink *sink)
{
	int rc = 0;

	for (size_t i = 0; i < fp_nfields && i < FPSTATE_MAX && !rc; i++) {
		const char *expect;
		char key[64];

		if (!f->val[i] || f->conflict[i])
			continue;
		/* a value the field does not take (a tool's "None") is no
		 * statement: said, never an import error */
		if (fp_value_ok(&fp_fields[i], f->val[i], &expect) < 0) {
			sink->warn(sink, "fingerprint field %s: '%s' is not %s: "
				   "not stated", fp_fields[i].name, f->val[i],
				   expect);
			continue;
		}
		snprintf(key, sizeof(key), "fp.%s", fp_fields[i].name);
		rc = sink->meta(sink, key, f->val[i]);
	}
	fpstate_release(f);
	return rc < 0 ? rc : 0;
}

void fpstate_release(struct fpstate *f)
{
	for (size_t i = 0; i < FPSTATE_MAX; i++) {
		free(f->val[i]);
		f->val[i] = NULL;
		f->conflict[i] = 0;
	}
}
