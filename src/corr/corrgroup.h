#ifndef PC_SRC_CORRGROUP_H
#define PC_SRC_CORRGROUP_H
/*
 * Statistics per group of a correlation set (--group-by op, metric,
 * workload, op_class, param.NAME; several keys combine). Groups are
 * sorted by their key values; each holds its own stats_summary.
 * corrgroup_release frees everything it holds.
 */
#include <stddef.h>

#include "src/corr/correlate.h"

struct corrgroup {
	size_t n;			/* groups */
	size_t nby;			/* keys per group */
	char **values;			/* values[g * nby + k] */
	size_t *size;			/* points per group */
	struct stats_summary *stats;	/* per group */
};

/* Group the points of s by the nby keys in by and summarise each group
 * (corr_summary rules). No keys: no groups. An unknown key is
 * PC_EINVALID. O(n log n). */
int corrgroup_build(struct corrgroup *out, const struct corr_set *s,
		    const char *const *by, size_t nby, int skip_waived);
void corrgroup_release(struct corrgroup *g);

#endif
