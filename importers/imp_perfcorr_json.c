/*
 * perfcorr-json: the native JSON document (docs/formats.md):
 * { "version", "platform", "clock_mhz", "workload", "params": {},
 *   "metadata": {}, "results": [ {workload, op, metric, value, unit,
 *   n, stddev, min, max, median, mean, raw_name, params} ... ] }
 * or the array `export results --format json` writes: its rows carry
 * flags (words), raw_value/raw_unit (stored as they are) and the run
 * facts version, platform and clock_hz (the same on every row).
 * cJSON parses whole documents, so files are capped (64 MiB); larger
 * studies belong in perfcorr-csv, which streams.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "importers/importer.h"
#include "importers/native.h"
#include "base/jsonutil.h"
#include "base/error.h"
#include "base/util.h"

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = jsonutil_start(head);

	(void)len;
	(void)filename;
	if (*p == '[')	/* an export: rows with a metric and a run */
		return strstr(p, "\"metric\"") && strstr(p, "\"run_id\"") ?
		       80 : 0;
	if (*p != '{')
		return 0;
	if (strstr(head, "\"perfcorr-json\""))
		return 100;
	return strstr(head, "\"results\"") ? 60 : 0;
}

static int stat_field(const char *path, int idx, const cJSON *o,
		      const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v))
		return pc_error_set(PC_EINVALID, "%s: results[%d]: '%s' is not "
				    "a number", path, idx, key);
	*out = v->valuedouble;
	return 0;
}

static int text_field(const char *path, int idx, const cJSON *o,
		      const char *key, const char **out, int required)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v || cJSON_IsNull(v)) {
		if (required)
			return pc_error_set(PC_EINVALID, "%s: results[%d]: "
				"missing '%s'", path, idx, key);
		return 0;
	}
	if (!cJSON_IsString(v))
		return pc_error_set(PC_EINVALID, "%s: results[%d]: '%s' is not "
				    "a string", path, idx, key);
	if (required && !*v->valuestring)
		return pc_error_set(PC_EINVALID, "%s: results[%d]: '%s' is "
				    "empty", path, idx, key);
	*out = v->valuestring;
	return 0;
}

/* The columns an export adds: flags, raw value and unit, run facts. */
static int export_cols(struct imp_input *in, struct imp_sink *sink,
		       const cJSON *o, int idx, struct imp_record *r,
		       struct native_run *run)
{
	static const char *const facts[] = { "version", "platform",
					     "clock_hz" };
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "flags");
	char bad[32];
	int rc;

	if (v && !cJSON_IsNull(v) && (!cJSON_IsString(v) ||
	    native_flags(v->valuestring, &r->flags, bad, sizeof(bad))))
		return pc_error_set(PC_EINVALID, "%s: results[%d]: 'flags': "
			"unknown flag '%s' (expected %s)", in->path, idx,
			cJSON_IsString(v) ? bad : "not a string",
			NATIVE_FLAG_WORDS);
	v = cJSON_GetObjectItemCaseSensitive(o, "raw_value");
	if (v && !cJSON_IsNull(v)) {
		const cJSON *u = cJSON_GetObjectItemCaseSensitive(o, "raw_unit");

		if (!cJSON_IsNumber(v) || (u && !cJSON_IsNull(u) &&
					   !cJSON_IsString(u)))
			return pc_error_set(PC_EINVALID, "%s: results[%d]: "
				"'raw_value' is not a number or 'raw_unit' not "
				"a string", in->path, idx);
		r->raw_value = v->valuedouble;
		r->raw_unit = cJSON_IsString(u) ? u->valuestring : "";
	}
	for (int i = 0; i < 3; i++) {
		const char *val;

		v = cJSON_GetObjectItemCaseSensitive(o, facts[i]);
		if (!v || cJSON_IsNull(v))
			continue;
		if (!(val = jsonutil_scalar(v)))
			return pc_error_set(PC_EINVALID, "%s: results[%d]: '%s' "
				"is not a string or number", in->path, idx,
				facts[i]);
		if ((rc = native_run_fact(run, sink, facts[i], val, in->path,
					  idx + 1)) < 0)
			return rc;
	}
	return 0;
}

static int result(struct imp_input *in, struct imp_sink *sink,
		  const cJSON *o, int idx, struct native_run *run)
{
	static const char *const stats[] = { "n", "mean", "median", "min",
					     "max", "stddev" };
	struct imp_record r;
	struct imp_param *params = NULL;
	const cJSON *v, *pr;
	double *dst[6];
	int rc = 0, np = 0;

	if (!cJSON_IsObject(o))
		return pc_error_set(PC_EINVALID, "%s: results[%d]: not an "
				    "object", in->path, idx);
	imp_record_init(&r);
	r.line = idx + 1;
	dst[0] = &r.n; dst[1] = &r.mean; dst[2] = &r.median;
	dst[3] = &r.min; dst[4] = &r.max; dst[5] = &r.stddev;
	if ((rc = text_field(in->path, idx, o, "workload", &r.workload, 0)) ||
	    (rc = text_field(in->path, idx, o, "op", &r.op, 1)) ||
	    (rc = text_field(in->path, idx, o, "metric", &r.metric, 1)) ||
	    (rc = text_field(in->path, idx, o, "unit", &r.unit, 1)) ||
	    (rc = text_field(in->path, idx, o, "raw_name", &r.raw_name, 0)))
		return rc;
	v = cJSON_GetObjectItemCaseSensitive(o, "value");
	if (!v)
		return pc_error_set(PC_EINVALID, "%s: results[%d]: missing "
				    "'value'", in->path, idx);
	if (!cJSON_IsNumber(v))
		return pc_error_set(PC_EINVALID, "%s: results[%d]: 'value' is "
				    "not a number", in->path, idx);
	r.value = v->valuedouble;
	for (int i = 0; i < 6; i++)
		if ((rc = stat_field(in->path, idx, o, stats[i], dst[i])))
			return rc;
	pr = cJSON_GetObjectItemCaseSensitive(o, "params");
	if (pr && !cJSON_IsObject(pr))
		return pc_error_set(PC_EINVALID, "%s: results[%d]: 'params' is "
				    "not an object", in->path, idx);
	if (pr) {
		const cJSON *p;

		params = xcalloc((size_t)cJSON_GetArraySize(pr) + 1,
				 sizeof(*params));
		cJSON_ArrayForEach(p, pr) {
			const char *val = jsonutil_scalar(p);

			if (!val) {
				free(params);
				return pc_error_set(PC_EINVALID, "%s: results[%d]:"
					" params.%s is not a string or number",
					in->path, idx, p->string);
			}
			params[np].name = p->string;
			params[np++].value = val;
		}
	}
	r.params = params;
	r.nparams = (size_t)np;
	if ((rc = export_cols(in, sink, o, idx, &r, run)) == 0)
		rc = sink->emit(sink, &r);
	free(params);
	return rc;
}

static int run_meta(struct imp_input *in, struct imp_sink *sink,
		    const cJSON *doc)
{
	static const char *const keys[] = { "version", "platform", "workload",
					    NULL };
	const cJSON *v;
	char buf[64];
	int rc;

	for (int i = 0; keys[i]; i++) {
		v = cJSON_GetObjectItemCaseSensitive(doc, keys[i]);
		if (!v || cJSON_IsNull(v))
			continue;
		if (!cJSON_IsString(v))
			return pc_error_set(PC_EINVALID, "%s: '%s' is not a "
					    "string", in->path, keys[i]);
		if ((rc = sink->meta(sink, keys[i], v->valuestring)) < 0)
			return rc;
	}
	v = cJSON_GetObjectItemCaseSensitive(doc, "clock_mhz");
	if (v && !cJSON_IsNull(v)) {
		if (!cJSON_IsNumber(v) || !(v->valuedouble > 0))
			return pc_error_set(PC_EINVALID, "%s: 'clock_mhz' is not "
					    "a positive number", in->path);
		snprintf(buf, sizeof(buf), "%.17g", v->valuedouble * 1e6);
		if ((rc = sink->meta(sink, "clock_hz", buf)) < 0)
			return rc;
	}
	v = cJSON_GetObjectItemCaseSensitive(doc, "params");
	if (v && cJSON_IsObject(v)) {
		const cJSON *p;

		cJSON_ArrayForEach(p, v) {
			const char *val = jsonutil_scalar(p);
			char *key;

			if (!val)
				return pc_error_set(PC_EINVALID, "%s: params.%s "
					"is not a string or number", in->path,
					p->string);
			key = xasprintf("param.%s", p->string);
			rc = sink->meta(sink, key, val);
			free(key);
			if (rc < 0)
				return rc;
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(doc, "metadata");
	if (v && cJSON_IsObject(v)) {
		const cJSON *p;

		cJSON_ArrayForEach(p, v) {
			const char *val = jsonutil_scalar(p);

			if (val && (rc = sink->meta(sink, p->string, val)) < 0)
				return rc;
		}
	}
	return 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	cJSON *doc = NULL;
	const cJSON *res, *o;
	struct native_run run = { 0 };
	int rc, idx = 0;

	if ((rc = jsonutil_parse_file(&doc, in->fp, in->path,
				      JSONUTIL_DOC_MAX)) < 0)
		return rc;
	if (cJSON_IsArray(doc)) {	/* export results --format json */
		cJSON_ArrayForEach(o, doc) {
			if ((rc = result(in, sink, o, idx++, &run)) < 0)
				goto done;
		}
		rc = 0;
		goto done;
	}
	if (!cJSON_IsObject(doc)) {
		rc = pc_error_set(PC_EINVALID, "%s: expected a JSON object or "
				  "an export's array at the top level",
				  in->path);
		goto done;
	}
	if ((rc = run_meta(in, sink, doc)) < 0)
		goto done;
	res = cJSON_GetObjectItemCaseSensitive(doc, "results");
	if (!cJSON_IsArray(res)) {
		rc = pc_error_set(PC_EINVALID, "%s: missing 'results' array",
				  in->path);
		goto done;
	}
	cJSON_ArrayForEach(o, res) {
		if ((rc = result(in, sink, o, idx++, &run)) < 0)
			goto done;
	}
	rc = 0;
done:
	native_run_release(&run);
	cJSON_Delete(doc);
	return rc;
}

const struct importer imp_perfcorr_json = {
	.name = "perfcorr-json",
	.kind = NULL,
	.desc = "perfcorr native JSON document ({\"results\": [...]})",
	.probe = probe,
	.import = import,
};
