#ifndef PC_TUI_DETAIL_FP_H
#define PC_TUI_DETAIL_FP_H
/*
 * The detail's "Workload fingerprint" section (issue 37): the two runs'
 * fingerprints of the pair on show side by side, each field marked by
 * the check the pairing made (src/corr/corr_fp.h): = the same within
 * tolerance, ? unverified (one run states it), ! differs and allowed
 * (--allow-mismatch), x differs (refused). Reads the two runs' metadata
 * on open; nothing is kept.
 */
struct view;
struct corr_point;

/* Append the section for point p (its model_run and ref_run) to
 * v->text; an error reading the runs is said in the section. */
void detail_fp_add(struct view *v, const struct corr_point *p);

#endif
