#ifndef PC_SRC_CANDIDATES_H
#define PC_SRC_CANDIDATES_H
/*
 * Which source pairs are worth correlating, most useful first: perfsim
 * vs silicon, roofline vs silicon, rtl vs silicon, perfsim vs rtl,
 * roofline vs rtl, roofline vs perfsim, over the sources present. The
 * TUI cycles through them and `perfcorr index` prepares them.
 */
#include <stddef.h>

struct db;

struct corr_pair {
	char *model, *ref;		/* "SRC" or "SRC@VERSION" */
	char *model_kind, *ref_kind;
};

/* The candidates; an explicit model/ref (either may be NULL) keeps only
 * the pairs with that source and uses the spec as given (with its
 * version). Both given but matching no known kinds: that one pair. */
int corr_candidates(struct db *db, const char *model, const char *ref,
		    struct corr_pair **out, size_t *n);
void corr_candidates_free(struct corr_pair *v, size_t n);

#endif
