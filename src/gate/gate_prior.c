/* What the history says about a rule: the streak of failures and the
 * baseline release (see gate.h, gate_prior_compute). */
#include "src/gate/gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/gate.h"
#include "base/util.h"

static long version_index(const char *v, char *const *versions, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		if (!strcmp(versions[i], v))
			return (long)i;
	return -1;
}

/* Pass or warn, or unknown only because rules evaluated nothing (no
 * baseline release: a first release judged on all it could be is a
 * later release's baseline, else no release after it ever has one). */
static int passed(const struct db_gate_hist *e)
{
	return e->verdict && strcmp(e->verdict, "fail") && !e->unknown;
}

/* No evaluation of an earlier release passed: the baseline is the
 * previous version in the release order, unless an evaluation of this
 * policy failed it or was unknown (a release the policy refused is no
 * baseline; issue 35 item 7). */
static void previous(struct gate_prior *out, const struct db_gate_hist *h,
		     size_t n, long cur, char *const *versions)
{
	if (cur < 0) {
		out->why_none = "the version is not in the model's release "
				"order";
		return;
	}
	if (cur == 0) {
		out->why_none = "the first release of the model in the "
				"database: nothing to compare with";
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(h[i].model_version, versions[cur - 1]) &&
		    !passed(&h[i])) {
			out->why_none = "no earlier release passed this "
					"policy; the previous one failed it or "
					"was unknown";
			return;
		}
	out->have_base = 1;
	out->base_prev = 1;
	out->base_version = xstrdup(versions[cur - 1]);
}

void gate_prior_compute(struct gate_prior *out, const struct db_gate_hist *h,
			size_t n, const char *inputs, const char *version,
			char *const *versions, size_t nversions)
{
	long cur = version_index(version, versions, nversions);
	const char *last = inputs;
	int counting = 1;

	memset(out, 0, sizeof(*out));
	out->base_mape = NAN;
	for (size_t i = 0; i < n; i++) {
		const struct db_gate_hist *e = &h[i];
		long vi = version_index(e->model_version, versions, nversions);

		if (!out->have_base && e->have_rule && !isnan(e->mape) &&
		    passed(e) && cur >= 0 && vi >= 0 && vi < cur) {
			out->have_base = 1;
			out->base_mape = e->mape;
			out->base_version = xstrdup(e->model_version);
		}
		/* a re-evaluation of the same inputs is not a new failure */
		if (!counting || !strcmp(e->inputs, inputs) ||
		    !strcmp(e->inputs, last))
			continue;
		if (!e->have_rule || !e->failed)
			counting = 0;
		else
			out->streak++;
		last = e->inputs;
	}
	if (!out->have_base)
		previous(out, h, n, cur, versions);
}

void gate_prior_release(struct gate_prior *p)
{
	free(p->base_version);
	p->base_version = NULL;
}
