/* The matrix's fingerprint check per source pair (see matrix.h). */
#include "src/matrix/matrix.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_fp.h"
#include "src/corr/correlate.h"

struct matrix_fp {
	struct corr_fp *fp;
	struct hmap verdict;	/* "a:b" -> verdict | field << 2 | allowed
				   (bit 1 << 40) */
	int64_t last_a, last_b, last_v;
};

int matrix_fp_load(struct matrix *m, struct db *db)
{
	struct matrix_fp *f = xcalloc(1, sizeof(*f));
	int rc;

	hmap_init(&f->verdict);
	f->last_a = f->last_b = -1;
	m->fp = f;
	if ((rc = corr_fp_new(&f->fp, m->opts.allow_mismatch)) < 0)
		return rc;
	for (size_t i = 0; i < m->nsrc; i++)
		for (size_t r = 0; r < m->sets[i]->model.nruns; r++)
			if ((rc = corr_fp_add(f->fp, db,
					      m->sets[i]->model.runs[r])) < 0)
				return rc;
	return 0;
}

static int64_t judge(struct matrix_fp *f, int64_t a, int64_t b)
{
	char key[48];
	size_t field = 0;
	uint32_t allowed = 0;
	int64_t v;

	if (a == f->last_a && b == f->last_b)
		return f->last_v;
	snprintf(key, sizeof(key), "%lld:%lld", (long long)a, (long long)b);
	if (!hmap_get(&f->verdict, key, &v)) {
		v = corr_fp_judge(f->fp, a, b, &field, &allowed);
		v |= (int64_t)field << 2 | (allowed ? INT64_C(1) << 40 : 0);
		hmap_put(&f->verdict, key, v);
	}
	f->last_a = a;
	f->last_b = b;
	f->last_v = v;
	return v;
}

static void first_reason(struct matrix *m, size_t i, size_t j, size_t field,
			 const struct matrix_val *a, const struct matrix_val *b)
{
	const struct fp_field *fl = &fp_fields[field];
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s differs: '%s' run %lld says %s, '%s' run %lld "
		    "says %s", fl->name, m->src[i].label, (long long)a->run,
		    corr_fp_values(m->fp->fp, a->run)[field], m->src[j].label,
		    (long long)b->run,
		    corr_fp_values(m->fp->fp, b->run)[field]);
	if (fl->tol > 0)
		strbuf_addf(&sb, " (tolerance %g%%)", fl->tol * 100);
	strbuf_addf(&sb, "; if the difference is meant: --allow-mismatch %s",
		    fl->name);
	m->not_comparable_why = strbuf_detach(&sb);
}

int matrix_fp_refused(struct matrix *m, struct matrix_cell *c, size_t i,
		      size_t j, const struct matrix_val *a,
		      const struct matrix_val *b)
{
	int64_t v;

	if (!m->fp || !m->fp->fp || !corr_fp_any(m->fp->fp) ||
	    m->src[i].roofline || m->src[j].roofline)
		return 0;
	v = judge(m->fp, a->run, b->run);
	switch (v & 3) {
	case CORR_FP_REFUSED:
		c->refused++;
		m->not_comparable++;
		if (!m->not_comparable_why)
			first_reason(m, i, j, (size_t)((v >> 2) & 0xff), a, b);
		return 1;
	case CORR_FP_UNVERIFIED:
		c->unverified++;
		m->unverified++;
		break;
	}
	m->admitted += (v >> 40) & 1;
	return 0;
}

int matrix_fp_key(struct matrix *m, const struct matrix_key *k)
{
	if (!m->fp || !m->fp->fp || !corr_fp_any(m->fp->fp))
		return 0;
	for (size_t i = 0; i < m->nsrc; i++)
		for (size_t j = i + 1; j < m->nsrc; j++) {
			const struct matrix_val *a = &k->vals[i], *b =
				&k->vals[j];

			if (m->src[i].roofline || m->src[j].roofline ||
			    a->state != MV_OK || b->state != MV_OK ||
			    (judge(m->fp, a->run, b->run) & 3) !=
			    CORR_FP_REFUSED)
				continue;
			m->unclassified++;
			return 1;
		}
	return 0;
}

void matrix_fp_free(struct matrix_fp *f)
{
	if (!f)
		return;
	corr_fp_free(f->fp);
	hmap_release(&f->verdict);
	free(f);
}
