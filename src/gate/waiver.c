/* Waiver judgement (see waiver.h). */
#include "src/gate/waiver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/correlate.h"

const char *waiver_state_name(enum waiver_state s)
{
	static const char *const n[] = { "none", "waived", "expired",
		"incomplete", "other-version", "unrecorded", "exceeded" };

	return s <= WAIVER_EXCEEDED ? n[s] : "?";
}

long waiver_day(const char *s)
{
	int y, m, d;
	long era, yoe, doy, doe;

	if (!s || sscanf(s, "%4d-%2d-%2d", &y, &m, &d) != 3 || m < 1 ||
	    m > 12 || d < 1 || d > 31)
		return -1;
	/* days_from_civil (H. Hinnant) */
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static long index_of(const char *v, char *const *versions, size_t nv,
		     size_t len)
{
	for (size_t i = 0; v && i < nv; i++)
		if (strlen(versions[i]) == len && !strncmp(versions[i], v, len))
			return (long)i;
	return -1;
}

int waiver_version_in(const char *spec, const char *version,
		      char *const *versions, size_t nv)
{
	const char *dots;
	long lo, hi, cur;

	if (!spec || !*spec)
		return 1;
	cur = index_of(version, versions, nv, version ? strlen(version) : 0);
	dots = strstr(spec, "..");
	if (!dots)
		return version && !strcmp(spec, version);
	lo = index_of(spec, versions, nv, (size_t)(dots - spec));
	hi = dots[2] ? index_of(dots + 2, versions, nv, strlen(dots + 2)) :
	     (long)nv;
	if (lo < 0 || hi < 0)
		return -1;
	return cur >= 0 && cur >= lo && cur <= hi;
}

static void fmt_err(char *buf, size_t len, double e)
{
	if (isfinite(e))
		snprintf(buf, len, "%+.1f%%", e * 100);
	else
		snprintf(buf, len, "undefined");
}

void waiver_judge(struct waiver_verdict *out, const struct annot *a,
		  const struct corr_point *p, const char *version,
		  char *const *versions, size_t nv, const char *today,
		  const struct waiver_rules *r)
{
	char acc[32], now[32];
	long created;
	int in;

	memset(out, 0, sizeof(*out));
	out->tol = NAN;
	if (!a || !a->status || strcmp(a->status, "accepted"))
		return;
	if (a->expires && *a->expires && strncmp(a->expires, today, 10) < 0) {
		out->state = WAIVER_EXPIRED;
		snprintf(out->why, sizeof(out->why), "waiver expired on %s",
			 a->expires);
		return;
	}
	created = waiver_day(a->created_at);
	if (r->max_days > 0 && created >= 0 && waiver_day(today) >
	    created + r->max_days) {
		out->state = WAIVER_EXPIRED;
		snprintf(out->why, sizeof(out->why), "waiver older than the "
			 "policy's waivers.max_days (%ld days since %.10s)",
			 r->max_days, a->created_at);
		return;
	}
	if (r->require_expiry && (!a->expires || !*a->expires)) {
		out->state = WAIVER_INCOMPLETE;
		snprintf(out->why, sizeof(out->why), "the policy requires an "
			 "expiry (waivers.require_expiry): re-accept with "
			 "--expires");
		return;
	}
	if (r->require_link && (!a->link || !*a->link)) {
		out->state = WAIVER_INCOMPLETE;
		snprintf(out->why, sizeof(out->why), "the policy requires a "
			 "link (waivers.require_link): re-accept with --link");
		return;
	}
	in = waiver_version_in(a->model_versions, version, versions, nv);
	if (in <= 0) {
		out->state = WAIVER_VERSION;
		snprintf(out->why, sizeof(out->why), in < 0 ? "waiver limited "
			 "to versions %s, an end of which is not a known "
			 "version" : "waiver limited to model versions %s, "
			 "not %s", a->model_versions, version ? version : "?");
		return;
	}
	out->acc = db_annot_err_find(a, p->workload, p->op, p->metric);
	if (!out->acc) {
		out->state = WAIVER_UNRECORDED;
		snprintf(out->why, sizeof(out->why), "waiver recorded no "
			 "accepted error for this point (it is newer than the "
			 "waiver): re-accept it");
		return;
	}
	fmt_err(acc, sizeof(acc), out->acc->err);
	fmt_err(now, sizeof(now), p->err);
	out->tol = fmax(r->tol_abs, r->tol_rel * fabs(out->acc->err));
	if (!isfinite(out->acc->err) || !isfinite(p->err) ||
	    fabs(p->err - out->acc->err) > out->tol + 1e-12) {
		out->state = WAIVER_EXCEEDED;
		snprintf(out->why, sizeof(out->why), "waiver exceeded: accepted "
			 "%s at %s, now %s (tolerance %.1f pp)", acc,
			 out->acc->model_version, now, out->tol * 100);
		return;
	}
	out->state = WAIVER_OK;
}
