/* Fingerprint checks of the pairs' runs (see corr_fp.h). */
#include "src/corr/corr_fp.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hmap.h"
#include "base/jsonutil.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/pairs.h"
#include "db/runinfo.h"
#include "src/corr/correlate.h"

struct fp_run {
	int64_t id;
	char *val[FP_NFIELDS];	/* NULL = not stated */
};

struct corr_fp {
	struct fp_run *runs;
	size_t nruns;
	struct hmap run_at;	/* "id" -> index in runs */
	struct hmap verdict;	/* "m:r" -> verdict | allowed << 2 */
	unsigned char allowed[FP_NFIELDS];
	const struct db_side *ms, *rs;	/* corr_fp_load's, for reasons */
	int64_t last_m, last_r, last_v;
	int any;		/* some run states a field */
};

static const char *const none[FP_NFIELDS];

void corr_fp_parse(const char *metadata, char **vals)
{
	cJSON *doc = NULL, *kv;

	/* metadata the writer wrote: a JSON object of strings */
	if (!metadata || jsonutil_parse_text(&doc, metadata, "runs.metadata",
					     1) < 0) {
		pc_error_clear();
		return;
	}
	cJSON_ArrayForEach(kv, doc) {
		const struct fp_field *f;
		size_t i;

		if (!kv->string || strncmp(kv->string, "fp.", 3) ||
		    !cJSON_IsString(kv) || !(f = fp_field_find(kv->string)))
			continue;
		i = fp_field_index(f);
		if (!vals[i])	/* the first one stated wins */
			vals[i] = xstrdup(kv->valuestring);
	}
	cJSON_Delete(doc);
}

int corr_fp_new(struct corr_fp **out, const char *const *allow)
{
	struct corr_fp *fp = xcalloc(1, sizeof(*fp));

	*out = NULL;
	hmap_init(&fp->run_at);
	hmap_init(&fp->verdict);
	fp->last_m = fp->last_r = -1;
	for (const char *const *a = allow; a && *a; a++) {
		const struct fp_field *f = fp_field_find(*a);
		struct strbuf sb = STRBUF_INIT;
		int rc;

		if (f && f->checked) {
			fp->allowed[fp_field_index(f)] = 1;
			continue;
		}
		for (size_t i = 0; i < fp_nfields; i++)
			if (fp_fields[i].checked)
				strbuf_addf(&sb, "%s%s", sb.len ? ", " : "",
					    fp_fields[i].name);
		rc = pc_error_set(PC_EUSAGE, "--allow-mismatch '%s': %s (the "
				  "checked fields: %s)", *a, f ? "not a "
				  "checked field" : "no fingerprint field of "
				  "that name", strbuf_str(&sb));
		strbuf_release(&sb);
		corr_fp_free(fp);
		return rc;
	}
	*out = fp;
	return 0;
}

static const struct fp_run *run_of(const struct corr_fp *fp, int64_t id)
{
	char key[32];
	int64_t at;

	snprintf(key, sizeof(key), "%lld", (long long)id);
	return hmap_get(&fp->run_at, key, &at) ? &fp->runs[at] : NULL;
}

int corr_fp_add(struct corr_fp *fp, struct db *db, int64_t id)
{
	char key[32], *text = NULL;
	struct fp_run *r;
	int rc;

	if (run_of(fp, id))
		return 0;
	if ((rc = db_run_metadata(db, id, &text)) < 0)
		return rc;
	snprintf(key, sizeof(key), "%lld", (long long)id);
	fp->runs = xrealloc(fp->runs, (fp->nruns + 1) * sizeof(*fp->runs));
	r = &fp->runs[fp->nruns];
	memset(r, 0, sizeof(*r));
	r->id = id;
	hmap_put(&fp->run_at, key, (int64_t)fp->nruns++);
	corr_fp_parse(text, r->val);
	free(text);
	for (size_t i = 0; i < fp_nfields; i++)
		fp->any |= r->val[i] != NULL;
	return 0;
}

const char *const *corr_fp_values(const struct corr_fp *fp, int64_t run)
{
	const struct fp_run *r = run_of(fp, run);

	return r ? (const char *const *)r->val : none;
}

int corr_fp_any(const struct corr_fp *fp)
{
	return fp->any;
}

enum corr_fp_state corr_fp_state(const struct corr_fp *fp, size_t i,
				 int64_t a, int64_t b)
{
	const char *x = corr_fp_values(fp, a)[i];
	const char *y = corr_fp_values(fp, b)[i];
	const struct fp_field *f = &fp_fields[i];

	if (!x && !y)
		return CORR_FPS_NONE;
	if (x && y && fp_same(f, x, y))
		return CORR_FPS_SAME;
	if (!f->checked)
		return CORR_FPS_UNCHECKED;
	if (!x || !y)
		return CORR_FPS_UNVERIFIED;
	return fp->allowed[i] ? CORR_FPS_ALLOWED : CORR_FPS_DIFFERS;
}

int corr_fp_judge(struct corr_fp *fp, int64_t a, int64_t b, size_t *field,
		  uint32_t *allowed)
{
	uint32_t mask = 0;
	int v = CORR_FP_OK;

	for (size_t i = 0; fp->any && i < fp_nfields; i++) {
		switch (corr_fp_state(fp, i, a, b)) {
		case CORR_FPS_UNVERIFIED:
			v = CORR_FP_UNVERIFIED;
			break;
		case CORR_FPS_ALLOWED:
			mask |= UINT32_C(1) << i;
			break;
		case CORR_FPS_DIFFERS:
			if (field)
				*field = i;
			if (allowed)
				*allowed = 0;
			return CORR_FP_REFUSED;
		default:
			break;
		}
	}
	if (allowed)
		*allowed = mask;
	return v;
}

int corr_fp_load(struct corr_fp **out, struct db *db,
		 const struct db_side *ms, const struct db_side *rs,
		 const char *const *allow)
{
	struct corr_fp *fp;
	int rc;

	if ((rc = corr_fp_new(&fp, allow)) < 0)
		return rc;
	fp->ms = ms;
	fp->rs = rs;
	for (size_t i = 0; !rc && i < ms->nruns; i++)
		rc = corr_fp_add(fp, db, ms->runs[i]);
	for (size_t i = 0; !rc && i < rs->nruns; i++)
		rc = corr_fp_add(fp, db, rs->runs[i]);
	if (rc) {
		corr_fp_free(fp);
		return rc;
	}
	*out = fp;
	return 0;
}

static void refuse_why(struct corr_fp *fp, size_t i, int64_t m, int64_t r,
		       struct corr_set *s)
{
	struct strbuf sb = STRBUF_INIT;
	const struct fp_field *f = &fp_fields[i];

	strbuf_addf(&sb, "%s differs: model '%s@%s' run %lld says %s, "
		    "reference '%s@%s' run %lld says %s", f->name,
		    fp->ms ? fp->ms->source : "?",
		    fp->ms ? fp->ms->version : "?", (long long)m,
		    corr_fp_values(fp, m)[i], fp->rs ? fp->rs->source : "?",
		    fp->rs ? fp->rs->version : "?", (long long)r,
		    corr_fp_values(fp, r)[i]);
	if (f->tol > 0)
		strbuf_addf(&sb, " (tolerance %g%%)", f->tol * 100);
	strbuf_addf(&sb, "; if the difference is meant: --allow-mismatch %s",
		    f->name);
	s->not_comparable_why = strbuf_detach(&sb);
	snprintf(s->not_comparable_field, sizeof(s->not_comparable_field),
		 "%s", f->name);
}

int corr_fp_verdict(struct corr_fp *fp, int64_t model_run, int64_t ref_run,
		    struct corr_set *s)
{
	char key[48];
	int64_t v;
	uint32_t mask;

	if (!fp->any)
		return CORR_FP_OK;
	if (model_run == fp->last_m && ref_run == fp->last_r) {
		v = fp->last_v;
	} else {
		snprintf(key, sizeof(key), "%lld:%lld", (long long)model_run,
			 (long long)ref_run);
		if (!hmap_get(&fp->verdict, key, &v)) {
			size_t field = 0;

			v = corr_fp_judge(fp, model_run, ref_run, &field,
					  &mask);
			if (v == CORR_FP_REFUSED) {
				if (!s->not_comparable_why)
					refuse_why(fp, field, model_run,
						   ref_run, s);
				s->not_comparable_runs++;
			}
			v |= (int64_t)mask << 2;
			hmap_put(&fp->verdict, key, v);
		}
		fp->last_m = model_run;
		fp->last_r = ref_run;
		fp->last_v = v;
	}
	/* a pair kept only because its mismatch is allowed: counted, so
	 * the output says what --allow-mismatch admitted */
	if ((mask = (uint32_t)(v >> 2))) {
		s->admitted_pairs++;
		for (size_t i = 0; i < fp_nfields; i++)
			s->admitted[i] += (mask >> i) & 1;
	}
	return (int)(v & 3);
}

void corr_fp_free(struct corr_fp *fp)
{
	if (!fp)
		return;
	for (size_t i = 0; i < fp->nruns; i++)
		for (size_t j = 0; j < fp_nfields; j++)
			free(fp->runs[i].val[j]);
	free(fp->runs);
	hmap_release(&fp->run_at);
	hmap_release(&fp->verdict);
	free(fp);
}
