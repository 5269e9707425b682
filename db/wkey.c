/* Canonical workload keys (see wkey.h). */
#include "db/wkey.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

static const struct {
	const char *alias, *canon;
} aliases[] = {
	{ "batch", "bs" }, { "batch_size", "bs" }, { "batchsize", "bs" },
	{ "seq_len", "seq" }, { "seqlen", "seq" }, { "sequence_length", "seq" },
	{ "seq_length", "seq" },
	{ "dtype", "precision" }, { "prec", "precision" },
	{ "stage", "phase" },
	{ "tensor_parallel_size", "tp" }, { "tensor_parallel", "tp" },
	{ "model", "name" }, { "model_id", "name" }, { "workload", "name" },
};

static const char *const phases[] = { "prefill", "decode", "mixed", NULL };
static const char *const precisions[] = {
	"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "e4m3", "e5m2",
	"int8", "int4", "fp4", "nvfp4", "mxfp4", "w8a8", "w4a16", "w4a8", NULL
};

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

const char *wkey_canon_name(const char *name)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i].alias, name))
			return aliases[i].canon;
	return name;
}

void wkey_init(struct wkey *k)
{
	memset(k, 0, sizeof(*k));
}

void wkey_release(struct wkey *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->params[i].name);
		free(k->params[i].value);
	}
	free(k->params);
	free(k->name);
	wkey_init(k);
}

void wkey_copy(struct wkey *dst, const struct wkey *src)
{
	wkey_release(dst);
	dst->name = src->name ? xstrdup(src->name) : NULL;
	dst->cap = dst->n = src->n;
	dst->params = xcalloc(src->n, sizeof(*dst->params));
	for (size_t i = 0; i < src->n; i++) {
		dst->params[i].name = xstrdup(src->params[i].name);
		dst->params[i].value = xstrdup(src->params[i].value);
	}
}

/* Whether t is an integer as "%.0f" writes it: "0", or 1 to 15 digits
 * without a leading zero (below 1e15: what norm_value formats). */
static int plain_int(const char *t)
{
	size_t n = 0;

	if (t[0] == '0')
		return t[1] == '\0';
	while (t[n] >= '0' && t[n] <= '9')
		n++;
	return n && n <= 15 && t[n] == '\0';
}

/* Normalise a value: trimmed, lower-case for phase/precision, integral
 * numbers without a fraction, '/' replaced (it separates key parts). */
static char *norm_value(const char *name, const char *value)
{
	char *v = xstrdup(value), *t = util_trim(v), *out;
	double d;

	if (plain_int(t)) {	/* the sweep's bs=8: as it would format */
		memmove(v, t, strlen(t) + 1);
		return v;
	}

	if (!strcmp(name, "phase") || !strcmp(name, "precision") ||
	    !strcmp(name, "mode"))
		for (char *p = t; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	if (util_parse_double(t, &d) == 0 && d == floor(d) &&
	    fabs(d) < 1e15)
		out = xasprintf("%.0f", d);
	else
		out = xstrdup(t);
	free(v);
	for (char *p = out; *p; p++)
		if (*p == '/')
			*p = '_';
	return out;
}

char *wkey_canon_value(const char *name, const char *value)
{
	return norm_value(wkey_canon_name(name), value);
}

/* A workload name as it must read back from a formatted key: '/'-parts
 * trimmed, empty parts dropped; a part that would parse as a parameter
 * ("a=b") or as a phase or precision is PC_EINVALID (NULL returned). */
static char *norm_name(const char *value)
{
	char *copy = xstrdup(value), *save = NULL, *seg, low[32];
	struct strbuf sb = STRBUF_INIT;
	size_t j;

	for (seg = strtok_r(copy, "/", &save); seg;
	     seg = strtok_r(NULL, "/", &save)) {
		seg = util_trim(seg);
		if (!*seg)
			continue;
		for (j = 0; seg[j] && j < sizeof(low) - 1; j++)
			low[j] = (char)tolower((unsigned char)seg[j]);
		low[j] = '\0';
		if (strchr(seg, '=') || in_list(phases, low) ||
		    in_list(precisions, low)) {
			pc_error_set(PC_EINVALID, "workload name '%s': part "
				     "'%s' would read as a parameter, phase or "
				     "precision", value, seg);
			free(copy);
			strbuf_release(&sb);
			return NULL;
		}
		if (sb.len)
			strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, seg);
	}
	free(copy);
	return strbuf_detach(&sb);
}

const char *wkey_get(const struct wkey *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->params[i].name, name))
			return k->params[i].value;
	return NULL;
}

int wkey_set(struct wkey *k, const char *name, const char *value)
{
	const char *canon = wkey_canon_name(name);
	char *v;
	size_t i;

	if (!*canon)
		return pc_error_set(PC_EINVALID, "empty parameter name");
	if (strchr(canon, '/') || strchr(canon, '='))
		return pc_error_set(PC_EINVALID,
			"parameter name '%s' may not contain '/' or '='", name);
	if (!strcmp(canon, "name")) {
		char *nv = norm_name(value);

		if (!nv)
			return PC_EINVALID;
		if (k->name && strcmp(k->name, nv)) {
			pc_error_set(PC_EINVALID, "conflicting workload names "
				     "'%s' and '%s'", k->name, nv);
			free(nv);
			return PC_EINVALID;
		}
		free(k->name);
		k->name = nv;
		return 0;
	}
	v = norm_value(canon, value);
	for (i = 0; i < k->n; i++) {
		int c = strcmp(k->params[i].name, canon);

		if (c == 0) {
			if (strcmp(k->params[i].value, v)) {
				pc_error_set(PC_EINVALID, "conflicting values "
					"for workload parameter '%s': '%s' and "
					"'%s'", canon, k->params[i].value, v);
				free(v);
				return PC_EINVALID;
			}
			free(v);
			return 0;
		}
		if (c > 0)
			break;
	}
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 8;
		k->params = xrealloc(k->params, k->cap * sizeof(*k->params));
	}
	memmove(&k->params[i + 1], &k->params[i],
		(k->n - i) * sizeof(*k->params));
	k->params[i].name = xstrdup(canon);
	k->params[i].value = v;
	k->n++;
	return 0;
}

int wkey_parse(struct wkey *k, const char *text)
{
	char *copy = xstrdup(text), *save = NULL, *seg;
	struct strbuf name = STRBUF_INIT;
	int rc = 0, after_kv = 0;

	for (seg = strtok_r(copy, "/", &save); seg && !rc;
	     seg = strtok_r(NULL, "/", &save)) {
		char *eq, low[32];
		size_t j;

		/* blank segments ("a/ /b", "a/\v") would make a name that
		 * formats with a trailing '/' and parses back differently */
		seg = util_trim(seg);
		if (!*seg)
			continue;
		eq = strchr(seg, '=');
		if (eq) {
			*eq = '\0';
			rc = wkey_set(k, util_trim(seg), eq + 1);
			after_kv = 1;
			continue;
		}
		for (j = 0; seg[j] && j < sizeof(low) - 1; j++)
			low[j] = (char)tolower((unsigned char)seg[j]);
		low[j] = '\0';
		if (in_list(phases, low))
			rc = wkey_set(k, "phase", low);
		else if (in_list(precisions, low))
			rc = wkey_set(k, "precision", low);
		else if (after_kv)
			/* "bert/bs=2/training" must not become the name
			 * "bert/training" */
			rc = pc_error_set(PC_EINVALID, "workload '%s': the bare "
				"word '%s' after a k=v part would be merged into "
				"the name; put it before the parameters (part of "
				"the name) or make it a parameter (mode=%s for a "
				"training or inference study)", text, seg, seg);
		else {
			if (name.len)
				strbuf_addch(&name, '/');
			strbuf_addstr(&name, seg);
		}
	}
	if (!rc && name.len)
		rc = wkey_set(k, "name", name.buf);
	if (!rc && (!k->name || !*k->name))
		rc = pc_error_set(PC_EINVALID, "workload '%s' has no name",
				  text);
	strbuf_release(&name);
	free(copy);
	return rc;
}

char *wkey_format(const struct wkey *k)
{
	struct strbuf sb = STRBUF_INIT;
	const char *phase = wkey_get(k, "phase");
	const char *prec = wkey_get(k, "precision");

	/* bare only when parsing recognises them again */
	if (phase && !in_list(phases, phase))
		phase = NULL;
	if (prec && !in_list(precisions, prec))
		prec = NULL;

	strbuf_addstr(&sb, k->name ? k->name : "");
	if (phase) {
		strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, phase);
	}
	for (size_t i = 0; i < k->n; i++) {
		const char *n = k->params[i].name;

		if ((!strcmp(n, "phase") && phase) ||
		    (!strcmp(n, "precision") && prec))
			continue;
		strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, n);
		strbuf_addch(&sb, '=');
		strbuf_addstr(&sb, k->params[i].value);
	}
	if (prec) {
		strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, prec);
	}
	return strbuf_detach(&sb);
}

char *wkey_params_json(const struct wkey *k)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addch(&sb, '{');
	for (size_t i = 0; i < k->n; i++) {
		if (i)
			strbuf_addch(&sb, ',');
		strbuf_add_json_str(&sb, k->params[i].name);
		strbuf_addch(&sb, ':');
		strbuf_add_json_str(&sb, k->params[i].value);
	}
	strbuf_addch(&sb, '}');
	return strbuf_detach(&sb);
}
