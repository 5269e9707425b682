/* The report's provenance (see report_prov.h). */
#include "src/report/report_prov.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/html.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/runinfo.h"
#include "src/report/report_model.h"

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Runs i and j are the same file seen the same way on the same side. */
static int same_run(const struct report *r, size_t i, size_t j)
{
	const struct runinfo *a = &r->runs[i], *b = &r->runs[j];

	return (i < r->nmodel_runs) == (j < r->nmodel_runs) &&
	       a->sha256 && *a->sha256 && same_str(a->sha256, b->sha256) &&
	       same_str(a->source, b->source) &&
	       same_str(a->version, b->version) &&
	       same_str(a->platform, b->platform) &&
	       same_str(a->format, b->format) &&
	       ((isnan(a->clock_hz) && isnan(b->clock_hz)) ||
		a->clock_hz == b->clock_hz);
}

/* The first run of each set of identical ones; *ids gets every id of
 * run i's set ("3, 5"), *n their count and *results their sum. */
static int prov_row(const struct report *r, size_t i, struct strbuf *ids,
		    long *n, long long *results)
{
	for (size_t j = 0; j < i; j++)
		if (same_run(r, i, j))
			return 0;
	*n = 0;
	*results = 0;
	strbuf_reset(ids);
	for (size_t j = i; j < r->nruns; j++) {
		if (j != i && !same_run(r, i, j))
			continue;
		strbuf_addf(ids, "%s%lld", *n ? ", " : "",
			    (long long)r->runs[j].id);
		*results += (long long)r->runs[j].n_results;
		(*n)++;
	}
	return 1;
}

static void clock_text(char *b, size_t len, double hz)
{
	if (isfinite(hz) && hz > 0)
		snprintf(b, len, "%g MHz", hz / 1e6);
	else
		snprintf(b, len, "%s", "");
}

static const char prov_intro[] = "Every number comes from these runs; a "
	"run is one imported file, identified by its content hash.";
static const char prov_fold[] = "Runs of the same file, source, version, "
	"platform and clock are one row.";

/* Runs i and j belong to one line of the summary: the same side,
 * source, version and platform. */
static int same_line(const struct report *r, size_t i, size_t j)
{
	const struct runinfo *a = &r->runs[i], *b = &r->runs[j];

	return (i < r->nmodel_runs) == (j < r->nmodel_runs) &&
	       same_str(a->source, b->source) &&
	       same_str(a->version, b->version) &&
	       same_str(a->platform, b->platform);
}

/* Append the ids of the runs of line i as ranges ("run 3", "runs 4-9,
 * 12"): ids ascend within a side, as db_runinfo_get returns them. */
static void line_ids(struct strbuf *sb, const struct report *r, size_t i)
{
	long n = 0;
	int64_t first = -1, last = -1;

	for (size_t j = i; j < r->nruns; j++)
		n += same_line(r, i, j);
	strbuf_addstr(sb, n == 1 ? "run " : "runs ");
	n = 0;
	for (size_t j = i; j <= r->nruns; j++) {
		int64_t id;

		if (j < r->nruns && !same_line(r, i, j))
			continue;
		id = j < r->nruns ? r->runs[j].id : -2;
		if (first >= 0 && id == last + 1) {
			last = id;
			continue;
		}
		if (first >= 0)
			strbuf_addf(sb, last > first ? "%s%lld-%lld" :
				    "%s%lld", n++ ? ", " : "",
				    (long long)first, (long long)last);
		first = last = id;
	}
}

/* Is run j of line i the first of the runs of its file? */
static int first_file(const struct report *r, size_t i, size_t j)
{
	for (size_t k = i; k < j; k++)
		if (same_line(r, i, k) && same_run(r, k, j))
			return 0;
	return 1;
}

/* The summary line of the runs like run i (its first): what and how
 * much, from which files, when and by whom. Text is escaped by esc. */
static void line_text(struct strbuf *sb, const struct report *r, size_t i,
		      void (*esc)(struct strbuf *, const char *))
{
	const struct runinfo *u = &r->runs[i];
	long files = 0;
	long long results = 0;
	char day0[11] = "", day1[11] = "", clk[32];
	struct strbuf fmts = STRBUF_INIT, by = STRBUF_INIT;

	for (size_t j = i; j < r->nruns; j++) {
		const struct runinfo *v = &r->runs[j];
		char d[11];
		int seen;

		if (!same_line(r, i, j))
			continue;
		results += (long long)v->n_results;
		files += first_file(r, i, j);
		snprintf(d, sizeof(d), "%.10s", v->imported_at ? v->imported_at :
			 "");
		if (!*day0 || strcmp(d, day0) < 0)
			memcpy(day0, d, sizeof(d));
		if (strcmp(d, day1) > 0)
			memcpy(day1, d, sizeof(d));
		seen = 0;
		for (size_t k = i; k < j && !seen; k++)
			seen = same_line(r, i, k) &&
			       same_str(r->runs[k].format, v->format);
		if (!seen) {
			long c = 0;

			for (size_t k = j; k < r->nruns; k++)
				c += same_line(r, i, k) &&
				     same_str(r->runs[k].format, v->format) &&
				     first_file(r, i, k);
			strbuf_addf(&fmts, "%s%s", fmts.len ? ", " : "",
				    v->format ? v->format : "?");
			if (c > 1)
				strbuf_addf(&fmts, " %ld", c);
		}
		seen = 0;
		for (size_t k = i; k < j && !seen; k++)
			seen = same_line(r, i, k) &&
			       same_str(r->runs[k].imported_by, v->imported_by);
		if (!seen && v->imported_by && *v->imported_by)
			strbuf_addf(&by, "%s%s", by.len ? ", " : "",
				    v->imported_by);
	}
	esc(sb, u->source);
	strbuf_addch(sb, ' ');
	esc(sb, u->version);
	strbuf_addf(sb, " (%s)", u->kind ? u->kind : "?");
	if (u->platform && *u->platform) {
		strbuf_addstr(sb, " on ");
		esc(sb, u->platform);
	}
	strbuf_addf(sb, ": %ld file%s (", files, files == 1 ? "" : "s");
	esc(sb, fmts.buf ? fmts.buf : "");
	strbuf_addf(sb, "), %lld result%s", results, results == 1 ? "" : "s");
	for (size_t j = i, nclk = 0; j < r->nruns; j++) {
		int seen = 0;

		if (!same_line(r, i, j) || !(r->runs[j].clock_hz > 0))
			continue;
		for (size_t k = i; k < j && !seen; k++)
			seen = same_line(r, i, k) &&
			       r->runs[k].clock_hz == r->runs[j].clock_hz;
		if (seen)
			continue;
		clock_text(clk, sizeof(clk), r->runs[j].clock_hz);
		strbuf_addf(sb, "%s%s", nclk++ ? ", " : ", clock ", clk);
	}
	strbuf_addstr(sb, "; ");
	line_ids(sb, r, i);
	strbuf_addf(sb, ", imported %s%s%s", day0, strcmp(day0, day1) ?
		    " to " : "", strcmp(day0, day1) ? day1 : "");
	if (by.len) {
		strbuf_addstr(sb, " by ");
		esc(sb, by.buf);
	}
	strbuf_release(&fmts);
	strbuf_release(&by);
}

/* Is run i the first of its summary line? */
static int line_first(const struct report *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (same_line(r, j, i))
			return 0;
	return 1;
}

static size_t nfiles(const struct report *r)
{
	struct strbuf ids = STRBUF_INIT;
	size_t n = 0;
	long k;
	long long res;

	for (size_t i = 0; i < r->nruns; i++)
		n += (size_t)prov_row(r, i, &ids, &k, &res);
	strbuf_release(&ids);
	return n;
}

static void md_cell(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, " ");
	report_md_escape(sb, s);
	strbuf_addstr(sb, " |");
}

void report_prov_md(struct strbuf *sb, const struct report *r)
{
	struct strbuf ids = STRBUF_INIT;
	long n;
	long long res;
	char clk[32];

	strbuf_addf(sb, "## Provenance\n\n%s\n\n", prov_intro);
	for (size_t i = 0; i < r->nruns; i++)
		if (line_first(r, i)) {
			strbuf_addstr(sb, i < r->nmodel_runs ? "- **model** " :
				      "- **reference** ");
			line_text(sb, r, i, report_md_escape);
			strbuf_addch(sb, '\n');
		}
	strbuf_addf(sb, "\n<details><summary>The %zu files and their sha256"
		    "</summary>\n\n%s\n\n| side | runs | source | "
		    "version | format | platform | clock | file | sha256 | "
		    "imported | by | results |\n|---|---|---|---|---|---|--:|"
		    "---|---|---|---|--:|\n", nfiles(r), prov_fold);
	for (size_t i = 0; i < r->nruns; i++) {
		const struct runinfo *u = &r->runs[i];

		if (!prov_row(r, i, &ids, &n, &res))
			continue;
		strbuf_addf(sb, "| %s | %s |", i < r->nmodel_runs ? "model" :
			    "reference", ids.buf);
		md_cell(sb, u->source);
		md_cell(sb, u->version);
		md_cell(sb, u->format);
		md_cell(sb, u->platform);
		clock_text(clk, sizeof(clk), u->clock_hz);
		strbuf_addf(sb, " %s |", clk);
		md_cell(sb, u->file_name);
		strbuf_addf(sb, " `%s` |", u->sha256 ? u->sha256 : "");
		md_cell(sb, u->imported_at);
		md_cell(sb, u->imported_by);
		strbuf_addf(sb, " %lld |\n", res);
	}
	strbuf_addstr(sb, "\n</details>\n\n");
	strbuf_release(&ids);
}

static void td(struct strbuf *sb, const char *cls, const char *s)
{
	strbuf_addf(sb, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
		    cls ? "\"" : "");
	html_escape(sb, s);
	strbuf_addstr(sb, "</td>");
}

void report_prov_html(struct strbuf *sb, const struct report *r)
{
	struct strbuf ids = STRBUF_INIT;
	long n;
	long long res;
	char clk[32], sha8[9];

	strbuf_addf(sb, "<section id=\"provenance\">\n<h2>Provenance</h2>\n"
		    "<p class=\"note\">%s</p>\n<ul class=\"prov\">\n",
		    prov_intro);
	for (size_t i = 0; i < r->nruns; i++)
		if (line_first(r, i)) {
			strbuf_addstr(sb, i < r->nmodel_runs ? "<li><b>model</b> "
				      : "<li><b>reference</b> ");
			line_text(sb, r, i, html_escape);
			strbuf_addstr(sb, "</li>\n");
		}
	strbuf_addf(sb, "</ul>\n<details><summary>The %zu files and their "
		    "sha256</summary>\n<p class=\"note\">%s Hover a hash for "
		    "all of it.</p>\n"
		    "<table>\n<thead><tr><th>side</th><th>runs</th><th>source"
		    "</th><th>version</th><th>format</th><th>platform</th><th "
		    "class=\"n\">clock</th><th>file</th><th>sha256</th><th>"
		    "imported</th><th>by</th><th class=\"n\">results</th></tr>"
		    "</thead>\n<tbody>\n", nfiles(r), prov_fold);
	for (size_t i = 0; i < r->nruns; i++) {
		const struct runinfo *u = &r->runs[i];

		if (!prov_row(r, i, &ids, &n, &res))
			continue;
		strbuf_addf(sb, "<tr><td>%s</td><td class=\"nw\">%s</td>",
			    i < r->nmodel_runs ? "model" : "reference", ids.buf);
		td(sb, NULL, u->source);
		td(sb, NULL, u->version);
		td(sb, NULL, u->format);
		td(sb, NULL, u->platform);
		clock_text(clk, sizeof(clk), u->clock_hz);
		td(sb, "n", clk);
		td(sb, "wrap", u->file_name);
		snprintf(sha8, sizeof(sha8), "%.8s", u->sha256 ? u->sha256 : "");
		strbuf_addstr(sb, "<td class=\"hash\"><code title=\"");
		html_escape(sb, u->sha256);
		strbuf_addstr(sb, "\">");
		html_escape(sb, sha8);
		strbuf_addstr(sb, "</code></td>");
		td(sb, "nw", u->imported_at);
		td(sb, NULL, u->imported_by);
		strbuf_addf(sb, "<td class=\"n\">%lld</td></tr>\n", res);
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n</details>\n</section>\n");
	strbuf_release(&ids);
}
