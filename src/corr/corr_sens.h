#ifndef PC_SRC_CORR_SENS_H
#define PC_SRC_CORR_SENS_H
/*
 * Sensitivity to each knob (issue 38 item 3): for every workload
 * parameter that varies while the others stay fixed (a sweep: one op,
 * one metric, one workload key but for that parameter, >= 3 positive
 * numeric values), the model's elasticity d ln y / d ln x against the
 * reference's (least squares in log space), Kendall's tau-b of the two
 * sides' values along the sweep, and a flag: "blind" (the reference
 * moves, the model stays flat) or "wrong direction". docs/statistics.md,
 * "Sensitivity": the thresholds and why.
 *
 * Ownership: a corr_sens owns its knobs (and their names), sweeps and
 * their arrays; the op and metric names are borrowed from the corr_set
 * it was built from (keep the set until corr_sens_release).
 */
#include <stddef.h>

struct corr_set;
struct corr_point;

/* The reference "moves" across a sweep when its largest and smallest
 * value differ by this factor or more (20%). */
#define CORR_SENS_REF_MOVES 1.2
/* The model is "flat" when its log range is under this share of the
 * reference's (and over none of its stated noise). */
#define CORR_SENS_FLAT_SHARE 0.25

enum corr_sens_flag {
	SENS_OK = 0,		/* the model follows (or the ref is flat) */
	SENS_BLIND,		/* reference moves, model flat */
	SENS_WRONG,		/* both move, opposite directions */
};

struct corr_sweep {
	char *fixed;		/* the workload key without the knob */
	size_t n;		/* points along the knob, x ascending */
	double *x, *model, *ref;
	double e_model, e_ref;	/* elasticities (log-log slopes) */
	double tau;		/* Kendall tau-b of model vs ref; NaN: ties */
	double model_move, ref_move;	/* ln(max / min) of each side */
	enum corr_sens_flag flag;
};

struct corr_knob {
	const char *knob;	/* parameter name (owned) */
	const char *op, *metric;
	struct corr_sweep *sweeps;	/* flagged first, then by
					   |e_model - e_ref| descending */
	size_t nsweeps;
	size_t blind, wrong;
	double e_model_med, e_ref_med;	/* medians over the sweeps */
	double tau_mean;	/* mean over the sweeps with a tau */
};

struct corr_sens {
	struct corr_knob *knobs;	/* most flagged first, then name */
	size_t n;
	size_t blind, wrong, sweeps;
	long skipped;		/* points left out: noisy, invalid, or a
				   side <= 0 (no logarithm) */
};

/* The sweeps of s (full points; a slim set is PC_EINVALID) along every
 * numeric parameter, or only `knob` when not NULL (a knob no workload
 * carries is PC_EINVALID naming those they have). No sweep at all is
 * PC_ENOTFOUND saying what a sweep needs. */
int corr_sens_build(struct corr_sens *out, const struct corr_set *s,
		    const char *knob);
/* The same over the points keep selects (NULL = all; the gate's rules):
 * a point keep leaves out is not counted as skipped. */
int corr_sens_build_keep(struct corr_sens *out, const struct corr_set *s,
			 const char *knob,
			 int (*keep)(const struct corr_point *p, void *arg),
			 void *arg);
void corr_sens_release(struct corr_sens *c);
const char *corr_sens_flag_name(enum corr_sens_flag f);

#endif
