/* yamlsub's one-line flow collections and its keys (see
 * yamlsub_scalar.h). */
#include "importers/yamlsub_scalar.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

static int serr(const struct yamlsub_src *src, long line, const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: YAML: %s", src->path, line,
			    what);
}

/* ---- flow collections on one line: [a, b], {k: v, "k": v} ---- */

struct flow {
	const struct yamlsub_src *src;
	long line;
	int depth;
};

static int flow_value(struct flow *f, const char **pp, cJSON **out);

static void blanks(const char **pp)
{
	while (**pp == ' ' || **pp == '\t')
		(*pp)++;
}

/* A quoted or plain scalar in a flow; as_key stops plain text at ':'. */
static int flow_scalar(struct flow *f, const char **pp, int as_key,
		       cJSON **out, char **text)
{
	const char *p = *pp;
	struct strbuf b = STRBUF_INIT;

	if (*p == '\'' || *p == '"') {
		char q = *p;

		for (p++;; p++) {
			if (!*p) {
				strbuf_release(&b);
				return serr(f->src, f->line, "a quoted scalar "
					    "not closed on its line (a flow "
					    "over several lines: not read)");
			}
			if (*p == q && q == '\'' && p[1] == '\'') {
				strbuf_addch(&b, '\'');
				p++;
			} else if (*p == q) {
				p++;
				break;
			} else if (q == '"' && *p == '\\') {
				p++;
				if (yamlsub_escape(&b, &p) < 0) {
					strbuf_release(&b);
					return serr(f->src, f->line, "an unknown "
						    "escape");
				}
				p--;
			} else {
				strbuf_addch(&b, *p);
			}
		}
		if (text)
			*text = strbuf_detach(&b);
		else
			*out = cJSON_CreateString(b.buf ? b.buf : "");
	} else {
		const char *st = p;
		size_t n;

		while (*p && !strchr(",[]{}", *p) &&
		       !(*p == ':' && (as_key || p[1] == ' ' ||
				       strchr(",]}", p[1]))) &&
		       !(*p == '#' && p > st && p[-1] == ' '))
			p++;
		n = (size_t)(p - st);
		while (n && (st[n - 1] == ' ' || st[n - 1] == '\t'))
			n--;
		strbuf_add(&b, st, n);
		if (text)
			*text = strbuf_detach(&b);
		else
			*out = yamlsub_resolve(b.buf ? b.buf : "");
	}
	strbuf_release(&b);
	*pp = p;
	return 0;
}

static int flow_seq(struct flow *f, const char **pp, cJSON **out)
{
	cJSON *a = cJSON_CreateArray(), *v;
	const char *p = *pp + 1;
	int rc;

	for (blanks(&p); *p != ']';) {
		if ((rc = flow_value(f, &p, &v)) < 0)
			goto bad;
		cJSON_AddItemToArray(a, v);
		blanks(&p);
		if (*p == ',') {
			p++;
			blanks(&p);
		} else if (*p != ']') {
			rc = serr(f->src, f->line, "expected ',' or ']' (a "
				  "flow sequence over several lines: not "
				  "read)");
			goto bad;
		}
	}
	*pp = p + 1;
	*out = a;
	return 0;
bad:
	cJSON_Delete(a);
	return rc;
}

static int flow_map(struct flow *f, const char **pp, cJSON **out)
{
	cJSON *m = cJSON_CreateObject(), *v;
	const char *p = *pp + 1;
	int rc;

	for (blanks(&p); *p != '}';) {
		char *key = NULL;

		if (*p == '?' && (p[1] == ' ' || !p[1])) {
			rc = serr(f->src, f->line, "a complex key ('? '): not "
				  "read");
			goto bad;
		}
		if ((rc = flow_scalar(f, &p, 1, NULL, &key)) < 0)
			goto bad;
		blanks(&p);
		if (*p == ':') {
			p++;
			blanks(&p);
			if (*p == ',' || *p == '}')
				v = cJSON_CreateNull();
			else if ((rc = flow_value(f, &p, &v)) < 0) {
				free(key);
				goto bad;
			}
		} else {
			v = cJSON_CreateNull();
		}
		if (cJSON_GetObjectItemCaseSensitive(m, key)) {
			free(key);
			cJSON_Delete(v);
			rc = serr(f->src, f->line, "a key given twice in one "
				  "mapping");
			goto bad;
		}
		cJSON_AddItemToObject(m, key, v);
		free(key);
		blanks(&p);
		if (*p == ',') {
			p++;
			blanks(&p);
		} else if (*p != '}') {
			rc = serr(f->src, f->line, "expected ',' or '}' (a "
				  "flow mapping over several lines: not "
				  "read)");
			goto bad;
		}
	}
	*pp = p + 1;
	*out = m;
	return 0;
bad:
	cJSON_Delete(m);
	return rc;
}

static int flow_value(struct flow *f, const char **pp, cJSON **out)
{
	int rc;

	blanks(pp);
	if (++f->depth > 200)
		return serr(f->src, f->line, "nested deeper than 200 levels");
	if (**pp == '[')
		rc = flow_seq(f, pp, out);
	else if (**pp == '{')
		rc = flow_map(f, pp, out);
	else if (**pp && strchr("&*!|>%@`", **pp))
		rc = serr(f->src, f->line, "an anchor, alias, tag or "
			  "reserved indicator: not read");
	else
		rc = flow_scalar(f, pp, 0, out, NULL);
	f->depth--;
	return rc;
}

int yamlsub_flow(const struct yamlsub_src *src, long line, const char **pp,
		 cJSON **out)
{
	struct flow f = { .src = src, .line = line };

	return flow_value(&f, pp, out);
}

int yamlsub_key(char **out, const char *s, const char *kend,
		const char *path, long line)
{
	struct yamlsub_src src = { .path = path };
	struct flow f = { .src = &src, .line = line };
	const char *p = s;
	size_t n = (size_t)(kend - s);

	if (*s == '\'' || *s == '"')
		return flow_scalar(&f, &p, 1, NULL, out);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	*out = xstrndup(s, n);
	return 0;
}
