/* Calibration and held-out points (see corr_calib.h). */
#include "src/corr/corr_calib.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "db/calib.h"
#include "src/corr/correlate.h"
#include "src/corr/corrout.h"

int corr_calib_keep_cal(const struct corr_point *p, void *arg)
{
	(void)arg;
	return (p->flags & CORR_CALIBRATION) != 0;
}

int corr_calib_keep_held(const struct corr_point *p, void *arg)
{
	(void)arg;
	return !(p->flags & CORR_CALIBRATION);
}

static int part(const char *want, const char *s, int glob)
{
	return !want || (s && (glob ? util_glob(want, s) : !strcmp(want, s)));
}

static int matches(const struct db_calib *m, const struct corr_point *p)
{
	return (!m->run_id || m->run_id == p->model_run ||
		m->run_id == p->ref_run) &&
	       part(m->workload, p->workload, m->is_pattern) &&
	       part(m->op, p->op, m->is_pattern) &&
	       part(m->metric, p->metric, m->is_pattern);
}

static int apply(struct corr_set *s, struct db *db, long *marks, long *ncal)
{
	struct db_calib *v = NULL;
	size_t n = 0, k = 0;
	int rc;

	*marks = *ncal = 0;
	if (!s->points)
		return pc_error_set(PC_EINVALID, "calibration marks need the "
				    "pairs' points (a slim set has none)");
	if ((rc = db_calib_all(db, &v, &n)) < 0)
		return rc;
	/* this model's marks (and those for every model), oldest first */
	for (size_t i = 0; i < n; i++)
		if (!v[i].model_source || !strcmp(v[i].model_source,
						  s->model.source)) {
			struct db_calib t = v[k];

			v[k++] = v[i];
			v[i] = t;
		}
	*marks = (long)k;
	for (size_t i = 0; i < s->n; i++) {
		struct corr_point *p = &s->points[i];

		p->flags &= ~(unsigned)CORR_CALIBRATION;
		for (size_t j = k; j-- > 0;)
			if (matches(&v[j], p)) {
				if (!v[j].held_out) {
					p->flags |= CORR_CALIBRATION;
					(*ncal)++;
				}
				break;
			}
	}
	db_calib_free(v, n);
	return 0;
}

int corr_calib_apply(struct corr_set *s, struct db *db, long *ncal)
{
	long marks;

	return apply(s, db, &marks, ncal);
}

int corr_calib_build(struct corr_calib *out, struct corr_set *s,
		     struct db *db, int skip_waived)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = apply(s, db, &out->marks, &out->ncal)) < 0)
		return rc;
	out->nheld = (long)s->n - out->ncal;
	out->have = out->ncal > 0;
	if (!out->have)
		return 0;
	if ((rc = corr_summary(&out->cal, s, corr_calib_keep_cal, NULL,
			       skip_waived)) < 0)
		return rc;
	return corr_summary(&out->held, s, corr_calib_keep_held, NULL,
			    skip_waived);
}

static void line(FILE *fp, const char *what, long points,
		 const struct stats_summary *s)
{
	char m[32], b[32], x[32];

	fprintf(fp, "  %-12s %6ld %6ld %9s %9s %9s\n", what, points, s->n,
		corrout_pct(m, sizeof(m), s->mape),
		corrout_pct(b, sizeof(b), s->bias),
		corrout_pct(x, sizeof(x), s->max_abs_err));
}

void corr_calib_text(FILE *fp, const struct corr_calib *c)
{
	if (!c->have)
		return;
	fprintf(fp, "\ncalibration and held out (%ld mark%s; perfcorr mark "
		"--list):\n  %-12s %6s %6s %9s %9s %9s\n", c->marks,
		c->marks == 1 ? "" : "s", "", "pairs", "n", "MAPE", "bias",
		"max|err|");
	line(fp, "calibration", c->ncal, &c->cal);
	line(fp, "held out", c->nheld, &c->held);
	if (!c->nheld || !c->held.n)
		fputs("  no point is held out: every number above may only "
		      "say how well the model was fitted\n", fp);
}

void corr_calib_json(FILE *fp, const struct corr_calib *c)
{
	if (!c->have)
		return;
	fprintf(fp, ",\"calibration\":{\"marks\":%ld,\"points\":%ld,"
		"\"calibration\":{", c->marks, c->ncal);
	corrout_stats_json(fp, &c->cal);
	fprintf(fp, "},\"held_out_points\":%ld,\"held_out\":{", c->nheld);
	corrout_stats_json(fp, &c->held);
	fputs("}}", fp);
}

void corr_calib_csv(FILE *fp, const struct corr_calib *c, size_t nby)
{
	if (!c->have)
		return;
	fputs("calibration", fp);
	for (size_t k = 0; k < nby; k++)
		fputc(',', fp);
	corrout_stats_csv_row(fp, &c->cal);
	fputs("\nheld_out", fp);
	for (size_t k = 0; k < nby; k++)
		fputc(',', fp);
	corrout_stats_csv_row(fp, &c->held);
	fputc('\n', fp);
}
