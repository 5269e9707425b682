/* Rules that pass only on calibration points (see gate.h). */
#include "src/gate/gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_calib.h"
#include "src/corr/corr_subset.h"
#include "src/corr/correlate.h"

static int usable(const struct corr_point *p)
{
	return !(p->flags & (CORR_NOISY_REF | CORR_INVALID)) && !isnan(p->err);
}

/* What the held-out evaluation h gave for rule i: 0 passes, 1 fails (or
 * undefined), with the failed checks in sb. */
static int held_fails(const struct gate_rule_result *h, struct strbuf *sb)
{
	int bad = 0;

	for (int k = 0; k < h->nchecks; k++) {
		const struct gate_check *c = &h->checks[k];

		if (c->lim == PL_MAX_MAPE_INCREASE ||
		    c->lim == PL_MAX_ABS_ERR_INCREASE || c->na ||
		    !(c->failed || c->unknown))
			continue;
		if (bad++)
			strbuf_addstr(sb, "; ");
		gate_check_text_of(h, c, sb);
	}
	return bad > 0;
}

int gate_calib_check(struct gate_result *g)
{
	const struct corr_set *set = g->set;
	struct gate_result *h = NULL;
	struct corr_set sub;
	int rc, any = 0;

	for (size_t i = 0; i < g->nrules; i++) {
		struct gate_rule_result *rr = &g->rules[i];

		rr->ncalib = rr->nheld = 0;
		for (size_t j = 0; j < set->n; j++) {
			const struct corr_point *p = &set->points[j];

			if (!gate_selects(rr->rule, p) || !usable(p) ||
			    gate_point_waived(g, j))
				continue;
			if (p->flags & CORR_CALIBRATION)
				rr->ncalib++;
			else
				rr->nheld++;
		}
		any |= rr->ncalib > 0 && rr->status == GATE_PASS;
	}
	if (!any)
		return 0;
	if ((rc = corr_subset(&sub, set, corr_calib_keep_held, NULL)) < 0)
		return rc;
	rc = gate_evaluate(&h, g->policy, &sub, NULL, g->today, 0);
	for (size_t i = 0; !rc && i < g->nrules; i++) {
		struct gate_rule_result *rr = &g->rules[i];
		struct strbuf sb = STRBUF_INIT;

		if (rr->ncalib == 0 || rr->status != GATE_PASS)
			continue;
		if (rr->nheld == 0) {
			strbuf_addf(&sb, "passes only on calibration points: "
				    "none of its %ld pairs is held out",
				    rr->ncalib);
		} else {
			struct strbuf f = STRBUF_INIT;

			if (held_fails(&h->rules[i], &f))
				strbuf_addf(&sb, "passes only on calibration "
					    "points: on the %ld held out (%ld "
					    "calibration left out) %s",
					    rr->nheld, rr->ncalib, f.buf);
			strbuf_release(&f);
		}
		if (!sb.len) {
			strbuf_release(&sb);
			continue;
		}
		rr->calib_only = 1;
		rr->calib_why = strbuf_detach(&sb);
		rr->status = GATE_WARN;
		/* the rule line: its checks on every pair, then why */
		for (int k = 0; k < rr->nchecks; k++) {
			gate_check_text_of(rr, &rr->checks[k], &sb);
			strbuf_addstr(&sb, "; ");
		}
		strbuf_addstr(&sb, rr->calib_why);
		free(rr->message);
		rr->message = strbuf_detach(&sb);
	}
	gate_result_free(h);
	corr_subset_release(&sub);
	if (!rc)
		gate_verdict(g);
	return rc;
}
