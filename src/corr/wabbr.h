#ifndef PC_SRC_WABBR_H
#define PC_SRC_WABBR_H
/*
 * Workload keys abbreviated for a narrow column: the '/'-separated parts
 * every listed workload shares (the model name, a common sequence length
 * or precision: llama3-8b, seq=2048, bf16) are left out, the parts that
 * differ (phase, batch) kept. The shared parts are shown once, as a
 * template with '*' where the kept parts go ("llama3-8b/ * /seq=2048/bf16"
 * without blanks). When that is not enough (several models), the
 * parts each model's workloads share are left out too (level 2:
 * "llama3-8b/decode/bs=32", "mixtral-8x7b/decode/bs=8") and a name still
 * too long is cut ("llam~/decode/bs=32"). No curses; widths count UTF-8 characters. A struct
 * wabbr owns its strings (release it).
 */
#include <stddef.h>

struct wabbr {
	char **common;		/* the parts every name has */
	size_t ncommon;
	char *templ;		/* "llama3-8b/ * /seq=2048/bf16", or NULL when
				   nothing is shared */
	int fullw;		/* widest name, in characters */
	int abbrw;		/* widest abbreviated name */
	/* level 2: per model name (the first part), the parts all its
	 * workloads share; none when there are more than WABBR_GROUPS */
	struct wabbr_group *groups;
	size_t ngroups;
	int abbrw2;		/* widest name at level 2 */
	/* the KEY=VALUE parts that are the same in every name holding
	 * KEY (seq=2048 when only the vLLM workloads lack it): they say
	 * nothing about the row that the template does not */
	char **constkv;
	size_t nconstkv;
};

#define WABBR_GROUPS 64

/* Find the shared parts of names[0..n-1] (duplicates allowed). */
void wabbr_build(struct wabbr *a, const char *const *names, size_t n);
void wabbr_release(struct wabbr *a);
/* name without the shared parts into buf; the whole name when every part
 * is shared (or nothing is). Returns buf. */
const char *wabbr_apply(const struct wabbr *a, const char *name, char *buf,
			size_t len);
/* wabbr_apply, less the KEY=VALUE parts of constkv (the batch bs=
 * always stays): for a column still too narrow for wabbr_apply's
 * ("decode/bs=32/seq=2048" -> "decode/bs=32"). */
const char *wabbr_apply_tight(const struct wabbr *a, const char *name,
			      char *buf, size_t len);
/* Level 2: the model name, then the parts neither every workload nor
 * every workload of that model shares (the phase, the part after the
 * name, and the batch bs= always stay); the model name cut to fit w
 * characters when needed (at least 3 kept, "~" marks the cut). */
const char *wabbr_apply2(const struct wabbr *a, const char *name, int w,
			 char *buf, size_t len);
/* Characters of s (UTF-8 continuation bytes not counted). */
int wabbr_width(const char *s);

/* A built wabbr as bytes (host order) and back: the pair index stores
 * the one of its workloads (src/pairidx_build.c), so an open does not
 * compare a million parts again. wabbr_get fills *a (release it) or
 * returns -1, *a empty, when the bytes are not one (damaged). */
struct strbuf;
void wabbr_put(const struct wabbr *a, struct strbuf *sb);
int wabbr_get(struct wabbr *a, const void *data, size_t len);

#endif
