/* One value of a JSON stream as a cJSON tree (see jsonstream.h). */
#include "base/jsonstream.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/jsonstream_int.h"
#include "base/util.h"

struct build {
	struct jsonstream *js;
	long long start, skipped;	/* input bytes: where, how many dropped */
	size_t max;
	long line;			/* of the value, for the cap's message */
	jsonstream_keep_fn keep;
	void *ctx;
};

static int too_big(struct build *b)
{
	b->js->failed = 1;
	return pc_error_set(PC_EINVALID, "%s:%ld: JSON document larger than "
			    "%zu MiB (the most perfcorr holds in memory at once: "
			    "a parsed tree takes ~40 bytes per byte)",
			    b->js->path, b->line, b->max >> 20);
}

static int next(struct build *b, struct jsonstream_tok *t)
{
	int rc = jsonstream_next(b->js, t);

	if (rc == 0 && jsonstream_offset(b->js) - b->start - b->skipped >
	    (long long)b->max)
		return too_big(b);
	return rc;
}

static int nul_inside(struct build *b, const struct jsonstream_tok *t)
{
	if (!memchr(t->str, '\0', t->len))
		return 0;
	b->js->failed = 1;
	return pc_error_set(PC_EINVALID, "%s:%ld:%ld: a \\u0000 (NUL) inside a "
			    "string (a name would be cut there)", b->js->path,
			    t->line, t->col);
}

static int build(struct build *b, const struct jsonstream_tok *t,
		 cJSON **out, int outer);

static int members(struct build *b, cJSON *obj, int outer)
{
	struct jsonstream_tok k, v;
	cJSON *child;
	char *name;
	int rc;

	for (;;) {
		if ((rc = next(b, &k)) < 0)
			return rc;
		if (k.type == JS_OBJECT_END)
			return 0;
		if ((rc = nul_inside(b, &k)) < 0)
			return rc;
		name = xstrdup(k.str);
		if ((rc = next(b, &v)) < 0) {
			free(name);
			return rc;
		}
		if (outer && b->keep && !b->keep(name, &v, obj, b->ctx)) {
			free(name);
			if ((rc = jsonstream_skip(b->js, &v)) < 0)
				return rc;
			b->skipped += jsonstream_offset(b->js) - k.byte;
			continue;
		}
		if ((rc = build(b, &v, &child, 0)) < 0) {
			free(name);
			return rc;
		}
		child->string = name;
		cJSON_AddItemToArray(obj, child);
	}
}

static int elements(struct build *b, cJSON *arr)
{
	struct jsonstream_tok e;
	cJSON *child;
	int rc;

	for (;;) {
		if ((rc = next(b, &e)) < 0)
			return rc;
		if (e.type == JS_ARRAY_END)
			return 0;
		if ((rc = build(b, &e, &child, 0)) < 0)
			return rc;
		cJSON_AddItemToArray(arr, child);
	}
}

static int build(struct build *b, const struct jsonstream_tok *t,
		 cJSON **out, int outer)
{
	cJSON *v = NULL;
	int rc = 0;

	switch (t->type) {
	case JS_OBJECT:
		v = cJSON_CreateObject();
		rc = members(b, v, outer);
		break;
	case JS_ARRAY:
		v = cJSON_CreateArray();
		rc = elements(b, v);
		break;
	case JS_STRING:
		if ((rc = nul_inside(b, t)) == 0)
			v = cJSON_CreateString(t->str);
		break;
	case JS_NUMBER:
		/* as the old reader's rewrite of Python's NaN: a missing value */
		v = t->nan ? cJSON_CreateString("-") : cJSON_CreateNumber(t->num);
		break;
	case JS_TRUE:
		v = cJSON_CreateTrue();
		break;
	case JS_FALSE:
		v = cJSON_CreateFalse();
		break;
	case JS_NULL:
		v = cJSON_CreateNull();
		break;
	default:
		rc = pc_error_set(PC_ERR, "%s: jsonstream_tree: no value",
				  b->js->path);
	}
	if (rc == 0 && !v) {
		fprintf(stderr, "perfcorr: out of memory\n");
		abort();
	}
	if (rc < 0) {
		cJSON_Delete(v);
		return rc;
	}
	*out = v;
	return 0;
}

int jsonstream_tree(struct jsonstream *js, const struct jsonstream_tok *tok,
		    cJSON **out, size_t max, jsonstream_keep_fn keep, void *ctx)
{
	struct build b = { .js = js, .start = tok->byte, .max = max,
			   .line = tok->line, .keep = keep, .ctx = ctx };

	return build(&b, tok, out, 1);
}
