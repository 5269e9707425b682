/*
 * The store a set's points point into (see correlate_int.h): its
 * dictionary entries by id, metric ids by name, workload parameters,
 * and which units a roofline bounds. Apart from correlate.c (issue 33)
 * so that the calls go one way: correlate.c -> corr_pair.c ->
 * corr_store.c, corr_summary.c -> corr_store.c, never back.
 */
#include "src/corr/correlate_int.h"

#include <stdlib.h>
#include <string.h>

const struct db_name *corr_dict_find(const struct corr_store *st,
				       enum db_dict d, int64_t id, size_t *idx)
{
	size_t lo = 0, hi = st->ndict[d];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->dict[d][mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < st->ndict[d] && st->dict[d][lo].id == id) {
		if (idx)
			*idx = lo;
		return &st->dict[d][lo];
	}
	return NULL;
}

int64_t corr_metric_id(const struct corr_store *st, const char *name)
{
	for (size_t i = 0; i < st->ndict[DB_DICT_METRICS]; i++)
		if (!strcmp(st->dict[DB_DICT_METRICS][i].name, name))
			return st->dict[DB_DICT_METRICS][i].id;
	return -1;
}

/* The value of parameter name of workload wid, or NULL. */
const char *corr_param_of(const struct corr_store *st, int64_t wid,
			    const char *name)
{
	size_t lo = 0, hi = st->nparams;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->params[mid].workload_id < wid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < st->nparams && st->params[lo].workload_id == wid; lo++)
		if (!strcmp(st->params[lo].name, name))
			return st->params[lo].value;
	return NULL;
}

/* A roofline bounds times (lower) and rates (higher), not counts. */
int corr_sol_metric(const char *unit)
{
	size_t n = strlen(unit);

	return !strcmp(unit, "s") || !strcmp(unit, "cycles") ||
	       (n > 2 && !strcmp(unit + n - 2, "/s"));
}
