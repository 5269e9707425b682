/* AIPerf's JSON exports: schema check, identity, fingerprint (aiperf.h). */
#include "importers/aiperf.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/stacks.h"
#include "base/error.h"
#include "base/jsonutil.h"

#define GET(o, k) cJSON_GetObjectItemCaseSensitive(o, k)

int aiperf_schema(const cJSON *doc, struct imp_input *in, const char *what)
{
	const cJSON *v = GET(doc, "schema_version");

	if (!v)
		return 0;	/* before schema 1.0 (2025) */
	if (cJSON_IsString(v) && (!strcmp(v->valuestring, "1") ||
				  !strncmp(v->valuestring, "1.", 2)))
		return 0;
	return pc_error_set(PC_EINVALID, "%s:%ld: 'schema_version': %s%s%s: "
		"this reader knows %s schema 1.x (a new major version renames "
		"or removes fields)", in->path,
		stk_key_line(in->fp, "schema_version"),
		cJSON_IsString(v) ? "'" : "",
		cJSON_IsString(v) ? v->valuestring : "not a text",
		cJSON_IsString(v) ? "'" : "", what);
}

/* The profiling phase of phases: "profiling", else the one phase whose
 * kind is profiling (NULL when none or several). */
static const cJSON *profiling(const cJSON *phases)
{
	const cJSON *p, *found = NULL;

	if ((p = GET(phases, "profiling")) && cJSON_IsObject(p))
		return p;
	cJSON_ArrayForEach(p, phases) {
		const cJSON *k = GET(p, "kind");

		if (cJSON_IsString(k) && !strcmp(k->valuestring, "profiling")) {
			if (found)
				return NULL;
			found = p;
		}
	}
	return found;
}

int aiperf_identity(struct imp_sink *sink, const cJSON *doc,
		    struct fpstate *fp)
{
	const cJSON *ic = GET(doc, "input_config"), *items, *ph, *v;
	const cJSON *ver = GET(doc, "aiperf_version");
	int rc;

	if (fp && cJSON_IsString(ver))
		fpstate_note(fp, "tool_version", ver->valuestring);
	if (!cJSON_IsObject(ic) || GET(GET(ic, "endpoint"), "model_names"))
		return 0;	/* 2025 layout: genai_perf_identity() */
	items = GET(GET(ic, "models"), "items");
	v = GET(cJSON_GetArrayItem(items, 0), "name");
	if (cJSON_GetArraySize(items) == 1 && cJSON_IsString(v) &&
	    (rc = sink->meta(sink, "default.name", v->valuestring)) < 0)
		return rc;
	ph = profiling(GET(ic, "phases"));
	if (cJSON_IsNumber(v = GET(ph, "concurrency"))) {
		if ((rc = sink->meta(sink, "param.concurrency",
				     jsonutil_scalar(v))) < 0)
			return rc;
		if (fp)
			fpstate_json(fp, "concurrency", v);
	}
	if (cJSON_IsNumber(v = GET(ph, "rate"))) {
		if ((rc = sink->meta(sink, "param.request_rate",
				     jsonutil_scalar(v))) < 0)
			return rc;
		if (fp)
			fpstate_json(fp, "request_rate", v);
	}
	return 0;
}

void aiperf_fingerprint(const cJSON *doc, struct fpstate *fp)
{
	const cJSON *ph = GET(GET(doc, "input_config"), "phases"), *p;

	/* what genai_perf_fp() does not read: the input total, and the
	 * warmup phase of the 2026 config (its metrics are profiling-only:
	 * schema 1.4 "Existing top-level metric fields remain
	 * profiling-only") */
	fpstate_json(fp, "input_tokens", GET(GET(doc, "total_isl"), "avg"));
	cJSON_ArrayForEach(p, ph) {
		const cJSON *k = GET(p, "kind");

		if ((cJSON_IsString(k) && !strcmp(k->valuestring, "warmup")) ||
		    (p->string && !strcmp(p->string, "warmup")))
			fpstate_note(fp, "warmup_excluded", "true");
	}
}
