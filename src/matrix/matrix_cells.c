/*
 * The matrix's cells and the roofline beside each key (see matrix.h):
 * per metric, every ordered pair of sources on the keys every source
 * holds (or each pair's own), the statistics and Lin's concordance, the
 * fingerprint check key by key (matrix_fp.c) and the fraction of speed
 * of light of a roofline row or column (matrix_sol.c).
 */
#include "src/matrix/matrix_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_roof.h"
#include "src/stats/stats_lin.h"

static const struct db_name *metric_info(const struct loader *ld,
					 const char *name)
{
	for (size_t i = 0; i < ld->nmetrics; i++)
		if (!strcmp(ld->metrics[i].name, name))
			return &ld->metrics[i];
	return NULL;
}

/* A roofline bounds times (from below) and rates (from above). */
static int sol_violation(const struct db_name *mt, double roof, double v)
{
	return mt && matrix_sol_bounds(mt->extra) &&
	       corr_roof_beats(v, roof, mt->higher);
}

/* 1 when every source of the grid (absent[i] == MA_IN) holds a usable
 * value of the key. */
static int all_ok(const struct matrix_key *k, const unsigned char *absent,
		  size_t nsrc)
{
	for (size_t i = 0; i < nsrc; i++)
		if (absent[i] == MA_IN && k->vals[i].state != MV_OK)
			return 0;
	return 1;
}

/* Which sources are in the grid of the metric whose keys are k[0..nk):
 * those holding a usable value of it on a key another source also holds
 * with one; why each other is not (enum matrix_absent) in mm->absent.
 * Returns how many are in. */
static size_t grid_sources(struct matrix_metric *mm,
			   const struct matrix_key *k, size_t nk, size_t ns)
{
	size_t *held = xcalloc(nk + 1, sizeof(*held)), in = 0;

	mm->absent = xcalloc(ns + 1, 1);
	for (size_t x = 0; x < nk; x++)
		for (size_t i = 0; i < ns; i++)
			held[x] += k[x].vals[i].state == MV_OK;
	for (size_t i = 0; i < ns; i++) {
		int ok = 0, invalid = 0, shared = 0;

		for (size_t x = 0; x < nk; x++) {
			ok |= k[x].vals[i].state == MV_OK;
			invalid |= k[x].vals[i].state == MV_INVALID;
			shared |= k[x].vals[i].state == MV_OK && held[x] > 1;
		}
		mm->absent[i] = !ok ? (invalid ? MA_INVALID : MA_NONE) :
				!shared ? MA_ALONE : MA_IN;
		in += mm->absent[i] == MA_IN;
	}
	free(held);
	return in;
}

static int cell_compute(struct matrix_cell *c, struct matrix *m,
			 const unsigned char *absent,
			 const struct matrix_key *k, size_t nk,
			 const struct db_name *mt, size_t i, size_t j,
			 double *a, double *b, double *sd)
{
	long noisy = 0;
	size_t n = 0;
	int rc;

	c->keys = 0;
	for (size_t x = 0; x < nk; x++) {
		const struct matrix_val *vi = &k[x].vals[i], *vj = &k[x].vals[j];

		if (vi->state != MV_OK || vj->state != MV_OK ||
		    (!m->opts.pairwise_keys && !all_ok(&k[x], absent, m->nsrc)))
			continue;
		if (matrix_fp_refused(m, c, i, j, vi, vj))
			continue;	/* not comparable (issue 37) */
		c->keys++;
		if (vj->noisy) {
			noisy++;
			continue;
		}
		a[n] = vi->v;
		b[n] = vj->v;
		sd[n++] = vj->sd;
	}
	/* a cell prints n, MAPE, bias and Pearson on logs (matrix_out.c,
	 * report_matrix.c, the TUI's Disagreements): the error statistics
	 * and the correlations, stats_compute's bits, without the fit,
	 * Kendall and the agreement statistics nothing reads (issue 21:
	 * the weighted fit was 55% of matrix's CPU) */
	if ((rc = stats_compute_mixed(&c->s, a, b, sd, n, 1)) < 0)
		return rc;
	c->s.excluded_noisy = noisy;
	/* a roofline row or column: the fraction of speed of light on the
	 * keys both hold, its violations the cell's */
	matrix_sol_cell(&c->sol, m, k, nk, mt ? mt->extra : NULL,
			mt ? mt->higher : 0, i, j);
	c->s.sol_violations = c->sol.violations;
	c->ccc = stats_lin_ccc(a, b, n);
	c->ccc_log = stats_lin_ccc_log(a, b, n);
	c->ccc_why = isnan(c->ccc) ? stats_lin_why(a, b, n, 0) : NULL;
	c->ccc_log_why = isnan(c->ccc_log) ? stats_lin_why(a, b, n, 1) : NULL;
	return 0;
}

/* Why metric mm (keys k[0..nk)) has no grid, unless one source alone
 * holds it (nothing to compare). */
static void add_skipped(struct matrix *m, const struct matrix_metric *mm,
			const struct matrix_key *k, size_t nk)
{
	size_t held = 0;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < m->nsrc; i++)
		for (size_t x = 0; x < nk; x++)
			if (k[x].vals[i].state == MV_OK) {
				held++;
				break;
			}
	if (held < 2)
		return;		/* one source's own metric: nothing to compare */
	if (mm->nin < 2) {
		strbuf_addf(&sb, "metric %s: %zu sources hold it, on no key two "
			    "of them hold", mm->metric, held);
	} else {
		strbuf_addf(&sb, "metric %s: no key held by all %zu sources of "
			    "its grid (", mm->metric, mm->nin);
		for (size_t i = 0, f = 1; i < m->nsrc; i++)
			if (mm->absent[i] == MA_IN) {
				strbuf_addf(&sb, "%s%s", f ? "" : ", ",
					    m->src[i].label);
				f = 0;
			}
		strbuf_addstr(&sb, "): --pairwise-keys compares each pair on "
			      "its own keys");
	}
	m->skipped = xrealloc(m->skipped, (m->nskipped + 1) * sizeof(char *));
	m->skipped[m->nskipped++] = strbuf_detach(&sb);
}

int matrix_build_cells(struct loader *ld)
{
	struct matrix *m = ld->m;
	size_t ns = m->nsrc;
	double *a = xmalloc((m->nkeys + 1) * sizeof(double));
	double *b = xmalloc((m->nkeys + 1) * sizeof(double));
	double *sd = xmalloc((m->nkeys + 1) * sizeof(double));
	int rc = 0;

	for (size_t x = 0; x < m->nkeys && !rc;) {
		size_t y = x, common = 0;
		struct matrix_metric *mm;
		const struct db_name *mt = metric_info(ld, m->keys[x].metric);
		long any = 0;

		while (y < m->nkeys && !strcmp(m->keys[y].metric,
					       m->keys[x].metric))
			y++;
		m->metrics = xrealloc(m->metrics, (m->nmetrics + 1) *
				      sizeof(*m->metrics));
		mm = &m->metrics[m->nmetrics];
		mm->metric = xstrdup(m->keys[x].metric);
		/* a source without the metric is absent from its grid, never
		 * empties it (said: matrix_absent_note) */
		mm->nin = grid_sources(mm, &m->keys[x], y - x, ns);
		for (size_t z = x; z < y; z++)
			common += all_ok(&m->keys[z], mm->absent, ns);
		mm->ncommon = common;
		mm->cells = xcalloc(ns * ns, sizeof(*mm->cells));
		for (size_t i = 0; i < ns; i++)
			for (size_t j = 0; j < ns; j++) {
				int in = mm->nin > 1 && mm->absent[i] == MA_IN &&
					 mm->absent[j] == MA_IN;

				if (i == j || rc)
					continue;
				/* a cell off the grid: empty, never shown */
				rc = cell_compute(&mm->cells[i * ns + j], m,
						  mm->absent, &m->keys[x],
						  in ? y - x : 0, mt, i, j,
						  a, b, sd);
				any += mm->cells[i * ns + j].keys +
				       mm->cells[i * ns + j].refused;
			}
		if (any && !rc)
			m->nmetrics++;
		else {
			add_skipped(m, mm, &m->keys[x], y - x);
			free(mm->metric);
			free(mm->cells);
			free(mm->absent);
		}
		x = y;
	}
	free(a);
	free(b);
	free(sd);
	return rc;
}

/* The roofline's violations beside a key: "archsim, h100-lab". */
void matrix_key_sol(struct loader *ld, struct matrix_key *k)
{
	const struct matrix *m = ld->m;
	const struct db_name *mt = metric_info(ld, k->metric);
	struct strbuf sb = STRBUF_INIT;

	k->sol_by = xcalloc(m->nsrc, 1);
	for (size_t r = 0; r < m->nsrc; r++) {
		if (!m->src[r].roofline || k->vals[r].state != MV_OK)
			continue;
		for (size_t i = 0; i < m->nsrc; i++)
			if (!m->src[i].roofline && k->vals[i].state == MV_OK &&
			    sol_violation(mt, k->vals[r].v, k->vals[i].v) &&
			    !k->sol_by[i]++)
				strbuf_addf(&sb, "%s%s", sb.len ? ", " : "",
					    m->src[i].label);
	}
	k->sol = sb.len ? strbuf_detach(&sb) : NULL;
	strbuf_release(&sb);
}

int matrix_in_grid(const struct matrix *m, size_t mi, size_t i)
{
	return m->metrics[mi].absent[i] == MA_IN;
}

/* Why a source is not in metric's grid, and that it is left out. */
static void absent_why(struct strbuf *sb, int why, const char *metric)
{
	if (why == MA_ALONE)
		strbuf_addf(sb, "no %s key another source holds", metric);
	else
		strbuf_addf(sb, "%s %s results", why == MA_INVALID ?
			    "only invalid" : "no", metric);
	strbuf_addf(sb, ", left out of the %s grid", metric);
}

char *matrix_absent_note(const struct matrix *m, size_t mi, int why)
{
	const struct matrix_metric *mm = &m->metrics[mi];
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < m->nsrc; i++)
		if (why != MA_IN && mm->absent[i] == why)
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "",
				    m->src[i].label);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_addstr(&sb, ": ");
	absent_why(&sb, why, mm->metric);
	return strbuf_detach(&sb);
}

char *matrix_absent_text(const struct matrix *m, size_t mi, size_t i)
{
	const struct matrix_metric *mm = &m->metrics[mi];
	struct strbuf sb = STRBUF_INIT;

	if (mm->absent[i] == MA_IN)
		return NULL;
	strbuf_addf(&sb, "%s: ", m->src[i].label);
	absent_why(&sb, mm->absent[i], mm->metric);
	return strbuf_detach(&sb);
}
