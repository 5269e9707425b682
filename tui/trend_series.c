/* The trend view's release changes and change points (trend_series.h). */
#include "tui/trend_series.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "src/corr/correlate.h"

int trend_series_load(struct trend_series *ts, struct db *db,
		      const char *model, const char *ref,
		      const char *roofline, const char *const *allow,
		      char *const *versions, size_t n)
{
	struct corr_cpd_series *series = corr_cpd_series_new(0);
	struct corr_set *prev = NULL;
	size_t prev_v = 0;
	int rc = 0;

	memset(ts, 0, sizeof(*ts));
	ts->n = n;
	ts->ch = xcalloc(n ? n : 1, sizeof(*ts->ch));
	ts->prev = xcalloc(n ? n : 1, sizeof(*ts->prev));
	ts->has_ch = xcalloc(n ? n : 1, sizeof(*ts->has_ch));
	corr_cpd_series_expect(series, n);
	for (size_t i = 0; i < n && !rc; i++) {
		struct corr_query q = CORR_QUERY_INIT;
		struct corr_set *s = NULL;
		char *spec = xasprintf("%s@%s", model, versions[i]);

		q.model = spec;
		q.ref = ref;
		q.roofline = roofline;
		q.allow_mismatch = allow;
		q.no_params = 1;
		rc = corr_load(&s, db, &q);
		free(spec);
		if (rc == PC_ENOTFOUND) {	/* this version pairs nothing */
			pc_error_clear();
			rc = 0;
			s = NULL;
		}
		if (rc < 0)
			break;
		corr_cpd_series_add(series, s);
		if (s && prev) {
			corr_change_compute(&ts->ch[i], prev, s, 0, 0);
			ts->has_ch[i] = 1;
			ts->prev[i] = prev_v;
		}
		if (s) {
			corr_set_free(prev);
			prev = s;
			prev_v = i;
		}
	}
	corr_set_free(prev);
	if (!rc)
		rc = corr_cpd_compute(&ts->cpd, series, NULL);
	corr_cpd_series_free(series);
	if (rc < 0)
		trend_series_release(ts);
	return rc;
}

void trend_series_release(struct trend_series *ts)
{
	if (ts->ch)
		corr_cpd_release(&ts->cpd);
	free(ts->ch);
	free(ts->prev);
	free(ts->has_ch);
	memset(ts, 0, sizeof(*ts));
}

const char *trend_series_step(const struct trend_series *ts, size_t v)
{
	const char *l = ts->ch ? corr_cpd_label_at(&ts->cpd, v) : NULL;

	if (!l)
		return NULL;
	if (!strcmp(l, "model changed"))
		return "model";
	if (!strcmp(l, "reference moved"))
		return "ref";
	if (!strcmp(l, "both"))
		return "both";
	return "error";
}
