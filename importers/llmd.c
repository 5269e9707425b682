/* The llm-d Benchmark Report's shared blocks (see llmd.h). */
#include "importers/llmd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"

/* The first line where key is a key: "key": (JSON) or key: (YAML, at the
 * start of a line after its indentation or "- "); 1 when not found. */
static long key_line(FILE *fp, const char *key, int yaml)
{
	char buf[4096];
	size_t n = strlen(key);
	long line = 0;

	if (!yaml)
		return stk_key_line(fp, key);
	rewind(fp);
	while (fgets(buf, sizeof(buf), fp)) {
		const char *p = buf;

		line++;
		while (*p == ' ' || *p == '-')
			p++;
		if (!strncmp(p, key, n) && p[n] == ':')
			return line;
	}
	return 1;
}

int llmd_bad(struct llmd *x, const char *key, const char *path,
	     const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: '%s': %s", x->in->path,
			    key_line(x->in->fp, key, x->yaml), path, what);
}

int llmd_num(struct llmd *x, const cJSON *obj, const char *key,
	     const char *path, double *out)
{
	const cJSON *v = LLMD_GET(obj, key);

	if (!v || cJSON_IsNull(v))
		return 1;
	if (!cJSON_IsNumber(v))
		return llmd_bad(x, key, path, "not a number");
	*out = v->valuedouble;
	return 0;
}

/* The units.h name of an llm-d unit in dimension dim, or NULL. */
static const char *unit(const char *u, const char *dim)
{
	static const struct {
		const char *llmd, *ours, *dim;
	} map[] = {
		{ "ms", "ms", "time" }, { "s", "s", "time" },
		{ "ms/token", "ms", "time" }, { "s/token", "s", "time" },
		{ "count", "", "count" },
		{ "tokens/s", "tokens/s", "tokens" },
		{ "queries/s", "req/s", "requests" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++)
		if (!strcmp(map[i].llmd, u) && !strcmp(map[i].dim, dim))
			return map[i].ours;
	return NULL;
}

int llmd_stat(struct llmd *x, const cJSON *obj, const char *key,
	      const char *path, const char *metric, const char *dim,
	      int emit, struct stk_stat *out)
{
	const cJSON *b = LLMD_GET(obj, key), *u, *kv;
	struct stk_stat st;
	const char *ours;
	char what[160];

	stk_stat_init(&st);
	if (out)
		*out = st;
	if (!b || cJSON_IsNull(b))
		return 0;
	u = LLMD_GET(b, "units");
	if (!cJSON_IsObject(b) || !cJSON_IsString(u))
		return llmd_bad(x, key, path, "expected a Statistics block "
				"with its 'units'");
	if (!(ours = unit(u->valuestring, dim))) {
		snprintf(what, sizeof(what), "unit '%s' is not a %s unit of "
			 "the report's schema", u->valuestring, dim);
		return llmd_bad(x, key, path, what);
	}
	if (!LLMD_GET(b, "mean"))
		return llmd_bad(x, key, path, "no 'mean' (required by the "
				"schema)");
	cJSON_ArrayForEach(kv, b) {
		const char *s = kv->string;

		if (!strcmp(s, "units") || !strcmp(s, "mode") ||
		    cJSON_IsNull(kv))
			continue;
		if (!cJSON_IsNumber(kv)) {
			snprintf(what, sizeof(what), "statistic '%s' is not a "
				 "number", s);
			return llmd_bad(x, key, path, what);
		}
		if (!strcmp(s, "p0p1"))
			s = "p0.1";
		else if (!strcmp(s, "p99p9"))
			s = "p99.9";
		else if (!strcmp(s, "stddev"))
			s = "std";
		if (stk_stat_set(&st, s, kv->valuedouble))
			x->sink->warn(x->sink, "%s: '%s': statistic '%s' "
				      "skipped", x->in->path, path, s);
	}
	if (out)
		*out = st;
	return emit ? stk_stat_emit(&x->o, metric, ours, &st) : 0;
}

int llmd_requests(struct llmd *x, const cJSON *req, const char *path,
		  double *failures)
{
	double total = 0, failed = 0, incomplete = 0;
	int rc, has_f, has_i;

	char field[128];

	snprintf(field, sizeof(field), "%s.total", path);
	if ((rc = llmd_num(x, req, "total", field, &total)) != 0)
		return rc < 0 ? rc : llmd_bad(x, "requests", field, "missing "
					      "(required by the schema)");
	if ((has_f = llmd_num(x, req, "failures", path, &failed)) < 0)
		return has_f;
	if ((has_i = llmd_num(x, req, "incomplete", path, &incomplete)) < 0)
		return has_i;
	*failures = has_f == 0 ? failed : 0;
	if (x->tool && !strcmp(x->tool, "aiperf")) {
		/* native_to_br0_*.py import_aiperf(): total = AIPerf's
		 * request_count (completed), failures = len(error_summary) */
		if (has_f == 0)
			x->sink->warn(x->sink, "%s: '%s.failures' of an aiperf "
				"report counts the kinds of errors "
				"(len(error_summary)), not failed requests: not "
				"stored", x->in->path, path);
		*failures = 0;
		return stk_scalar(&x->o, NULL, "completed", total, "");
	}
	if (failed + incomplete > total)
		return llmd_bad(x, "failures", path, "failures and incomplete "
				"exceed total");
	if ((rc = stk_scalar(&x->o, NULL, "completed",
			     total - failed - incomplete, "")) < 0)
		return rc;
	if (has_f == 0 &&
	    (rc = stk_scalar(&x->o, NULL, "failed", failed, "")) < 0)
		return rc;
	if (has_i == 0 &&
	    (rc = stk_scalar(&x->o, NULL, "incomplete", incomplete, "")) < 0)
		return rc;
	return 0;
}

void llmd_load(struct llmd *x, const cJSON *rate, const cJSON *conc)
{
	char buf[40];
	int closed = cJSON_IsNumber(conc) && isfinite(conc->valuedouble) &&
		     conc->valuedouble >= 1 &&
		     conc->valuedouble == floor(conc->valuedouble);

	if (closed) {
		snprintf(buf, sizeof(buf), "%.0f", conc->valuedouble);
		stk_params_add(&x->par, "max_concurrency", buf);
		fpstate_json(&x->fp, "concurrency", conc);
	}
	if (closed && x->tool && !strcmp(x->tool, "inference-perf")) {
		stk_params_add(&x->par, "request_rate", "inf");
		fpstate_note(&x->fp, "request_rate", "inf");
	} else if (cJSON_IsNumber(rate)) {
		if (isinf(rate->valuedouble))
			snprintf(buf, sizeof(buf), "inf");
		else
			snprintf(buf, sizeof(buf), "%.10g", rate->valuedouble);
		stk_params_add(&x->par, "request_rate", buf);
		fpstate_note(&x->fp, "request_rate", buf);
	}
}
