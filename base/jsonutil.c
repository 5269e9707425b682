/* JSON helpers for importers (see jsonutil.h). */
#include "base/jsonutil.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

static int parse_error(const char *text, const char *path, long line0)
{
	const char *err = cJSON_GetErrorPtr(), *p;
	long line = line0, col = 1;

	if (!err)
		return pc_error_set(PC_EINVALID, "%s: invalid JSON", path);
	for (p = text; p < err && *p; p++) {
		if (*p == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	return pc_error_set(PC_EINVALID, "%s:%ld:%ld: invalid JSON near '%.20s'",
			    path, line, col, err);
}

/* "\u0000" decodes to a NUL that cuts the string (a name) there. */
static int escaped_nul(const char *text, const char *path, long line)
{
	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			line++;
		if (*p != '\\' || !p[1])
			continue;
		if (p[1] == 'u' && !strncmp(p + 2, "0000", 4))
			return pc_error_set(PC_EINVALID, "%s:%ld: a \\u0000 (NUL) "
					    "inside a string (a name would be "
					    "cut there)", path, line);
		p++;	/* the escaped character */
	}
	return 0;
}

const char *jsonutil_start(const char *text)
{
	if (!strncmp(text, "\xef\xbb\xbf", 3))
		text += 3;
	while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n')
		text++;
	return text;
}

int jsonutil_parse_text(cJSON **out, const char *text, const char *path,
			long line)
{
	cJSON *doc;

	if (escaped_nul(text, path, line) < 0)
		return PC_EINVALID;
	doc = cJSON_Parse(text);

	if (!doc)
		return parse_error(text, path, line);
	*out = doc;
	return 0;
}

int jsonutil_parse_file(cJSON **out, FILE *fp, const char *path, size_t max)
{
	size_t len = 0, cap = 65536, n;
	char *buf = xmalloc(cap);
	int rc;

	while ((n = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
		len += n;
		if (len > max) {
			free(buf);
			return pc_error_set(PC_EINVALID, "%s: JSON document "
				"larger than %zu MiB (the most perfcorr reads "
				"as one document: parsing takes ~40 bytes of "
				"memory per byte); split it into smaller files",
				path, max >> 20);
		}
		if (cap - len - 1 == 0) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	if (ferror(fp)) {
		free(buf);
		return pc_error_set(PC_EIO, "%s: read error", path);
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		return pc_error_set(PC_EINVALID, "%s: NUL byte in JSON", path);
	}
	/* after a BOM: cJSON takes it for a stray byte */
	rc = jsonutil_parse_text(out, buf + (strncmp(buf, "\xef\xbb\xbf", 3) ?
					     0 : 3), path, 1);
	free(buf);
	return rc;
}

const char *jsonutil_scalar(const cJSON *v)
{
	static char buf[64];

	if (cJSON_IsString(v))
		return v->valuestring;
	if (cJSON_IsNumber(v)) {
		snprintf(buf, sizeof(buf), "%.17g", v->valuedouble);
		/* prefer the short form when it reads back the same */
		for (int p = 6; p < 17; p++) {
			char t[64];

			snprintf(t, sizeof(t), "%.*g", p, v->valuedouble);
			if (strtod(t, NULL) == v->valuedouble) {
				memcpy(buf, t, sizeof(t));
				break;
			}
		}
		return buf;
	}
	if (cJSON_IsBool(v))
		return cJSON_IsTrue(v) ? "true" : "false";
	return NULL;
}

int jsonutil_number(const cJSON *obj, const char *key, double *out,
		    const char *path)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v || cJSON_IsNull(v))
		return 1;
	if (!cJSON_IsNumber(v))
		return pc_error_set(PC_EINVALID, "%s: '%s' is not a number",
				    path, key);
	*out = v->valuedouble;
	return 0;
}
