#ifndef PC_IMPORTERS_YAMLSUB_SCALAR_H
#define PC_IMPORTERS_YAMLSUB_SCALAR_H
/*
 * Inside yamlsub (yamlsub.h): the scalars (plain, quoted over several
 * lines, block scalars), the one-line flow collections and the keys,
 * with YAML 1.1's resolution of plain scalars as PyYAML does it. The
 * block structure (yamlsub.c) hands over a position; lines are read
 * back through yamlsub_line().
 */
#include <stddef.h>

struct cJSON;
struct ys;

struct yamlsub_src {
	const char *path;
	struct ys *y;
};

/* Line i (NULL past the end), its indentation and number. */
const char *yamlsub_line(const struct yamlsub_src *src, size_t i, int *ind,
			 long *lineno);
/* The first line after the node just read. */
void yamlsub_set_next(const struct yamlsub_src *src, size_t i);

/* The scalar or flow collection at line i, column col; continuation
 * lines must be indented more than parent. */
int yamlsub_scalar_node(const struct yamlsub_src *src, size_t i, int col,
			int parent, struct cJSON **out);

/* The one-line flow collection at *pp ('[' or '{'); *pp is left past
 * it. line: for messages. */
int yamlsub_flow(const struct yamlsub_src *src, long line, const char **pp,
		 struct cJSON **out);

/* A plain scalar's value as PyYAML resolves it (YAML 1.1): null, bool,
 * int, float (.nan: null), else the string. */
struct cJSON *yamlsub_resolve(const char *text);

/* One escape of a double-quoted scalar after its '\\' at *pp, appended
 * to b as UTF-8; *pp past it. -1 when unknown (or \\0, a NUL). */
struct strbuf;
int yamlsub_escape(struct strbuf *b, const char **pp);

/* The key s .. kend (the ':'), quoted or plain, into *out (caller
 * frees). */
int yamlsub_key(char **out, const char *s, const char *kend,
		const char *path, long line);

#endif
