#ifndef PC_SRC_REPORT_FIG_H
#define PC_SRC_REPORT_FIG_H
/*
 * The HTML report's look: its style sheet (screen and print) and its
 * figures section (one scatter per metric, the error histogram, the MAPE
 * trend), drawn by svg.c from the report model.
 */
struct strbuf;
struct report;

/* The whole style sheet; contains no '<' or '&' (valid XML text). */
extern const char report_fig_css[];

/* Append <section id="figures"> with every figure. */
void report_fig_html(struct strbuf *sb, const struct report *r);

#endif
