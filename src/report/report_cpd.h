#ifndef PC_SRC_REPORT_CPD_H
#define PC_SRC_REPORT_CPD_H
/*
 * The HTML report's change points (issue 34 item 5), under the trend
 * table: each step of the error series (src/corr/corrcpd.c, the same
 * E-Divisive search as `perfcorr trend`) with the versions it sits
 * between, the MAPE on either side, its p and what moved ("model
 * changed", "reference moved", "both", "error only"); a line saying none
 * was found, or why none was searched. Nothing with fewer than
 * CORR_CPD_MIN_VERSIONS paired versions (as the markdown).
 */
#include <stddef.h>

struct strbuf;
struct report;

void report_cpd_html(struct strbuf *sb, const struct report *r);
/* 1 when the trend table gets a "step" column (a step was found). */
int report_cpd_any(const struct report *r);
/* That column's cell of version v: the step's label at v, or empty
 * (nothing when there is no column). */
void report_cpd_cell(struct strbuf *sb, const struct report *r, size_t v);

#endif
