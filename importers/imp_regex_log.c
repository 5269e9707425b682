/*
 * regex-log: in-house testbench logs, driven by a rules file (--rules
 * FILE): a JSON array (or {"rules": [...]}) of
 *   { "match": REGEX, "metric": NAME, "unit": U, "op": OP }
 * where REGEX may name groups (?<op>...), (?<value>...), (?<unit>...),
 * (?<workload>...) (also the (?P<name>...) spelling) and use \d \s \w.
 * It is translated to POSIX extended regex. Every rule is tried on every
 * line; each match is one result (repeated matches of one op are summed
 * as instances). "unit" and "op" give defaults for absent groups.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "importers/importer.h"
#include "base/jsonutil.h"
#include "importers/lines.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

enum group { G_OP, G_VALUE, G_UNIT, G_WORKLOAD, N_GROUPS };

#define MAX_GROUPS 31

static const char *const group_names[N_GROUPS] = { "op", "value", "unit",
						   "workload" };

struct rule {
	regex_t re;
	int compiled;
	char *metric, *unit, *op;
	int group[N_GROUPS];	/* capture index, 0 = none */
	size_t ngroups;
};

struct rules {
	struct rule *r;
	size_t n;
	const char *path;
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)head;
	(void)len;
	(void)filename;
	return 0;	/* only with --rules or --format regex-log */
}

static const char *class_out(char c)
{
	switch (c) {
	case 'd': return "[0-9]";
	case 'D': return "[^0-9]";
	case 's': return "[[:space:]]";
	case 'S': return "[^[:space:]]";
	case 'w': return "[[:alnum:]_]";
	case 'W': return "[^[:alnum:]_]";
	default: return NULL;
	}
}

static const char *class_in(char c)
{
	return c == 'd' ? "0-9" : c == 's' ? "[:space:]" : c == 'w' ?
	       "[:alnum:]_" : NULL;
}

/* A named group "(?<name>" or "(?P<name>" at p (just after '('). */
static int named_group(struct rule *r, const char **p, int idx,
		       const char *pat, int ri, const char *path)
{
	const char *s = *p, *e;

	if (s[0] != '?')
		return 0;
	if (s[1] == ':') {	/* (?:...) is captured in POSIX: fine */
		*p = s + 2;
		return 0;
	}
	s += s[1] == 'P' ? 2 : 1;
	if (*s != '<' || !(e = strchr(s, '>')))
		return pc_error_set(PC_EINVALID, "%s: rule %d: unsupported "
				    "group syntax in '%s'", path, ri, pat);
	for (int g = 0; g < N_GROUPS; g++)
		if ((size_t)(e - s - 1) == strlen(group_names[g]) &&
		    !strncmp(s + 1, group_names[g], (size_t)(e - s - 1))) {
			r->group[g] = idx;
			*p = e + 1;
			return 0;
		}
	return pc_error_set(PC_EINVALID, "%s: rule %d: unknown group '%.*s' "
			    "(expected op, value, unit or workload)", path,
			    ri, (int)(e - s - 1), s + 1);
}

/* Python-style pattern -> POSIX ERE, noting the named groups. */
static int translate(struct rule *r, const char *pat, struct strbuf *out,
		     int ri, const char *path)
{
	const char *p = pat;
	int in_br = 0, rc;

	while (*p) {
		char c = *p++;

		if (c == '\\' && *p) {
			const char *cl = in_br ? class_in(*p) : class_out(*p);

			if (cl)
				strbuf_addstr(out, cl);
			else if (in_br)
				strbuf_addch(out, *p);
			else {
				strbuf_addch(out, '\\');
				strbuf_addch(out, *p);
			}
			p++;
		} else if (in_br) {
			strbuf_addch(out, c);
			if (c == '[' && *p == ':') {
				const char *e = strstr(p, ":]");

				if (e) {
					strbuf_add(out, p, (size_t)(e + 2 - p));
					p = e + 2;
				}
			} else if (c == ']') {
				in_br = 0;
			}
		} else if (c == '[') {
			in_br = 1;
			strbuf_addch(out, c);
			if (*p == '^')
				strbuf_addch(out, *p++);
			if (*p == ']')
				strbuf_addch(out, *p++);
		} else if (c == '(') {
			strbuf_addch(out, c);
			r->ngroups++;
			if ((rc = named_group(r, &p, (int)r->ngroups, pat, ri,
					      path)) < 0)
				return rc;
		} else {
			strbuf_addch(out, c);
		}
	}
	return 0;
}

static const char *str_member(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int load_rule(struct rule *r, const cJSON *o, int ri, const char *path)
{
	const char *match = str_member(o, "match");
	const char *metric = str_member(o, "metric");
	struct strbuf ere = STRBUF_INIT;
	char msg[256];
	int rc;

	if (!cJSON_IsObject(o) || !match || !*match || !metric || !*metric)
		return pc_error_set(PC_EINVALID, "%s: rule %d: needs string "
				    "members 'match' and 'metric'", path, ri);
	r->metric = xstrdup(metric);
	r->unit = xstrdup(str_member(o, "unit") ? str_member(o, "unit") : "");
	r->op = str_member(o, "op") ? xstrdup(str_member(o, "op")) : NULL;
	if ((rc = translate(r, match, &ere, ri, path)) < 0)
		goto done;
	if (r->ngroups > MAX_GROUPS) {
		rc = pc_error_set(PC_EINVALID, "%s: rule %d: more than %d "
				  "groups", path, ri, MAX_GROUPS);
		goto done;
	}
	if (!r->group[G_VALUE]) {
		rc = pc_error_set(PC_EINVALID, "%s: rule %d: 'match' has no "
				  "(?<value>...) group", path, ri);
		goto done;
	}
	if (!r->group[G_OP] && !r->op) {
		rc = pc_error_set(PC_EINVALID, "%s: rule %d: no (?<op>...) "
				  "group and no 'op'", path, ri);
		goto done;
	}
	if (util_regex_too_big(strbuf_str(&ere))) {
		rc = pc_error_set(PC_EINVALID, "%s: rule %d: regex too large "
				  "once its repetitions are expanded", path, ri);
		goto done;
	}
	if ((rc = regcomp(&r->re, strbuf_str(&ere), REG_EXTENDED)) != 0) {
		regerror(rc, &r->re, msg, sizeof(msg));
		rc = pc_error_set(PC_EINVALID, "%s: rule %d: bad regex '%s': %s",
				  path, ri, match, msg);
		goto done;
	}
	r->compiled = 1;
done:
	strbuf_release(&ere);
	return rc;
}

static void rules_free(struct rules *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		if (rs->r[i].compiled)
			regfree(&rs->r[i].re);
		free(rs->r[i].metric);
		free(rs->r[i].unit);
		free(rs->r[i].op);
	}
	free(rs->r);
}

static int rules_load(struct rules *rs, const char *path)
{
	FILE *fp;
	cJSON *doc = NULL;
	const cJSON *arr, *o;
	int rc, i = 0;

	if ((rc = util_fopen_regular(&fp, path, "rules")) < 0)
		return rc;
	rc = jsonutil_parse_file(&doc, fp, path, 4u << 20);
	fclose(fp);
	if (rc < 0)
		return rc;
	arr = cJSON_IsArray(doc) ? doc :
	      cJSON_GetObjectItemCaseSensitive(doc, "rules");
	if (!cJSON_IsArray(arr) || !cJSON_GetArraySize(arr)) {
		cJSON_Delete(doc);
		return pc_error_set(PC_EINVALID, "%s: expected a non-empty "
				    "array of rules (or {\"rules\": [...]})",
				    path);
	}
	rs->r = xcalloc((size_t)cJSON_GetArraySize(arr), sizeof(*rs->r));
	cJSON_ArrayForEach(o, arr) {
		rs->n++;
		if ((rc = load_rule(&rs->r[i], o, i + 1, path)) < 0)
			break;
		i++;
	}
	cJSON_Delete(doc);
	return rc;
}

static char *capture(const char *s, const regmatch_t *m, int g)
{
	if (!g || m[g].rm_so < 0)
		return NULL;
	return xstrndup(s + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
}

static int apply(const struct rule *r, int ri, struct lines *l, const char *s,
		 struct imp_sink *sink, long *results)
{
	regmatch_t m[MAX_GROUPS + 1];
	struct imp_record rec;
	char *v, *op, *unit, *wl;
	int rc = 0;

	if (regexec(&r->re, s, r->ngroups + 1, m, 0) != 0)
		return 0;
	v = capture(s, m, r->group[G_VALUE]);
	op = capture(s, m, r->group[G_OP]);
	unit = capture(s, m, r->group[G_UNIT]);
	wl = capture(s, m, r->group[G_WORKLOAD]);
	imp_record_init(&rec);
	if (!v || csv_number(v, &rec.value) < 0 || rec.value != rec.value)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: rule %d: value '%s' is "
				  "not a number", l->path, l->line, ri,
				  v ? v : "");
	if (!rc) {
		rec.raw_name = op && *op ? op : r->op;
		rec.metric = r->metric;
		rec.unit = unit ? util_trim(unit) : r->unit;
		rec.workload = wl && *wl ? wl : NULL;
		rec.line = l->line;
		rc = sink->emit(sink, &rec);
		(*results)++;
	}
	free(v);
	free(op);
	free(unit);
	free(wl);
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	const char *path = imp_opt(in, "rules");
	struct rules rs = { NULL, 0, path };
	struct lines l;
	long results = 0;
	char *s;
	int rc;

	if (!path)
		return pc_error_set(PC_EUSAGE, "format regex-log needs --rules "
				    "FILE");
	if ((rc = rules_load(&rs, path)) < 0) {
		rules_free(&rs);
		return rc;
	}
	lines_init(&l, in->fp, in->path);
	l.whole = 1;	/* a cut last line is refused (a testbench ends its prints) */
	while ((rc = lines_read(&l, &s)) > 0) {
		for (size_t i = 0; i < rs.n && rc >= 0; i++)
			rc = apply(&rs.r[i], (int)i + 1, &l, s, sink, &results);
		if (rc < 0)
			break;
	}
	if (rc == 0 && !results)
		rc = pc_error_set(PC_EINVALID, "%s: no line matches a rule of "
				  "'%s'", in->path, path);
	lines_release(&l);
	rules_free(&rs);
	return rc < 0 ? rc : 0;
}

static const char *const opt_keys[] = { "rules", NULL };

const struct importer imp_regex_log = {
	.name = "regex-log",
	.kind = NULL,
	.desc = "any text log, with a rules file of regexes (--rules FILE; "
		"groups op, value, unit)",
	.probe = probe,
	.import = import,
	.options = opt_keys,
};
