/* Kernel-name mapping rules (see kmap.h). */
#include "src/kmap.h"

#include <cjson/cJSON.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "importers/jsonutil.h"
#include "src/error.h"
#include "src/util.h"

struct rule {
	regex_t re;
	char *op;
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

/*
 * glibc's regcomp expands bounded and '+' repetition by copying the
 * repeated subtree, so "((a{99}){99}){99}" or 40 nested "(...)+" need
 * gigabytes. Estimate the expanded size of an ERE (sum over a sequence,
 * x2 for '+', x max(m, n) for {m,n}) and refuse patterns that would not
 * fit in RE_MAX_NODES, or that stack repetitions, before regcomp sees
 * them. Found by fuzz_kmap.
 */
#define RE_MAX_NODES 100000.0

static double re_seq(const char **pp, int depth);

static const char *re_bracket(const char *p)
{
	p++;				/* '[' */
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (p[0] == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			char close = p[1];

			p += 2;
			while (*p && !(p[0] == close && p[1] == ']'))
				p++;
			if (*p)
				p += 2;
			continue;
		}
		p++;
	}
	return *p ? p + 1 : p;
}

static double re_quant(const char **pp, double size)
{
	const char *p = *pp;
	int n = 0;

	for (;; n++) {
		if (n == 1 && (*p == '*' || *p == '?' || *p == '+' ||
			       *p == '{')) {
			/* "a+*", "a{2}+": undefined in POSIX, and glibc's
			 * epsilon closure over stacked repeats takes seconds */
			size = RE_MAX_NODES * 2;
			break;
		}
		if (*p == '*' || *p == '?') {
			p++;
		} else if (*p == '+') {
			size *= 2;
			p++;
		} else if (*p == '{') {
			char *end;
			double lo = strtod(p + 1, &end), hi = lo;

			if (*end == ',')
				hi = end[1] == '}' ? lo + 1 : strtod(end + 1, &end);
			while (*end && *end != '}')
				end++;
			size *= (hi > lo ? hi : lo) > 1 ? (hi > lo ? hi : lo) : 1;
			p = *end ? end + 1 : end;
		} else {
			break;
		}
		if (size > RE_MAX_NODES)
			break;
	}
	*pp = p;
	return size;
}

/* Expanded size of a sequence up to ')' or the end; alternatives add. */
static double re_seq(const char **pp, int depth)
{
	const char *p = *pp;
	double total = 0, atom;

	while (*p && *p != ')' && total <= RE_MAX_NODES) {
		if (*p == '|' || *p == '^' || *p == '$') {
			p++;
			continue;
		}
		if (*p == '(') {
			p++;
			atom = depth > 100 ? RE_MAX_NODES * 2 : re_seq(&p, depth + 1);
			if (*p == ')')
				p++;
		} else if (*p == '[') {
			p = re_bracket(p);
			atom = 1;
		} else {
			p += p[0] == '\\' && p[1] ? 2 : 1;
			atom = 1;
		}
		total += re_quant(&p, atom + 1);
	}
	*pp = p;
	return total;
}

static int re_too_big(const char *re)
{
	double n = 0;

	while (*re && n <= RE_MAX_NODES) {
		n += re_seq(&re, 0);
		if (*re == ')')
			re++;
	}
	return n > RE_MAX_NODES;
}

static int add_rule(struct kmap *m, const cJSON *o, int idx, const char *path)
{
	const cJSON *match = cJSON_GetObjectItemCaseSensitive(o, "match");
	const cJSON *op = cJSON_GetObjectItemCaseSensitive(o, "op");
	const cJSON *icase = cJSON_GetObjectItemCaseSensitive(o, "icase");
	struct rule *r;
	int err, flags = REG_EXTENDED | REG_NOSUB;

	if (!cJSON_IsObject(o))
		return pc_error_set(PC_EINVALID, "%s: rule %d: not an object",
				    path, idx);
	for (const cJSON *k = o->child; k; k = k->next)
		if (strcmp(k->string, "match") && strcmp(k->string, "op") &&
		    strcmp(k->string, "comment") && strcmp(k->string, "icase"))
			return pc_error_set(PC_EINVALID, "%s: rule %d: unknown "
				"key '%s' (expected match, op, icase, comment)",
				path, idx, k->string);
	if (icase && !cJSON_IsBool(icase))
		return pc_error_set(PC_EINVALID, "%s: rule %d: 'icase' must be "
				    "true or false", path, idx);
	if (cJSON_IsTrue(icase))
		flags |= REG_ICASE;
	if (!cJSON_IsString(match) || !*match->valuestring)
		return pc_error_set(PC_EINVALID, "%s: rule %d: 'match' must be "
				    "a non-empty string", path, idx);
	if (!cJSON_IsString(op) || !*op->valuestring)
		return pc_error_set(PC_EINVALID, "%s: rule %d: 'op' must be a "
				    "non-empty string", path, idx);
	if (strlen(match->valuestring) > 4096 || re_too_big(match->valuestring))
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
	FILE *fp = fopen(path, "rb");
	cJSON *doc = NULL;
	char *text;
	int rc;

	if (!fp)
		return pc_error_set(PC_EIO, "cannot open mapping rules '%s'",
				    path);
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
	if (!m)
		return NULL;
	for (size_t i = 0; i < m->n; i++)
		if (regexec(&m->rules[i].re, raw, 0, NULL, 0) == 0)
			return m->rules[i].op;
	return NULL;
}
