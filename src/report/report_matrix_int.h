#ifndef PC_SRC_REPORT_REPORT_MATRIX_INT_H
#define PC_SRC_REPORT_REPORT_MATRIX_INT_H
/*
 * Private to src/report/report_matrix*.c: the heatmap the html section
 * (report_matrix.c) draws per metric, written by report_matrix_svg.c.
 * One way: report_matrix.c calls it, never the other way.
 */
#include <stddef.h>

#include "src/report/report_matrix.h"

struct matrix;
struct strbuf;

/* An SVG heatmap of metric mi of m: a cell per ordered pair of the
 * metric's grid, coloured by MAPE, the value written in it; the
 * roofline's row and column grey with the fraction of speed of light. */
void report_matrix_heatmap(struct strbuf *sb, const struct matrix *m,
			   size_t mi);

#endif
