/* Fingerprint checks of the pairs' runs (see corr_fp.h). */
#include "src/corr/corr_fp.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/fingerprint.h"
#include "base/hmap.h"
#include "base/jsonutil.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/pairs.h"
#include "db/runinfo.h"
#include "src/corr/correlate.h"

struct fp_run {
	int64_t id;
	char **val;		/* per fp_fields entry, NULL = not stated */
};

struct corr_fp {
	struct fp_run *runs;
	size_t nruns;
	struct hmap run_at;	/* "id" -> index in runs */
	struct hmap verdict;	/* "m:r" -> verdict */
	unsigned char *allowed;	/* per field */
	const struct db_side *ms, *rs;
	int64_t last_m, last_r;
	int last_v;
	int any;		/* some run states a field */
};

static int load_run(struct corr_fp *fp, struct db *db, int64_t id)
{
	char key[32], *text = NULL;
	cJSON *doc = NULL, *kv;
	struct fp_run *r;
	int64_t seen;
	int rc;

	snprintf(key, sizeof(key), "%lld", (long long)id);
	if (hmap_get(&fp->run_at, key, &seen))
		return 0;
	if ((rc = db_run_metadata(db, id, &text)) < 0)
		return rc;
	fp->runs = xrealloc(fp->runs, (fp->nruns + 1) * sizeof(*fp->runs));
	r = &fp->runs[fp->nruns];
	r->id = id;
	r->val = xcalloc(fp_nfields, sizeof(*r->val));
	hmap_put(&fp->run_at, key, (int64_t)fp->nruns++);
	/* metadata the writer wrote: a JSON object of strings */
	if (jsonutil_parse_text(&doc, text, "runs.metadata", 1) < 0) {
		pc_error_clear();
		free(text);
		return 0;
	}
	cJSON_ArrayForEach(kv, doc) {
		const struct fp_field *f;
		size_t i;

		if (!kv->string || strncmp(kv->string, "fp.", 3) ||
		    !cJSON_IsString(kv) || !(f = fp_field_find(kv->string)))
			continue;
		i = fp_field_index(f);
		if (!r->val[i]) {	/* the first one stated wins */
			r->val[i] = xstrdup(kv->valuestring);
			fp->any = 1;
		}
	}
	cJSON_Delete(doc);
	free(text);
	return 0;
}

int corr_fp_load(struct corr_fp **out, struct db *db,
		 const struct db_side *ms, const struct db_side *rs,
		 const char *const *allow)
{
	struct corr_fp *fp = xcalloc(1, sizeof(*fp));
	int rc = 0;

	*out = NULL;
	hmap_init(&fp->run_at);
	hmap_init(&fp->verdict);
	fp->allowed = xcalloc(fp_nfields, 1);
	fp->ms = ms;
	fp->rs = rs;
	fp->last_m = fp->last_r = -1;
	for (const char *const *a = allow; a && *a; a++) {
		const struct fp_field *f = fp_field_find(*a);
		struct strbuf sb = STRBUF_INIT;

		if (!f || !f->checked) {
			for (size_t i = 0; i < fp_nfields; i++)
				if (fp_fields[i].checked)
					strbuf_addf(&sb, "%s%s", sb.len ?
						    ", " : "",
						    fp_fields[i].name);
			rc = pc_error_set(PC_EUSAGE, "--allow-mismatch '%s': "
					  "%s (the checked fields: %s)", *a,
					  f ? "not a checked field" :
					  "no fingerprint field of that name",
					  strbuf_str(&sb));
			strbuf_release(&sb);
			corr_fp_free(fp);
			return rc;
		}
		fp->allowed[fp_field_index(f)] = 1;
	}
	for (size_t i = 0; !rc && i < ms->nruns; i++)
		rc = load_run(fp, db, ms->runs[i]);
	for (size_t i = 0; !rc && i < rs->nruns; i++)
		rc = load_run(fp, db, rs->runs[i]);
	if (rc) {
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

static void refuse_why(struct corr_fp *fp, const struct fp_field *f,
		       const struct fp_run *m, const struct fp_run *r,
		       struct corr_set *s)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = fp_field_index(f);

	strbuf_addf(&sb, "%s differs: model '%s@%s' run %lld says %s, "
		    "reference '%s@%s' run %lld says %s", f->name,
		    fp->ms->source, fp->ms->version, (long long)m->id,
		    m->val[i], fp->rs->source, fp->rs->version,
		    (long long)r->id, r->val[i]);
	if (f->tol > 0)
		strbuf_addf(&sb, " (tolerance %g%%)", f->tol * 100);
	strbuf_addf(&sb, "; if the difference is meant: --allow-mismatch %s",
		    f->name);
	s->not_comparable_why = strbuf_detach(&sb);
	snprintf(s->not_comparable_field, sizeof(s->not_comparable_field),
		 "%s", f->name);
}

static int judge(struct corr_fp *fp, const struct fp_run *m,
		 const struct fp_run *r, struct corr_set *s)
{
	int v = CORR_FP_OK;

	if (!m || !r)
		return CORR_FP_OK;
	for (size_t i = 0; i < fp_nfields; i++) {
		const struct fp_field *f = &fp_fields[i];

		if (!f->checked || (!m->val[i] && !r->val[i]))
			continue;
		if (!m->val[i] || !r->val[i]) {
			v = CORR_FP_UNVERIFIED;
			continue;
		}
		if (fp_same(f, m->val[i], r->val[i]) || fp->allowed[i])
			continue;
		if (!s->not_comparable_why)
			refuse_why(fp, f, m, r, s);
		return CORR_FP_REFUSED;
	}
	return v;
}

int corr_fp_verdict(struct corr_fp *fp, int64_t model_run, int64_t ref_run,
		    struct corr_set *s)
{
	char key[48];
	int64_t v;

	if (!fp->any)
		return CORR_FP_OK;
	if (model_run == fp->last_m && ref_run == fp->last_r)
		return fp->last_v;
	snprintf(key, sizeof(key), "%lld:%lld", (long long)model_run,
		 (long long)ref_run);
	if (!hmap_get(&fp->verdict, key, &v)) {
		v = judge(fp, run_of(fp, model_run), run_of(fp, ref_run), s);
		hmap_put(&fp->verdict, key, v);
		if (v == CORR_FP_REFUSED)
			s->not_comparable_runs++;
	}
	fp->last_m = model_run;
	fp->last_r = ref_run;
	fp->last_v = (int)v;
	return (int)v;
}

void corr_fp_free(struct corr_fp *fp)
{
	if (!fp)
		return;
	for (size_t i = 0; i < fp->nruns; i++) {
		for (size_t j = 0; j < fp_nfields; j++)
			free(fp->runs[i].val[j]);
		free(fp->runs[i].val);
	}
	free(fp->runs);
	hmap_release(&fp->run_at);
	hmap_release(&fp->verdict);
	free(fp->allowed);
	free(fp);
}
