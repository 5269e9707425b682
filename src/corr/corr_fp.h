#ifndef PC_SRC_CORR_FP_H
#define PC_SRC_CORR_FP_H
/*
 * Is the pair comparable? (issue 37) The workload fingerprints of runs
 * (base/fingerprint.h, stored as run metadata "fp.FIELD"), read once,
 * and the verdict on a (model run, reference run): comparable,
 * unverified (a checked field only one side states) or not comparable
 * (both state a checked field, the values differ beyond its tolerance,
 * and the field is not allowed: corr_query.allow_mismatch). The one
 * check of every command: the pairing (corr_pair.c), the matrix per
 * source pair, the TUI's detail and `runs --fingerprint`.
 *
 * Ownership: a corr_fp owns the values it read; the const char * it
 * hands out stay valid until corr_fp_free.
 */
#include <stdint.h>

#include "base/fingerprint.h"

struct db;
struct db_side;
struct corr_set;

struct corr_fp;

enum { CORR_FP_OK = 0, CORR_FP_UNVERIFIED = 1, CORR_FP_REFUSED = 2 };

/* One field of a run pair, as the TUI's detail marks it. */
enum corr_fp_state {
	CORR_FPS_NONE,		/* neither run states it */
	CORR_FPS_SAME,		/* both, within tolerance */
	CORR_FPS_UNVERIFIED,	/* checked, one run states it */
	CORR_FPS_DIFFERS,	/* checked, both, beyond tolerance: refused */
	CORR_FPS_ALLOWED,	/* as DIFFERS, the field allowed */
	CORR_FPS_UNCHECKED	/* never checked (tool ...), values differ or
				   one side only */
};

/* An empty set of fingerprints allowing the fields named in allow
 * (NULL-terminated, may be NULL). An unknown or unchecked name is
 * PC_EUSAGE naming the checked fields. */
int corr_fp_new(struct corr_fp **out, const char *const *allow);
/* Read run id's fingerprint (once; again is a no-op). */
int corr_fp_add(struct corr_fp *fp, struct db *db, int64_t run);
/* Run id's values, one per fp_fields entry, NULL = not stated (all NULL
 * for a run never added); borrowed. */
const char *const *corr_fp_values(const struct corr_fp *fp, int64_t run);
/* The verdict on runs a (model side) and b (reference side), without a
 * set: *field (may be NULL) gets the first refusing field's index, and
 * *allowed (may be NULL) a bit per allowed field the two differ in. */
int corr_fp_judge(struct corr_fp *fp, int64_t a, int64_t b, size_t *field,
		  uint32_t *allowed);
/* Field i of runs a and b. */
enum corr_fp_state corr_fp_state(const struct corr_fp *fp, size_t i,
				 int64_t a, int64_t b);
/* 1 when some added run states some field. */
int corr_fp_any(const struct corr_fp *fp);

/* The pairing's use: read the fingerprints of every run of ms and rs
 * (corr_fp_new + corr_fp_add). */
int corr_fp_load(struct corr_fp **out, struct db *db,
		 const struct db_side *ms, const struct db_side *rs,
		 const char *const *allow);
/* The verdict on (model run, ref run) of one pair: the first refusal's
 * reason goes into s->not_comparable_why, each refused run pair into
 * s->not_comparable_runs, a pair an allowed field admitted into
 * s->admitted_pairs and s->admitted[field]. */
int corr_fp_verdict(struct corr_fp *fp, int64_t model_run, int64_t ref_run,
		    struct corr_set *s);
void corr_fp_free(struct corr_fp *fp);

/* The fp.FIELD members of a run's metadata JSON text into vals
 * (fp_nfields entries, the caller's; each set one is a new string the
 * caller frees; the first stated wins; text that is not JSON states
 * nothing). */
void corr_fp_parse(const char *metadata, char **vals);

#endif
