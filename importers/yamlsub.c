/* The PyYAML-dump subset of YAML into cJSON (see yamlsub.h). */
#include "importers/yamlsub.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "importers/lines.h"
#include "importers/yamlsub_scalar.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#define DEPTH_MAX 200

struct yline {
	char *s;		/* the whole line, NUL-terminated */
	int ind;		/* leading spaces */
	int blank;		/* empty, spaces only, or a comment only */
};

struct ys {
	struct yline *l;
	size_t n, cap, i;
	size_t bytes;
	const char *path;
	long first_no;		/* number of l[0] */
	int depth;
};

static long no(const struct ys *y, size_t i)
{
	return y->first_no + (long)i;
}

static int err(const struct ys *y, size_t i, const char *what)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: YAML: %s", y->path,
			    no(y, i < y->n ? i : y->n ? y->n - 1 : 0), what);
}

static int add_line(void *ctx, long line, char *s)
{
	struct ys *y = ctx;
	struct yline *l;
	const char *p = s;

	y->bytes += strlen(s) + 1;
	if (y->bytes > YAMLSUB_MAX)
		return pc_error_set(PC_EINVALID, "%s:%ld: YAML document larger "
				    "than %u MiB", y->path, line,
				    YAMLSUB_MAX >> 20);
	if (!y->n)
		y->first_no = line;
	if (y->n == y->cap) {
		y->cap = y->cap ? 2 * y->cap : 256;
		y->l = xrealloc(y->l, y->cap * sizeof(*y->l));
	}
	l = &y->l[y->n++];
	l->s = xstrdup(s);
	while (*p == ' ')
		p++;
	l->ind = (int)(p - s);
	l->blank = !*p || *p == '#' || strspn(p, " \t") == strlen(p);
	if (*p == '\t' && !l->blank)
		return pc_error_set(PC_EINVALID, "%s:%ld: YAML: a tab in the "
				    "indentation", y->path, line);
	return 0;
}

/* Line i is a document marker ("---", "...") at column 0. */
static int doc_marker(const struct ys *y, size_t i)
{
	const char *s = y->l[i].s;

	return (!strncmp(s, "---", 3) || !strncmp(s, "...", 3)) &&
	       (s[3] == ' ' || !s[3]);
}

/* The next line that is not blank, from i; n when none. */
static size_t next_line(const struct ys *y, size_t i)
{
	while (i < y->n && y->l[i].blank)
		i++;
	return i;
}

static int node_at(struct ys *y, size_t i, int col, int parent,
		   cJSON **out);

/* A sequence item starts at s: "-" then a space or the end. */
static int is_item(const char *s)
{
	return s[0] == '-' && (s[1] == ' ' || s[1] == '\0');
}

/* Whether the text at s starts a mapping entry "key:"; *kend is set to
 * the ':' (the key is s .. *kend, quoted or plain). */
static int is_key(const char *s, const char **kend)
{
	const char *p;

	if (*s == '\'' || *s == '"') {
		char q = *s;

		for (p = s + 1; *p; p++) {
			if (*p == '\\' && q == '"' && p[1]) {
				p++;
				continue;
			}
			if (*p == q) {
				if (q == '\'' && p[1] == '\'') {
					p++;
					continue;
				}
				break;
			}
		}
		if (!*p)
			return 0;
		for (p++; *p == ' '; p++)
			;
		*kend = p;
		return *p == ':' && (p[1] == ' ' || !p[1]);
	}
	if (strchr("[{&*!|>%@`#", *s) || is_item(s))
		return 0;
	for (p = s; *p; p++) {
		if (*p == '#' && p > s && p[-1] == ' ')
			return 0;
		if (*p == ':' && (p[1] == ' ' || !p[1])) {
			*kend = p;
			return 1;
		}
	}
	return 0;
}

/* The rest of a line from s is empty or a comment. */
static int rest_empty(const char *s)
{
	while (*s == ' ')
		s++;
	return !*s || *s == '#';
}

static int block_seq(struct ys *y, size_t i, int col, cJSON **out)
{
	cJSON *seq = cJSON_CreateArray();
	int rc = 0;

	for (;;) {
		const char *s = y->l[i].s + col;
		cJSON *item = NULL;
		int c2 = col + 1;

		while (s[c2 - col] == ' ')
			c2++;
		if (rest_empty(y->l[i].s + c2)) {
			size_t j = next_line(y, i + 1);

			if (j < y->n && y->l[j].ind > col) {
				rc = node_at(y, j, y->l[j].ind, col, &item);
			} else {
				item = cJSON_CreateNull();
				y->i = i + 1;
			}
		} else {
			rc = node_at(y, i, c2, col, &item);
		}
		if (rc < 0)
			break;
		cJSON_AddItemToArray(seq, item);
		i = next_line(y, y->i);
		if (i >= y->n || y->l[i].ind < col || doc_marker(y, i))
			break;
		if (y->l[i].ind > col) {
			rc = err(y, i, "bad indentation (deeper than the "
				 "sequence's items)");
			break;
		}
		if (!is_item(y->l[i].s + col))
			break;	/* the parent mapping goes on */
	}
	y->i = i;
	if (rc < 0) {
		cJSON_Delete(seq);
		return rc;
	}
	*out = seq;
	return 0;
}

/* The value after "key:" whose rest starts at column c of line i. */
static int map_value(struct ys *y, size_t i, int c, int col, cJSON **out)
{
	size_t j;

	if (!rest_empty(y->l[i].s + c))
		return node_at(y, i, c, col, out);
	j = next_line(y, i + 1);
	if (j < y->n && y->l[j].ind > col)
		return node_at(y, j, y->l[j].ind, col, out);
	if (j < y->n && y->l[j].ind == col && is_item(y->l[j].s + col))
		return block_seq(y, j, col, out);	/* indentless */
	*out = cJSON_CreateNull();
	y->i = i + 1;
	return 0;
}

static int block_map(struct ys *y, size_t i, int col, cJSON **out)
{
	cJSON *map = cJSON_CreateObject();
	int rc = 0;

	for (;;) {
		const char *s = y->l[i].s + col, *kend = NULL;
		char *key = NULL;
		cJSON *v = NULL;
		int c;

		if (!strncmp(s, "? ", 2) || !strcmp(s, "?")) {
			rc = err(y, i, "a complex key ('? '): not read");
			break;
		}
		if (!is_key(s, &kend)) {
			rc = err(y, i, is_item(s) ? "a sequence item where a "
				 "mapping key was expected" : "expected "
				 "'key: value'");
			break;
		}
		if ((rc = yamlsub_key(&key, s, kend, y->path, no(y, i))) < 0)
			break;
		if (cJSON_GetObjectItemCaseSensitive(map, key)) {
			free(key);
			rc = err(y, i, "a key given twice in one mapping");
			break;
		}
		c = (int)(kend - y->l[i].s) + 1;
		while (y->l[i].s[c] == ' ')
			c++;
		if ((rc = map_value(y, i, c, col, &v)) < 0) {
			free(key);
			break;
		}
		cJSON_AddItemToObject(map, key, v);
		free(key);
		i = next_line(y, y->i);
		if (i >= y->n || y->l[i].ind < col || doc_marker(y, i))
			break;
		if (y->l[i].ind > col) {
			rc = err(y, i, "bad indentation (deeper than the "
				 "mapping's keys)");
			break;
		}
	}
	y->i = i;
	if (rc < 0) {
		cJSON_Delete(map);
		return rc;
	}
	*out = map;
	return 0;
}

/* The node whose first character is at line i, column col; lines
 * indented at most parent end it. */
static int node_at(struct ys *y, size_t i, int col, int parent,
		   cJSON **out)
{
	const char *s = y->l[i].s + col, *kend;
	struct yamlsub_src src = { .path = y->path, .y = y };
	int rc;

	if (++y->depth > DEPTH_MAX) {
		y->depth--;
		return err(y, i, "nested deeper than 200 levels");
	}
	if (is_item(s))
		rc = block_seq(y, i, col, out);
	else if (is_key(s, &kend) || !strncmp(s, "? ", 2))
		rc = block_map(y, i, col, out);
	else
		rc = yamlsub_scalar_node(&src, i, col, parent, out);
	y->depth--;
	return rc;
}

/* Line access for the scalar readers (yamlsub_scalar.c). */
const char *yamlsub_line(const struct yamlsub_src *src, size_t i, int *ind,
			 long *lineno)
{
	const struct ys *y = src->y;

	if (i >= y->n)
		return NULL;
	if (ind)
		*ind = y->l[i].ind;
	if (lineno)
		*lineno = no(y, i);
	return y->l[i].s;
}

void yamlsub_set_next(const struct yamlsub_src *src, size_t i)
{
	src->y->i = i;
}

int yamlsub_parse(cJSON **out, FILE *fp, const char *path)
{
	struct ys y;
	cJSON *root = NULL;
	size_t i;
	long rc;

	memset(&y, 0, sizeof(y));
	y.path = path;
	rc = lines_each_fp(fp, path, add_line, &y);
	if (rc >= 0) {
		i = next_line(&y, 0);
		if (i < y.n && !strncmp(y.l[i].s, "---", 3) &&
		    rest_empty(y.l[i].s + 3))
			i = next_line(&y, i + 1);
		if (i >= y.n)
			rc = pc_error_set(PC_EINVALID, "%s: no YAML document",
					  path);
		else if (y.l[i].ind)
			rc = err(&y, i, "the document starts indented");
		else
			rc = node_at(&y, i, 0, -1, &root);
	}
	if (rc >= 0 && (i = next_line(&y, y.i)) < y.n) {
		if (!strncmp(y.l[i].s, "...", 3) && next_line(&y, i + 1) == y.n)
			;
		else if (!strncmp(y.l[i].s, "---", 3))
			rc = err(&y, i, "a second document (one report per "
				 "file)");
		else
			rc = err(&y, i, "text after the document (bad "
				 "indentation?)");
	}
	for (i = 0; i < y.n; i++)
		free(y.l[i].s);
	free(y.l);
	if (rc < 0) {
		cJSON_Delete(root);
		return (int)rc;
	}
	*out = root;
	return 0;
}
