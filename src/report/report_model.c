/*
 * The helpers the report's sections share (see report_model.h): moved
 * out of report.c and report_md.c (issue 33), verbatim.
 */
#include "src/report/report_model.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "base/html.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_disc.h"
#include "src/corr/corr_roof.h"
#include "src/corr/corrout_fp.h"
#include "src/corr/correlate.h"


/* the definitions compare and the TUI count with (src/corr/corr_disc.h) */
int report_is_discrepancy(const struct corr_point *p, double limit)
{
	return corr_is_discrepancy(p->err, p->flags, limit);
}

int report_is_open(const struct corr_point *p)
{
	return annot_status_open(p->ann ? p->ann->status : NULL);
}

const char *report_status(const struct corr_point *p)
{
	return annot_state(p->ann);
}

void report_sol_text(struct strbuf *sb, const struct report *r)
{
	const struct corr_set *s = r->set;
	long bm, br;

	if (!s->roofline || !s->sol_keys) {
		strbuf_addstr(sb, "Not applicable: no roofline value bounds "
			      "these pairs (import a roofline of their ops "
			      "with perfcorr roofline).");
		return;
	}
	corr_sol_counts(s, &bm, &br);
	strbuf_addf(sb, "%s bounds %ld of %zu pairs. ", s->roofline,
		    s->sol_keys, s->n);
	if (!r->nsol) {
		strbuf_addstr(sb, "None: no model or reference value beats "
			      "it.");
		return;
	}
	strbuf_addf(sb, "A violation is a value faster than the speed of "
		    "light (a time below the roofline's, a rate above it): "
		    "that value or the roofline is wrong. Beaten by the "
		    "model on %ld, by the reference on %ld.", bm, br);
}

int report_fp_text(struct strbuf *sb, const struct report *r)
{
	return corrout_fp_sentence(sb, r->set, r->allow);
}

const char *report_unit(const struct report *r, const char *metric)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i], metric))
			return r->units[i];
	return "";
}

void report_fmt_pct(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.2f%%", v * 100);
	else
		snprintf(buf, len, "n/a");
}

void report_fmt_err(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%s%.2f%%", v > 0 ? "+" : "", v * 100);
	else
		snprintf(buf, len, "n/a");
}

void report_html_name(struct strbuf *sb, const char *s)
{
	while (*s) {
		size_t n = 0;
		int hy = 0;
		char *part;

		if (*s == ' ') {
			strbuf_addch(sb, ' ');
			s++;
			continue;
		}
		/* a word: up to a space or just after a '/' */
		while (s[n] && s[n] != ' ' && (n == 0 || s[n - 1] != '/'))
			hy |= s[n++] == '-';
		part = xstrndup(s, n);
		if (hy)
			strbuf_addstr(sb, "<span class=\"nw\">");
		html_escape(sb, part);
		if (hy)
			strbuf_addstr(sb, "</span>");
		free(part);
		s += n;
		if (s[-1] == '/' && *s && *s != ' ')
			strbuf_addstr(sb, "<wbr/>");
	}
}

void report_fmt_num(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.4f", v);
	else
		snprintf(buf, len, "n/a");
}

void report_md_escape(struct strbuf *sb, const char *s)
{
	char *fixed = html_utf8_fix(s ? s : "");	/* U+FFFD for non-UTF-8 */
	char *safe = util_safe_dup(fixed ? fixed : s ? s : "");

	for (const char *p = safe; *p; p++) {
		int esc = strchr("\\`*[]<>|&~", *p) != NULL;

		/* an underscore inside a word never starts emphasis */
		if (*p == '_')
			esc = p == safe || !isalnum((unsigned char)p[-1]) ||
			      !isalnum((unsigned char)p[1]);
		if (esc)
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
	free(safe);
	free(fixed);
}
