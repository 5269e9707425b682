#ifndef PC_SRC_CORR_CORROUT_FP_H
#define PC_SRC_CORR_CORROUT_FP_H
/*
 * The fingerprint check's outcome (issue 37, src/corr/corr_fp.h) as
 * compare prints it: JSON members and text lines. Pure formatting of a
 * corr_set's counts; nothing is computed here.
 */
#include <stdio.h>

struct corr_set;
struct strbuf;

/* JSON members "not_comparable":{"pairs","run_pairs","field","why"},
 * "unverified":N,"allow_mismatch":[...],"mismatch_admitted":{"pairs":N,
 * "by_field":{FIELD:N}} (always; field and why null when none) after a
 * comma the caller wrote; allow is corr_query.allow_mismatch. */
void corrout_fp_json(FILE *fp, const struct corr_set *s,
		     const char *const *allow);
/* The same members into sb. */
void corrout_fp_json_sb(struct strbuf *sb, const struct corr_set *s,
			const char *const *allow);
/* The same as text lines, each only when non-zero / non-empty. */
void corrout_fp_text(FILE *fp, const struct corr_set *s,
		     const char *const *allow);
/* "tp (2 pairs), precision (2 pairs)": each allowed field with the pairs
 * it admitted, into a new string (caller frees); NULL when allow is
 * empty. */
char *corrout_fp_allowed(const struct corr_set *s, const char *const *allow);

/* The outcome as sentences for a report ("1 pair refused as not
 * comparable (...). 2 pairs unverified ... Allowed mismatches
 * (--allow-mismatch): tp (1 pair); 1 pair admitted.") appended to sb;
 * returns 0 (nothing appended) when nothing was refused, unverified or
 * allowed. */
int corrout_fp_sentence(struct strbuf *sb, const struct corr_set *s,
			const char *const *allow);

#endif
