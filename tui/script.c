/* Scripted keys and :commands (see script.h). */
#include "tui/script.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "tui/keys.h"

struct script {
	char *path;
	char **lines;
	int nlines;
	int line;		/* index of the current line */
	const char *pos;	/* next key in lines[line], or NULL */
};

int script_open(struct script **out, const char *path)
{
	FILE *fp = fopen(path, "r");
	struct script *s;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!fp)
		return pc_error_set(PC_EIO, "cannot open script '%s': %s", path,
				    strerror(errno));
	s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	s->line = -1;
	while ((len = getline(&line, &cap, fp)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		s->lines = xrealloc(s->lines, (size_t)(s->nlines + 1) *
				    sizeof(*s->lines));
		s->lines[s->nlines++] = xstrdup(line);
	}
	free(line);
	fclose(fp);
	*out = s;
	return 0;
}

void script_free(struct script *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nlines; i++)
		free(s->lines[i]);
	free(s->lines);
	free(s->path);
	free(s);
}

enum script_item script_next(struct script *s, int *key, const char **cmd)
{
	while (!s->pos || !*s->pos) {
		const char *l;

		if (++s->line >= s->nlines) {
			s->line = s->nlines - 1;
			return SCRIPT_END;
		}
		l = s->lines[s->line];
		while (*l == ' ' || *l == '\t')
			l++;
		if (*l == '#')
			continue;
		if (*l == ':') {
			s->pos = NULL;
			*cmd = l + 1;
			return SCRIPT_CMD;
		}
		s->pos = l;
	}
	{
		const char *start = s->pos;

		*key = keys_parse(&s->pos);
		if (*key < 0) {
			pc_error_set(PC_EINVALID, "%s:%d: unknown key '%.*s'",
				     s->path, s->line + 1,
				     (int)(s->pos - start), start);
			return SCRIPT_ERROR;
		}
	}
	return SCRIPT_KEY;
}

int script_line(const struct script *s)
{
	return s->line + 1;
}
