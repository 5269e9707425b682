#ifndef PC_SRC_ANNOT_COVER_H
#define PC_SRC_ANNOT_COVER_H
/*
 * What a new annotation covers, before and after it is written
 * (perfcorr annotate; docs/gate.md, "Waivers"): the stored pairs its key
 * matches, the closest names when it matches none, the errors an
 * `accepted` annotation accepts, and after writing, the pairs where an
 * existing annotation takes precedence (shadowing) and why.
 * Candidates are the points of a model and reference pairing (corr_load)
 * when both sources are named, else the (workload, op, metric) keys with
 * stored results (of the one source named).
 */
#include <stddef.h>

#include "db/annot.h"

struct db;
struct corr_set;

struct annot_cover {
	size_t n;			/* candidate keys */
	char **w, **o, **m;		/* candidates (owned) */
	double *err;			/* per candidate, NaN without a pairing */
	size_t *match, nmatch;		/* candidates the key matches */
	char *model_version, *ref_version;	/* of the pairing, or NULL */
	char *model_source, *ref_source;
	/* after annot_cover_shadow */
	size_t ncurrent;		/* matches where the new row is current */
	size_t nshadow;
	size_t shadow_first;		/* a shadowed match (index into match) */
	struct annot shadow_by;		/* copy of the first shadowing row's
					   id, status, key and is_pattern */
	const char *shadow_rule;	/* static text */
	int all_names;			/* private: every key was loaded */
};

/* Load candidates (model/ref: "SRC[@V]" or NULL; with both a pairing is
 * loaded) and match a's key against them (c zeroed by the caller).
 * Errors: unknown source or version (PC_ENOTFOUND) with a message. */
int annot_cover_load(struct annot_cover *c, struct db *db, const struct annot *a,
		     const char *model, const char *ref);

/* Explain an empty match into sb-like buffer: what part matches nothing
 * and the closest names (up to 3 per part). Caller frees. */
char *annot_cover_closest(const struct annot_cover *c, const struct annot *a);

/* The accepted errors of the matches (a->errs / nerrs; owned by c's
 * caller through annot_cover_errs_free). */
void annot_cover_errs(const struct annot_cover *c, struct annot *a);
void annot_cover_errs_free(struct annot *a);

/* After a (id set) was written: which matches it is current for. */
int annot_cover_shadow(struct annot_cover *c, struct db *db, int64_t id);

void annot_cover_release(struct annot_cover *c);

/* Levenshtein distance (bytes), for "closest names". */
size_t annot_edit_distance(const char *a, const char *b);

#endif
