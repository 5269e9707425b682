#ifndef PC_SRC_CORR_FP_H
#define PC_SRC_CORR_FP_H
/*
 * Is the pair comparable? (issue 37) The workload fingerprints of the
 * runs of both sides (base/fingerprint.h, stored as run metadata
 * "fp.FIELD"), read once before pairing, and the verdict on each
 * distinct (model run, reference run): comparable, unverified (a checked
 * field only one side states) or not comparable (both state a checked
 * field, the values differ beyond its tolerance, and the field is not in
 * corr_query.allow_mismatch). Used by corr_pair.c only.
 */
#include <stdint.h>

struct db;
struct db_side;
struct corr_set;

struct corr_fp;

enum { CORR_FP_OK = 0, CORR_FP_UNVERIFIED = 1, CORR_FP_REFUSED = 2 };

/* Read the fingerprints of every run of ms and rs; allow the fields
 * named in allow (NULL-terminated, may be NULL; an unknown name is
 * PC_EUSAGE naming the fields). */
int corr_fp_load(struct corr_fp **out, struct db *db,
		 const struct db_side *ms, const struct db_side *rs,
		 const char *const *allow);
/* The verdict on (model run, ref run); the first refusal's reason goes
 * into s->not_comparable_why. */
int corr_fp_verdict(struct corr_fp *fp, int64_t model_run, int64_t ref_run,
		    struct corr_set *s);
void corr_fp_free(struct corr_fp *fp);

#endif
