/* A subset of a correlation set (corr_subset.h). */
#include "src/corr/corr_subset.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

int corr_subset(struct corr_set *out, const struct corr_set *s,
		int (*keep)(const struct corr_point *p, void *arg), void *arg)
{
	struct corr_point *pts;
	size_t n = 0;

	if (!s->points)
		return pc_error_set(PC_EINVALID, "a subset needs the pairs' "
				    "points (a slim set has none)");
	pts = xmalloc((s->n ? s->n : 1) * sizeof(*pts));
	for (size_t i = 0; i < s->n; i++)
		if (!keep || keep(&s->points[i], arg))
			pts[n++] = s->points[i];
	*out = *s;
	out->points = pts;
	out->n = n;
	/* private caches of the parent's points: not valid here */
	out->slim = NULL;
	out->view = NULL;
	out->ci_draws = NULL;
	out->excluded_noisy = out->invalid = out->sol_violations = 0;
	for (size_t i = 0; i < n; i++) {	/* as correlate.c counts */
		if (pts[i].flags & CORR_INVALID)
			out->invalid++;
		else if (pts[i].flags & CORR_NOISY_REF)
			out->excluded_noisy++;
		out->sol_violations += (pts[i].flags & CORR_SOL_VIOLATION) != 0;
	}
	return 0;
}

void corr_subset_release(struct corr_set *sub)
{
	free(sub->points);
	sub->points = NULL;
	sub->n = 0;
}
