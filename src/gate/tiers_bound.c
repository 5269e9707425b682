/* A roofline tier graded as a bound (see tiers.h): the one definition of
 * the fraction of speed of light (corr_roof_fraction) and the core's
 * speed-of-light flags, as compare, matrix and the TUI grade a bound. */
#include "src/gate/tiers.h"

#include <math.h>
#include <stdio.h>

#include "base/util.h"
#include "src/corr/corr_roof.h"
#include "src/corr/correlate.h"

/* A roofline's cell, graded as a bound: the fraction of speed of light
 * the reference reaches over the summary's pairs (not invalid, not
 * noisy, a reference not 0: the core's efficiency, over every metric
 * the roofline bounds) and the pairs that beat it (source: the
 * roofline's name, for the why). */
void tiers_grade_bound(struct tiers_cell *cell, const struct corr_set *sub,
		       const char *source)
{
	double lsum = 0;
	long n = 0;

	cell->status = TIERS_BOUND;
	cell->over = cell->sum.sol_violations;
	for (size_t i = 0; i < sub->n; i++) {
		const struct corr_point *p = &sub->points[i];
		double f;

		if (p->flags & (CORR_INVALID | CORR_NOISY_REF))
			continue;
		f = corr_roof_point_fraction(sub, p);
		if (isnan(f))
			continue;
		lsum += log(f);
		n++;
	}
	cell->sol = n ? exp(lsum / (double)n) : NAN;
	if (cell->over)
		cell->why = xasprintf("%ld of %ld pairs beat the bound (a "
				      "measurement faster than speed of light, "
				      "or a wrong roofline: compare --model %s "
				      "--points lists them)", cell->over,
				      cell->npoints, source);
}

void tiers_bound_text(const struct tiers_cell *x, char *sol, size_t sl,
		      char *over, size_t ol)
{
	if (isfinite(x->sol))
		snprintf(sol, sl, "%.1f%% SoL", 100 * x->sol);
	else
		snprintf(sol, sl, "- SoL");
	snprintf(over, ol, "%ld over", x->over);
}
