/* Significance of a change between two releases (see corrchange.h). */
#include "src/corr/corrchange.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/out/out.h"
#include "src/stats/stats_paired.h"
#include "base/strbuf.h"
#include "base/util.h"

int diff_key_cmp(const struct corr_point *x, const struct corr_point *y)
{
	if (x->workload_id != y->workload_id)
		return x->workload_id < y->workload_id ? -1 : 1;
	if (x->op_id != y->op_id)
		return x->op_id < y->op_id ? -1 : 1;
	if (x->metric_id != y->metric_id)
		return x->metric_id < y->metric_id ? -1 : 1;
	return 0;
}

int diff_ptr_cmp(const void *x, const void *y)
{
	return diff_key_cmp(*(const struct corr_point *const *)x,
		       *(const struct corr_point *const *)y);
}

static int usable(const struct corr_point *p, int skip_waived)
{
	return !(p->flags & (CORR_INVALID | CORR_NOISY_REF)) && p->ref != 0 &&
	       isfinite(p->err) && !(skip_waived && (p->flags & CORR_WAIVED));
}

/* The usable points of s sorted by key; their count in *n. */
static const struct corr_point **sorted(const struct corr_set *s,
					int skip_waived, size_t *n)
{
	const struct corr_point **v = xmalloc((s->n + 1) * sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (usable(&s->points[i], skip_waived))
			v[(*n)++] = &s->points[i];
	qsort(v, *n, sizeof(*v), diff_ptr_cmp);
	return v;
}

int corr_change_compute(struct corr_change *out, const struct corr_set *before,
			const struct corr_set *after, int skip_waived,
			double level)
{
	size_t nb, na, i = 0, j = 0, m = 0;
	const struct corr_point **b = sorted(before, skip_waived, &nb);
	const struct corr_point **a = sorted(after, skip_waived, &na);
	double *x = xmalloc((nb + 1) * sizeof(*x));
	double *y = xmalloc((nb + 1) * sizeof(*y));
	int64_t *wk = xmalloc((nb + 1) * sizeof(*wk));
	int64_t *ok = xmalloc((nb + 1) * sizeof(*ok));
	struct stats_paired w = { 0 };

	memset(out, 0, sizeof(*out));
	while (i < nb || j < na) {
		int c = i == nb ? 1 : j == na ? -1 : diff_key_cmp(b[i], a[j]);

		if (c < 0) {
			out->only_before++;
			i++;
		} else if (c > 0) {
			out->only_after++;
			j++;
		} else {
			wk[m] = a[j]->workload_id;
			ok[m] = a[j]->op_id;
			x[m] = fabs(b[i++]->err);
			y[m++] = fabs(a[j++]->err);
		}
	}
	stats_change_compute(&out->p, x, y, wk, ok, m, level);
	/* the pair-level figure: Wilcoxon over the differences */
	for (size_t k = 0; k < m; k++)
		x[k] = y[k] - x[k];
	stats_paired_wilcoxon(&w, x, m);
	out->pair_p = m ? fmin(1.0, 2 * fmin(w.p_increase, w.p_decrease)) :
		      NAN;
	out->pair_exact = w.exact;
	free(x);
	free(y);
	free(wk);
	free(ok);
	free(b);
	free(a);
	out->significant = isfinite(out->p.p_two) &&
			   out->p.p_two < 1 - out->p.level;
	/* no p (one workload, or too few for a test that holds its
	 * level: issue 34): no verdict either way */
	out->verdict = m == 0 ? "no common pairs" :
		       !isfinite(out->p.p_two) ? "unknown" :
		       !out->significant ? "not significant" :
		       out->p.delta > 0 ? "worse" : "better";
	return 0;
}

void corr_change_json(FILE *fp, const struct corr_change *c)
{
	const struct stats_change *p = &c->p;

	fprintf(fp, "{\"common\":%zu,\"mape_before\":", p->n);
	out_json_num(fp, p->mean_before);
	fputs(",\"mape_after\":", fp);
	out_json_num(fp, p->mean_after);
	fputs(",\"delta\":", fp);
	out_json_num(fp, p->delta);
	fputs(",\"delta_ci\":", fp);
	if (isfinite(p->ci_lo) && isfinite(p->ci_hi)) {
		fputc('[', fp);
		out_json_num(fp, p->ci_lo);
		fputc(',', fp);
		out_json_num(fp, p->ci_hi);
		fputc(']', fp);
	} else {
		fputs("null", fp);
	}
	fputs(",\"level\":", fp);
	out_json_num(fp, p->level);
	fprintf(fp, ",\"test\":\"cluster-robust-t\",\"design\":\"%s\","
		"\"workloads\":%zu,\"ops\":%zu,\"df\":", p->design,
		p->n_workloads, p->n_ops);
	out_json_num(fp, p->df);
	fputs(",\"p_increase\":", fp);
	out_json_num(fp, p->p_increase);
	fputs(",\"p_decrease\":", fp);
	out_json_num(fp, p->p_decrease);
	fputs(",\"p_two_sided\":", fp);
	out_json_num(fp, p->p_two);
	fprintf(fp, ",\"significant\":%s,\"verdict\":", c->significant ?
		"true" : "false");
	out_json_str(fp, c->verdict);
	fprintf(fp, ",\"pair_level\":{\"test\":\"%s\",\"p_two_sided\":",
		c->pair_exact ? "wilcoxon-exact" : "wilcoxon-normal");
	out_json_num(fp, c->pair_p);
	fputc('}', fp);
	fprintf(fp, ",\"only_before\":%zu,\"only_after\":%zu}",
		c->only_before, c->only_after);
}

void corr_change_line(struct strbuf *sb, const struct corr_change *c)
{
	const struct stats_change *p = &c->p;

	if (p->n == 0) {
		strbuf_addstr(sb, "MAPE change: no common pairs to compare");
		return;
	}
	strbuf_addf(sb, "MAPE change on the %zu common pair%s: %+.2f pt "
		    "(%.2f%% -> %.2f%%)", p->n, p->n == 1 ? "" : "s",
		    p->delta * 100, p->mean_before * 100, p->mean_after * 100);
	if (isfinite(p->ci_lo))
		strbuf_addf(sb, ", %g%% CI [%+.2f, %+.2f] pt", p->level * 100,
			    p->ci_lo * 100, p->ci_hi * 100);
	if (isfinite(p->p_two))
	{
		strbuf_addf(sb, ", p %.3g (two-sided, %zu workload%s", p->p_two,
			    p->n_workloads, p->n_workloads == 1 ? "" : "s");
		if (p->two_way)
			strbuf_addf(sb, " x %zu ops", p->n_ops);
		strbuf_addch(sb, ')');
	}
	else if (p->why)
		strbuf_addf(sb, ", no test (%s)", p->why);
	strbuf_addf(sb, ": %s", c->verdict);
}

void corr_change_text(FILE *fp, const struct corr_change *c)
{
	struct strbuf sb = STRBUF_INIT;

	corr_change_line(&sb, c);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, fp);
	strbuf_release(&sb);
}

const char *corr_change_cell(char *buf, size_t len,
			     const struct corr_change *c)
{
	if (c->p.n == 0 || !isfinite(c->p.delta))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%+.2f pt%s", c->p.delta * 100,
			 c->significant ? " *" : "");
	return buf;
}
