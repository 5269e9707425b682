#ifndef PC_SRC_CANDIDATES_H
#define PC_SRC_CANDIDATES_H
/*
 * Which source pairs are worth correlating, most useful first: perfsim
 * vs silicon, roofline vs silicon, rtl vs silicon, emulation vs silicon,
 * perfsim vs emulation, rtl vs emulation, perfsim vs rtl, roofline vs
 * emulation, roofline vs rtl, roofline vs perfsim, over the sources
 * present (emulation sits between rtl and silicon). The
 * TUI cycles through them; `perfcorr index` (and import/watch with
 * --index) prepares their pair indexes.
 */
#include <stddef.h>

struct db;

struct candidate {
	char *model, *ref;		/* "SRC" or "SRC@VERSION" */
	char *model_kind, *ref_kind;
};

/* The candidates; an explicit model/ref (either may be NULL) keeps only
 * the pairs with that source and uses the spec as given (with its
 * version). Both given but matching no known kinds: that one pair. */
int candidates_list(struct db *db, const char *model, const char *ref,
		    struct candidate **out, size_t *n);
void candidates_free(struct candidate *v, size_t n);

struct pidx;

/* Open (building and caching when needed) the pair index of every
 * candidate with this model and/or reference source (NULL = any), so
 * the TUI opens them from the pair cache. cb (may be NULL) hears of
 * each: the index and the seconds it took. Candidates that pair
 * nothing are skipped; one that fails otherwise (e.g. cycles without a
 * clock) goes to fail (may be NULL) and the others go on. Returns how
 * many were indexed, or <0 on a database error. */
int candidates_index(struct db *db, const char *model, const char *ref,
		     void (*cb)(void *arg, const struct pidx *x,
				double seconds),
		     void (*fail)(void *arg, const struct candidate *p,
				  const char *why),
		     void *arg);

#endif
