/*
 * The reasons a statistic is NaN (see stats_summary.h), one static string
 * each, and reading them: stats_why, stats_why_static (a reason read back
 * from the pair cache), stats_few_pairs. Moved out of stats.c (issue 33).
 */
#include "src/stats/stats_summary.h"

#include <stdio.h>
#include <string.h>

const char STATS_WHY_EMPTY[] = "no pairs";
const char STATS_WHY_FEW[] = "fewer than 3 pairs";
const char STATS_WHY_FEW2[] = "fewer than 2 pairs";
const char STATS_WHY_REFZERO[] = "a reference is zero";
const char STATS_WHY_REFNONPOS[] = "a reference is zero or negative";
const char STATS_WHY_NONPOS[] = "a value is zero or negative";
const char STATS_WHY_SUMZERO[] = "the references sum to zero";
const char STATS_WHY_MEANZERO[] = "the mean reference is zero";
const char STATS_WHY_PAIRZERO[] = "a model + reference sum is zero";
const char STATS_WHY_CONST[] = "a series is constant";
const char STATS_WHY_NOTFINITE[] = "a value is not finite";
const char STATS_WHY_UNCORR[] = "model and reference are uncorrelated";
const char STATS_WHY_EXACT[] = "exact fit: no residual to test against";
const char STATS_WHY_FEWPAIRS[] = "few pairs";
const char STATS_WHY_EQUAL[] = "both series constant and equal";
const char STATS_WHY_NOTROOF[] = "not a roofline model";
const char STATS_WHY_METRICS[] = "several metrics";
const char STATS_WHY_NOTSOL[] = "not a time or a rate";
const char STATS_WHY_REFCONST[] = "the reference is constant";
const char STATS_WHY_DIRECTION[] = "metrics of opposite better direction: "
				   "per metric only";
const char STATS_WHY_CIFEW[] = "too few workloads for an interval";

const char *stats_why_static(const char *text)
{
	static const char *const all[] = { STATS_WHY_EMPTY, STATS_WHY_FEW,
		STATS_WHY_FEW2, STATS_WHY_REFZERO, STATS_WHY_REFNONPOS,
		STATS_WHY_NONPOS, STATS_WHY_SUMZERO, STATS_WHY_MEANZERO,
		STATS_WHY_PAIRZERO, STATS_WHY_CONST, STATS_WHY_NOTFINITE,
		STATS_WHY_NOTROOF, STATS_WHY_METRICS, STATS_WHY_NOTSOL,
		STATS_WHY_UNCORR, STATS_WHY_EXACT, STATS_WHY_FEWPAIRS,
		STATS_WHY_EQUAL, STATS_WHY_REFCONST, STATS_WHY_DIRECTION,
		STATS_WHY_CIFEW };

	if (!text)
		return NULL;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i], text))
			return all[i];
	return "undefined";
}

int stats_ci_unknown(const struct stats_summary *s, char *buf, size_t len)
{
	long k = STATS_CI_MIN_WORKLOADS;

	if (!s->why[SF_CI] || strcmp(s->why[SF_CI], STATS_WHY_CIFEW))
		return 0;
	snprintf(buf, len, "only %ld workload%s; an interval needs >= %ld "
		 "(%ld more would decide)", s->workloads,
		 s->workloads == 1 ? "" : "s", k, k - s->workloads);
	return 1;
}

int stats_few_pairs(const struct stats_summary *s)
{
	return s->min_pairs > 0 && s->n < s->min_pairs;
}

const char *stats_why(const struct stats_summary *s, enum stats_field f)
{
	if ((int)f < 0 || f >= SF_COUNT)
		return NULL;
	return s->why[f];
}
