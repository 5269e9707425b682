#ifndef PC_SRC_CORR_ROOF_H
#define PC_SRC_CORR_ROOF_H
/*
 * The roofline as a bound (issue 35): the stored roofline values a
 * pairing checks its model and reference values against. A value that
 * beats the roofline of its key (faster than speed of light: a time
 * below it, a rate above it, beyond a relative 1e-9) flags the pair
 * CORR_SOL_VIOLATION (CORR_SOL_MODEL, CORR_SOL_REF say which side).
 *
 * Which roofline: corr_query.roofline when given (SRC[@V], of kind
 * roofline); else a side of the pairing that is a roofline; else every
 * roofline source in the database (latest version each). A key that
 * two of those hold is refused (PC_EINVALID, cause PC_CAUSE_ROOFLINE)
 * when none was chosen: two bounds disagreeing is not one answer.
 *
 * Ownership: a corr_roof owns its sides and values (corr_roof_free).
 */
#include <stddef.h>
#include <stdint.h>

#include "db/pairs.h"

struct db;
struct corr_query;

struct corr_roof_val {
	int64_t w, o, m;	/* workload, op, metric id */
	double v;		/* the roofline's value (SI or cycles) */
	double hz;		/* its run's clock, NaN when none */
	uint32_t src;		/* index into corr_roof.sides */
};

struct corr_roof {
	struct db_side *sides;	/* the roofline sources in use */
	size_t nsides;
	struct corr_roof_val *v;	/* sorted by (w, o, m, src) */
	size_t n;
};

/* The roofline sides of q's pairing of ms and rs (none: *nout = 0).
 * A chosen source that is not a roofline is PC_EUSAGE; unknown is
 * PC_ENOTFOUND. Caller frees with corr_roof_sides_free. */
int corr_roof_sides(struct db *db, const struct corr_query *q,
		    const struct db_side *ms, const struct db_side *rs,
		    struct db_side **out, size_t *nout);
void corr_roof_sides_free(struct db_side *v, size_t n);

/* Resolve the sides and read their time, cycles and rate values
 * (metrics is the metric dictionary, for units). */
int corr_roof_load(struct corr_roof *out, struct db *db,
		   const struct corr_query *q, const struct db_side *ms,
		   const struct db_side *rs, const struct db_name *metrics,
		   size_t nmetrics);
void corr_roof_free(struct corr_roof *r);

/* Name the sides of r in s->roofline ("SRC@V, SRC@V"). */
struct corr_set;
void corr_roof_note(struct corr_set *s, const struct corr_roof *r);

/* The pairs of s whose model / reference value beats the roofline. */
void corr_sol_counts(const struct corr_set *s, long *model, long *ref);

/* The roofline values of key (w, o, m): the first of them, *n of them
 * (several sources), or NULL. */
const struct corr_roof_val *corr_roof_find(const struct corr_roof *r,
					   int64_t w, int64_t o, int64_t m,
					   size_t *n);

/* The fraction of speed of light v reaches against the bound roof:
 * roof / v for a time (lower is better), v / roof for a rate (higher);
 * NaN when either is not positive and finite. */
double corr_roof_fraction(double v, double roof, int higher);

/* The fraction of speed of light the reference of p (a point of s)
 * reaches against p's model value as the bound (s's model a roofline):
 * corr_roof_fraction in the direction of p's metric; NaN for a metric no
 * roofline bounds. */
struct corr_point;
double corr_roof_point_fraction(const struct corr_set *s,
				const struct corr_point *p);

/* 1 when v beats the bound roof: below it for a time (lower is
 * better), above it for a rate (higher), beyond a relative 1e-9. */
int corr_roof_beats(double v, double roof, int higher);

#endif
