/* Kernel-name mapping rules (see kmap.h). */
#include "src/import/kmap.h"

#include <cjson/cJSON.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonutil.h"
#include "base/error.h"
#include "base/util.h"

struct rule {
	regex_t re;
	char *op;
	int stage;
};

struct kmap {
	struct rule *rules;
	size_t n;
};

void kmap_free(struct kmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		regfree(&m->rules[i].re);
		free(m->rules[i].op);
	}
	free(m->rules);
	free(m);
}

static int add_rule(struct kmap *m, const cJSON *o, int idx, const char *path)
{
	const cJSON *match = cJSON_GetObjectItemCaseSensitive(o, "match");
	const cJSON *op = cJSON_GetObjectItemCaseSensitive(o, "op");
	const cJSON *icase = cJSON_GetObjectItemCaseSensitive(o, "icase");
	const cJSON *stage = cJSON_GetObjectItemCaseSensitive(o, "stage");
	struct rule *r;
	int err, flags = REG_EXTENDED | REG_NOSUB;

	if (!cJSON_IsObject(o))
		return pc_error_set(PC_EINVALID, "%s: rule %d: not an object",
				    path, idx);
	for (const cJSON *k = o->child; k; k = k->next)
		if (strcmp(k->string, "match") && strcmp(k->string, "op") &&
		    strcmp(k->string, "comment") && strcmp(k->string, "icase") &&
		    strcmp(k->string, "stage"))
			return pc_error_set(PC_EINVALID, "%s: rule %d: unknown "
				"key '%s' (expected match, op, icase, stage, "
				"comment)", path, idx, k->string);
	if (icase && !cJSON_IsBool(icase))
		return pc_error_set(PC_EINVALID, "%s: rule %d: 'icase' must be "
				    "true or false", path, idx);
	if (stage && !cJSON_IsBool(stage))
		return pc_error_set(PC_EINVALID, "%s: rule %d: 'stage' must be "
				    "true or false", path, idx);
	if (cJSON_IsTrue(icase))
		flags |= REG_ICASE;
	if (!cJSON_IsString(match) || !*match->valuestring)
		return pc_error_set(PC_EINVALID, "%s: rule %d: 'match' must be "
				    "a non-empty string", path, idx);
	if (!cJSON_IsString(op) || !*op->valuestring)
		return pc_error_set(PC_EINVALID, "%s: rule %d: 'op' must be a "
				    "non-empty string", path, idx);
	if (util_regex_too_big(match->valuestring))
		return pc_error_set(PC_EINVALID, "%s: rule %d: regex too large "
				    "once its repetitions are expanded", path,
				    idx);
	m->rules = xrealloc(m->rules, (m->n + 1) * sizeof(*m->rules));
	r = &m->rules[m->n];
	err = regcomp(&r->re, match->valuestring, flags);
	if (err) {
		char buf[256];

		regerror(err, &r->re, buf, sizeof(buf));
		return pc_error_set(PC_EINVALID, "%s: rule %d: bad regex '%s': "
				    "%s", path, idx, match->valuestring, buf);
	}
	r->op = xstrdup(op->valuestring);
	r->stage = cJSON_IsTrue(stage);
	m->n++;
	return 0;
}

int kmap_parse(struct kmap **out, const char *json, const char *path)
{
	cJSON *doc = NULL;
	const cJSON *rules, *o;
	struct kmap *m;
	int rc, idx = 0;

	if ((rc = jsonutil_parse_text(&doc, json, path, 1)) < 0)
		return rc;
	rules = cJSON_IsObject(doc) ?
		cJSON_GetObjectItemCaseSensitive(doc, "rules") : doc;
	if (!cJSON_IsArray(rules)) {
		cJSON_Delete(doc);
		return pc_error_set(PC_EINVALID, "%s: expected an array of "
				    "rules or {\"rules\": [...]}", path);
	}
	m = xcalloc(1, sizeof(*m));
	cJSON_ArrayForEach(o, rules) {
		if ((rc = add_rule(m, o, idx++, path)) < 0) {
			kmap_free(m);
			cJSON_Delete(doc);
			return rc;
		}
	}
	cJSON_Delete(doc);
	*out = m;
	return 0;
}

int kmap_load(struct kmap **out, const char *path)
{
	FILE *fp;
	cJSON *doc = NULL;
	char *text;
	int rc;

	if ((rc = util_fopen_regular(&fp, path, "mapping rules")) < 0)
		return rc;
	rc = jsonutil_parse_file(&doc, fp, path, 16u << 20);
	fclose(fp);
	if (rc < 0)
		return rc;
	text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	rc = kmap_parse(out, text, path);
	free(text);
	return rc;
}

const char *kmap_lookup(const struct kmap *m, const char *raw)
{
	return kmap_lookup_stage(m, raw, NULL);
}

const char *kmap_lookup_stage(const struct kmap *m, const char *raw,
			      int *stage)
{
	if (stage)
		*stage = 0;
	if (!m)
		return NULL;
	for (size_t i = 0; i < m->n; i++)
		if (regexec(&m->rules[i].re, raw, 0, NULL, 0) == 0) {
			if (stage)
				*stage = m->rules[i].stage;
			return m->rules[i].op;
		}
	return NULL;
}
