/*
 * The roofline in the matrix (issue 35): a cell with the roofline on
 * one side holds the fraction of speed of light the other source
 * reaches, not an error against the bound (see matrix.h).
 */
#include "src/matrix/matrix.h"

#include <math.h>
#include <stdio.h>

#include "src/corr/corr_roof.h"

void matrix_sol_begin(struct matrix_cell *c, int model_roof, int ref_roof,
		      int time_or_rate)
{
	c->sol = !model_roof != !ref_roof;
	c->sol_frac = 0;	/* the sum of the logs until matrix_sol_end */
	c->sol_n = c->sol_over = 0;
	c->sol_why = c->sol && !time_or_rate ?
		     "the metric is not a time or a rate" : NULL;
}

void matrix_sol_add(struct matrix_cell *c, double v, double roof,
		    int higher)
{
	double f = corr_sol_fraction(v, roof, higher);

	if (!c->sol || c->sol_why || isnan(f))
		return;
	c->sol_frac += log(f);
	c->sol_n++;
	c->sol_over += corr_roof_beats(v, roof, higher);
}

void matrix_sol_end(struct matrix_cell *c)
{
	if (c->sol && !c->sol_why && !c->sol_n)
		c->sol_why = "no key with a positive value on both sides";
	c->sol_frac = c->sol && !c->sol_why ?
		      exp(c->sol_frac / (double)c->sol_n) : NAN;
}

const char *matrix_sol_text(char *buf, size_t len,
			    const struct matrix_cell *c, int brief)
{
	char over[32] = "";

	if (!c->sol) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	if (isnan(c->sol_frac)) {
		snprintf(buf, len, "%s", brief ? "-" : "n/a");
		return buf;
	}
	if (c->sol_over)
		snprintf(over, sizeof(over), ", %ld over", c->sol_over);
	/* 0.4% keeps a digit, 62% none: the cell is a fraction, not an
	 * error to read to a tenth */
	snprintf(buf, len, "%.*f%% %sSoL%s", c->sol_frac < 0.1 ? 1 : 0,
		 100 * c->sol_frac, brief ? "" : "of ", over);
	return buf;
}
