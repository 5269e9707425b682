/* The roofline's row and column of the matrix: the fraction of speed
 * of light and the violations (see matrix.h). */
#include "src/matrix/matrix.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/corr/corr_roof.h"

int matrix_sol_bounds(const char *unit)
{
	size_t n = unit ? strlen(unit) : 0;

	return n && (!strcmp(unit, "s") || !strcmp(unit, "cycles") ||
		     (n > 2 && !strcmp(unit + n - 2, "/s")));
}

double matrix_sol_fraction(double v, double roof, int higher)
{
	return corr_roof_fraction(v, roof, higher);
}

void matrix_sol_cell(struct matrix_sol *out, const struct matrix *m,
		     const struct matrix_key *k, size_t nk, const char *unit,
		     int higher, size_t i, size_t j)
{
	size_t roof, other;
	double lsum = 0;

	memset(out, 0, sizeof(*out));
	out->frac = out->lo = out->hi = NAN;
	if (!m->src[i].roofline && !m->src[j].roofline)
		return;
	out->kind = MSOL_GREY;
	if (m->src[i].roofline && m->src[j].roofline) {
		out->why = "both are rooflines";
		return;
	}
	if (!matrix_sol_bounds(unit)) {
		out->why = "a roofline bounds times and rates, not this metric";
		return;
	}
	roof = m->src[i].roofline ? i : j;
	other = roof == i ? j : i;
	for (size_t x = 0; x < nk; x++) {
		const struct matrix_val *r = &k[x].vals[roof];
		const struct matrix_val *v = &k[x].vals[other];
		double f;

		if (r->state != MV_OK || v->state != MV_OK)
			continue;
		f = matrix_sol_fraction(v->v, r->v, higher);
		if (isnan(f))
			continue;
		out->lo = out->n && out->lo < f ? out->lo : f;
		out->hi = out->n && out->hi > f ? out->hi : f;
		lsum += log(f);
		out->n++;
		out->violations += corr_roof_beats(v->v, r->v, higher);
	}
	if (!out->n) {
		out->why = "no key with a value on both";
		return;
	}
	out->kind = MSOL_FRAC;
	out->frac = exp(lsum / (double)out->n);
}

const char *matrix_sol_fmt(char *buf, size_t len, const struct matrix_sol *s)
{
	if (s->kind == MSOL_NONE)
		snprintf(buf, len, "%s", "");
	else if (s->kind == MSOL_GREY)
		snprintf(buf, len, "%s", "n/a");
	else if (s->violations)
		snprintf(buf, len, "%.1f%% SoL, %ld over", s->frac * 100,
			 s->violations);
	else
		snprintf(buf, len, "%.1f%% SoL", s->frac * 100);
	return buf;
}
