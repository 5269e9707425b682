/* Sidecar manifests NAME.perfcorr.json (see watch.h, docs/service.md). */
#include "src/watch/watch.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonutil.h"
#include "base/error.h"
#include "base/util.h"

enum mtype { M_STR, M_NUM, M_OBJ, M_SIZE, M_SHA };

struct mkey {
	const char *name;
	enum mtype type;
	size_t off;		/* of the char * field, M_STR only */
};

#define S(f) { #f, M_STR, offsetof(struct watch_manifest, f) }
static const struct mkey keys[] = {
	S(source), S(kind), S(version), S(format), S(platform), S(workload),
	S(map),
	{ "clock_mhz", M_NUM, 0 },
	{ "params", M_OBJ, 0 },
	{ "opts", M_OBJ, 0 },
	{ "size", M_SIZE, 0 },
	{ "sha256", M_SHA, 0 },
	{ "comment", M_STR, (size_t)-1 },
};
#undef S
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

void watch_manifest_release(struct watch_manifest *m)
{
	char **lists[2] = { m->params, m->opts };

	free(m->source);
	free(m->kind);
	free(m->version);
	free(m->format);
	free(m->platform);
	free(m->workload);
	free(m->map);
	free(m->sha256);
	for (int i = 0; i < 2; i++) {
		for (char **p = lists[i]; p && *p; p++)
			free(*p);
		free(lists[i]);
	}
	memset(m, 0, sizeof(*m));
	m->clock_hz = NAN;
	m->size = -1;
}

/* {"k": "v" | number | bool, ...} -> NULL-terminated "k=v" list. */
static int kv_list(char ***out, const cJSON *obj, const char *what,
		   const char *path)
{
	int n = cJSON_GetArraySize(obj), i = 0;
	char **list = xcalloc((size_t)n + 1, sizeof(*list));
	const cJSON *p;

	cJSON_ArrayForEach(p, obj) {
		const char *val = jsonutil_scalar(p);

		if (!val || !*p->string || strchr(p->string, '=')) {
			for (int j = 0; j < i; j++)
				free(list[j]);
			free(list);
			return pc_error_set(PC_EINVALID, "%s: %s.'%s': expected "
				"a name without '=' and a string or number",
				path, what, p->string);
		}
		list[i++] = xasprintf("%s=%s", p->string, val);
	}
	*out = list;
	return 0;
}

static int set_key(struct watch_manifest *m, const struct mkey *k,
		   const cJSON *v, const char *path)
{
	if (k->type == M_STR) {
		if (!cJSON_IsString(v))
			return pc_error_set(PC_EINVALID, "%s: '%s' must be a "
					    "string", path, k->name);
		if (k->off != (size_t)-1) {
			char **dst = (char **)((char *)m + k->off);

			free(*dst);
			*dst = xstrdup(v->valuestring);
		}
		return 0;
	}
	if (k->type == M_SIZE) {
		/* whole bytes, exactly representable in a double */
		if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) ||
		    v->valuedouble > 9007199254740992.0 ||
		    v->valuedouble != floor(v->valuedouble))
			return pc_error_set(PC_EINVALID, "%s: 'size' must be "
					    "a whole number of bytes", path);
		m->size = (long long)v->valuedouble;
		return 0;
	}
	if (k->type == M_SHA) {
		const char *h = cJSON_IsString(v) ? v->valuestring : "";
		size_t i;

		for (i = 0; h[i] && strchr("0123456789abcdefABCDEF", h[i]); i++)
			;
		if (i != 64 || h[i])
			return pc_error_set(PC_EINVALID, "%s: 'sha256' must be "
					    "64 hex digits", path);
		free(m->sha256);
		m->sha256 = xstrdup(h);
		for (char *c = m->sha256; *c; c++)
			if (*c >= 'A' && *c <= 'F')
				*c = (char)(*c - 'A' + 'a');
		return 0;
	}
	if (k->type == M_NUM) {
		if (!cJSON_IsNumber(v) || !(v->valuedouble > 0) ||
		    !isfinite(v->valuedouble))
			return pc_error_set(PC_EINVALID, "%s: '%s' must be a "
					    "positive number", path, k->name);
		m->clock_hz = v->valuedouble * 1e6;
		return 0;
	}
	if (!cJSON_IsObject(v))
		return pc_error_set(PC_EINVALID, "%s: '%s' must be an object",
				    path, k->name);
	if (!strcmp(k->name, "params")) {
		if (m->params)
			return pc_error_set(PC_EINVALID, "%s: duplicate "
					    "'params'", path);
		return kv_list(&m->params, v, "params", path);
	}
	if (m->opts)
		return pc_error_set(PC_EINVALID, "%s: duplicate 'opts'", path);
	return kv_list(&m->opts, v, "opts", path);
}

int watch_manifest_parse(struct watch_manifest *out, const char *text,
			 size_t len, const char *path)
{
	char *buf = xstrndup(text, len);
	cJSON *doc = NULL;
	const cJSON *v;
	int rc;

	memset(out, 0, sizeof(*out));
	out->clock_hz = NAN;
	out->size = -1;
	if (strlen(buf) != len) {
		rc = pc_error_set(PC_EINVALID, "%s: NUL byte in manifest", path);
		goto done;
	}
	if ((rc = jsonutil_parse_text(&doc, buf, path, 1)) < 0)
		goto done;
	if (!cJSON_IsObject(doc)) {
		rc = pc_error_set(PC_EINVALID, "%s: expected a JSON object",
				  path);
		goto done;
	}
	cJSON_ArrayForEach(v, doc) {
		size_t i;

		for (i = 0; i < N_KEYS; i++)
			if (!strcmp(v->string, keys[i].name))
				break;
		if (i == N_KEYS) {
			rc = pc_error_set(PC_EINVALID, "%s: unknown key '%s' "
				"(expected source, kind, version, format, "
				"platform, clock_mhz, workload, params, opts, "
				"map, size, sha256, comment)", path, v->string);
			goto done;
		}
		if ((rc = set_key(out, &keys[i], v, path)) < 0)
			goto done;
	}
	if (!out->source || !*out->source)
		rc = pc_error_set(PC_EINVALID, "%s: 'source' is required",
				  path);
done:
	cJSON_Delete(doc);
	free(buf);
	if (rc < 0)
		watch_manifest_release(out);
	return rc;
}
