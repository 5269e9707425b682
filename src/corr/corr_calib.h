#ifndef PC_SRC_CORR_CALIB_H
#define PC_SRC_CORR_CALIB_H
/*
 * Calibration and held-out points (issue 38 item 4; docs/statistics.md,
 * "Calibration and held-out"): the marks of db/calib.h applied to a
 * set's points, and the error on each part. A point is calibration when
 * the newest mark matching it says so: a mark matches when it names the
 * set's model source or none, the point's model or reference run or
 * none, and each of workload, op and metric it names (equal, or a glob
 * when it is a pattern). A point no mark calibrates is held out.
 */
#include <stdio.h>

#include "src/stats/stats.h"

struct db;
struct corr_set;
struct corr_point;

struct corr_calib {
	int have;		/* some point is calibration */
	long marks;		/* marks naming this model or none */
	long ncal, nheld;	/* points of each part */
	struct stats_summary cal, held;	/* as corr_summary of each part */
};

/* Set CORR_CALIBRATION on the calibration points of s (full points: a
 * slim set is PC_EINVALID), count them into out->ncal/nheld/marks, and
 * summarise both parts (skip_waived as corr_summary). out->have 0: no
 * point is calibration (the outputs then say nothing). */
int corr_calib_build(struct corr_calib *out, struct corr_set *s,
		     struct db *db, int skip_waived);
/* Only the flags (no summaries); *ncal the calibration points. */
int corr_calib_apply(struct corr_set *s, struct db *db, long *ncal);
/* keep functions for corr_summary and friends */
int corr_calib_keep_cal(const struct corr_point *p, void *arg);
int corr_calib_keep_held(const struct corr_point *p, void *arg);

/* compare's outputs (nothing when !c->have): text lines; JSON member
 * ",\"calibration\":{marks, calibration:{n, mape, ...}, held_out:{...}}";
 * CSV rows with scope calibration and held_out (nby empty group
 * columns). */
void corr_calib_text(FILE *fp, const struct corr_calib *c);
void corr_calib_json(FILE *fp, const struct corr_calib *c);
void corr_calib_csv(FILE *fp, const struct corr_calib *c, size_t nby);

#endif
