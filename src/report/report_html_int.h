#ifndef PC_SRC_REPORT_HTML_INT_H
#define PC_SRC_REPORT_HTML_INT_H
/*
 * The HTML writer's two files: report_html.c (the page: head, verdict
 * and cards, the accuracy and trend tables, the order of the sections)
 * and report_html_pts.c (the sections that list pairs: the open
 * discrepancies, since the last review, speed of light, noisy). Cells
 * are escaped here; none has a fixed width that its text could
 * overflow (issue 35 item 6).
 */
#include <stddef.h>

struct strbuf;
struct report;

/* Cells (report_html.c). A workload key breaks after each '/'. */
void report_html_td_wl(struct strbuf *sb, const char *s);
/* An op or metric cell: never broken at a '-' (report_html_name). */
void report_html_td_name(struct strbuf *sb, const char *s);
void report_html_td_text(struct strbuf *sb, const char *cls, const char *s);
/* A number (percent when pct); an undefined one says why in its tooltip. */
void report_html_td_val(struct strbuf *sb, double v, int pct,
			const char *why);
/* A signed error in percent, coloured by its sign. */
void report_html_td_err(struct strbuf *sb, double e);
/* A value with its unit and SI prefix ("3.15 ms"). */
void report_html_td_si(struct strbuf *sb, double v, const char *unit);

/* Sections (report_html_pts.c), in the order of the page. */
void report_html_pts_open(struct strbuf *sb, const struct report *r);
void report_html_pts_review(struct strbuf *sb, const struct report *r);
void report_html_pts_sol(struct strbuf *sb, const struct report *r);
void report_html_pts_noisy(struct strbuf *sb, const struct report *r);

#endif
