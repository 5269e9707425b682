/* Reading an export back (see native.h). */
#include "importers/native.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

static const struct {
	const char *word;
	unsigned bit;
} flag_words[] = {
	{ "invalid", IMP_INVALID }, { "skipped", IMP_SKIPPED },
	{ "derived", IMP_DERIVED }, { "capped", IMP_CAPPED },
};

int native_flags(const char *words, unsigned *out, char *bad, size_t blen)
{
	const char *p = words;

	*out = 0;
	while (*p) {
		size_t n = strcspn(p, " \t;|,");
		size_t i;

		for (i = 0; n && i < sizeof(flag_words) / sizeof(*flag_words);
		     i++)
			if (strlen(flag_words[i].word) == n &&
			    !strncmp(flag_words[i].word, p, n))
				break;
		if (n && i == sizeof(flag_words) / sizeof(*flag_words)) {
			snprintf(bad, blen, "%.*s", (int)n, p);
			return -1;
		}
		if (n)
			*out |= flag_words[i].bit;
		p += n;
		p += strspn(p, " \t;|,");
	}
	return 0;
}

void native_run_release(struct native_run *r)
{
	for (int i = 0; i < 3; i++)
		free(r->val[i]);
	memset(r, 0, sizeof(*r));
}

int native_run_fact(struct native_run *r, struct imp_sink *sink,
		    const char *key, const char *value, const char *path,
		    long line)
{
	static const char *const keys[3] = { "version", "platform",
					     "clock_hz" };
	int i;

	if (!*value)
		return 0;
	for (i = 0; i < 3 && strcmp(keys[i], key); i++)
		;
	if (i == 3)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s' is not a run "
				    "fact", path, line, key);
	if (r->val[i]) {
		if (!strcmp(r->val[i], value))
			return 0;
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': '%s', "
			"but '%s' on line %ld: a file is one run (export one "
			"with 'export results --run ID', or drop the column)",
			path, line, key, value, r->val[i], r->line[i]);
	}
	r->val[i] = xstrdup(value);
	r->line[i] = line;
	return sink->meta(sink, key, value);
}
