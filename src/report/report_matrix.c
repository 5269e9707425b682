/* The report's "Who disagrees with whom" section (see report_matrix.h). */
#include "src/report/report_matrix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "db/query.h"
#include "base/error.h"
#include "src/corr/correlate.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/html.h"
#include "src/matrix/matrix.h"
#include "src/report/report_model.h"

#define NOTE_TWO "not drawn: only two sources hold results, and the report " \
		 "above is their comparison"

/*
 * 1 when the matrix is known to hold exactly the report's two sources
 * without building it (pairing each source again, to be dropped: "not
 * drawn"): only two sources have runs, each in one version, and they
 * are the report's model and reference (whose pairing found points, so
 * both hold results in that version). Otherwise 0 (build and see); <0
 * on a database error.
 */
static int only_the_two(const struct report *r, struct db *db)
{
	const struct corr_set *s = r->set;
	struct db_cursor *c;
	int rc, cs = -1, cr = -1, cv = -1, k = 0, mine = 0, one = 1;

	if (s->n == 0 || !strcmp(s->model.source, s->ref.source))
		return 0;
	if ((rc = db_list_open(&c, db, DB_LIST_SOURCES, NULL)) < 0)
		return rc;
	for (int i = 0; i < db_cursor_ncols(c); i++) {
		const char *name = db_cursor_name(c, i);

		cs = !strcmp(name, "source") ? i : cs;
		cr = !strcmp(name, "runs") ? i : cr;
		cv = !strcmp(name, "versions") ? i : cv;
	}
	while (cs >= 0 && cr >= 0 && cv >= 0 &&
	       (rc = db_cursor_next(c)) > 0) {
		const char *src = db_cursor_text(c, cs);

		if (db_cursor_int(c, cr) == 0)
			continue;	/* matrix_build skips it too */
		k++;
		one &= db_cursor_int(c, cv) == 1;
		mine += src && (!strcmp(src, s->model.source) ||
				!strcmp(src, s->ref.source));
	}
	db_cursor_close(c);
	if (rc < 0)
		return rc;
	return cs >= 0 && cr >= 0 && cv >= 0 && k == 2 && mine == 2 && one;
}

int report_matrix_build(struct report *r, struct db *db)
{
	struct matrix_opts o = MATRIX_OPTS_INIT;
	int rc;

	o.max_ref_cv = r->opts.max_ref_cv;
	o.allow_mismatch = r->allow;
	if ((rc = only_the_two(r, db)) < 0)
		return rc;
	if (rc == 1) {
		r->matrix = NULL;
		r->matrix_note = xstrdup(NOTE_TWO);
		return 0;
	}
	rc = matrix_build(&r->matrix, db, &o);
	if (rc == PC_EDB || rc == PC_EIO)
		return rc;
	if (rc < 0) {
		r->matrix = NULL;
		r->matrix_note = xasprintf("not computed: %s", pc_error_last());
		pc_error_clear();
	} else if (r->matrix->nsrc < 3) {
		matrix_free(r->matrix);
		r->matrix = NULL;
		r->matrix_note = xstrdup(NOTE_TWO);
	}
	return 0;
}

/* ---- markdown ---- */

static void md_cell(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, " ");
	report_md_escape(sb, s);
	strbuf_addstr(sb, " |");
}

/* A cell of the grids: "8.28% (n 16, 0.9901)"; the roofline's row and
 * column the fraction of speed of light, "67.3% SoL, 3 over (n 42)"
 * (matrix_sol_cell: the roofline is a bound, not a model). */
static void grid_text(char *cell, size_t len, const struct matrix_cell *c)
{
	char a[48], b[32];

	if (!c->keys && c->refused) {	/* issue 37 */
		snprintf(cell, len, "not comparable (%ld refused)",
			 c->refused);
		return;
	}
	if (c->sol.kind != MSOL_NONE) {
		matrix_sol_fmt(a, sizeof(a), &c->sol);
		snprintf(cell, len, "%s (n %ld)", a, c->sol.n);
		return;
	}
	if (!c->keys) {
		snprintf(cell, len, "no common keys");
		return;
	}
	report_fmt_pct(a, sizeof(a), c->s.mape);
	report_fmt_num(b, sizeof(b), c->ccc_log);
	snprintf(cell, len, "%s (n %ld, %s)", a, c->s.n, b);
}

/* After the count of keys left out of the vote (unclassified 0) or not
 * classified (1): the first such key and why, ended. */
static void first_vote(struct strbuf *t, const struct matrix *m,
		       int unclassified)
{
	for (size_t x = 0; x < m->nkeys; x++) {
		const struct matrix_key *k = &m->keys[x];

		if (!k->vote_why || k->fp_unclassified != unclassified)
			continue;
		strbuf_addf(t, " (first: %s %s %s: %s). ", k->workload, k->op,
			    k->metric, k->vote_why);
		return;
	}
}

/* The fingerprint check over the cells (issue 37) as plain sentences;
 * 0 when there is nothing to say. */
static int fp_note(struct strbuf *t, const struct matrix *m)
{
	if (m->not_comparable)
		strbuf_addf(t, "Not comparable: %ld key pair%s of the cells "
			    "refused (left out; a cell with none left says "
			    "so); first: %s. ", m->not_comparable,
			    m->not_comparable == 1 ? "" : "s",
			    m->not_comparable_why);
	if (m->unclassified)
		strbuf_addf(t, "%ld key%s not classified below: %s voters' "
			    "runs do not pair", m->unclassified,
			    m->unclassified == 1 ? "" : "s",
			    m->unclassified == 1 ? "its" : "their");
	first_vote(t, m, 1);
	if (m->vote_left)
		strbuf_addf(t, "%ld key%s classified below without a voter "
			    "whose run does not pair with the others'",
			    m->vote_left, m->vote_left == 1 ? "" : "s");
	first_vote(t, m, 0);
	if (m->unverified)
		strbuf_addf(t, "Unverified: %ld key pair%s of the cells (a "
			    "checked workload-fingerprint field only one run "
			    "states). ", m->unverified,
			    m->unverified == 1 ? "" : "s");
	if (m->opts.allow_mismatch && *m->opts.allow_mismatch) {
		strbuf_addstr(t, "Allowed mismatches (--allow-mismatch):");
		for (const char *const *a = m->opts.allow_mismatch; *a; a++)
			strbuf_addf(t, " %s", *a);
		strbuf_addf(t, "; %ld key pair%s admitted. ", m->admitted,
			    m->admitted == 1 ? "" : "s");
	}
	while (t->len && t->buf[t->len - 1] == ' ')
		t->buf[--t->len] = '\0';
	return t->len > 0;
}

/* Who is left out of metric mi's grid and why, as sentences; 0 when
 * every source is in it. */
static int absent_note(struct strbuf *t, const struct matrix *m, size_t mi)
{
	for (int why = MA_NONE; why <= MA_ALONE; why++) {
		char *note = matrix_absent_note(m, mi, why);

		if (note)
			strbuf_addf(t, "%s%s.", t->len ? " " : "", note);
		free(note);
	}
	return t->len > 0;
}

/* The sources and metrics the matrix leaves out (no results after the
 * filters, cycles without a clock; a metric without a common key). */
static int left_note(struct strbuf *t, const struct matrix *m)
{
	for (size_t i = 0; i < m->nleft; i++)
		strbuf_addf(t, "%sLeft out: %s.", t->len ? " " : "",
			    m->left_out[i]);
	for (size_t i = 0; i < m->nskipped; i++)
		strbuf_addf(t, "%sNot drawn: %s.", t->len ? " " : "",
			    m->skipped[i]);
	return t->len > 0;
}

/* The heading's count: "(17 keys every source holds)", "(4 keys both
 * sources of the grid hold)". */
static void grid_keys(struct strbuf *sb, const struct matrix *m, size_t mi)
{
	const struct matrix_metric *mm = &m->metrics[mi];

	if (mm->nin == m->nsrc)
		strbuf_addf(sb, " (%zu keys every source holds)", mm->ncommon);
	else if (mm->nin == 2)
		strbuf_addf(sb, " (%zu keys both sources of the grid hold)",
			    mm->ncommon);
	else
		strbuf_addf(sb, " (%zu keys all %zu sources of the grid hold)",
			    mm->ncommon, mm->nin);
}

static void md_grid(struct strbuf *sb, const struct matrix *m, size_t mi)
{
	const struct matrix_metric *mm = &m->metrics[mi];
	char cell[96];

	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(sb, "### ");
	report_md_escape(sb, mm->metric);
	if (!m->opts.pairwise_keys)
		grid_keys(sb, m, mi);
	strbuf_addstr(sb, "\n\n");
	if (absent_note(&t, m, mi)) {
		report_md_escape(sb, strbuf_str(&t));
		strbuf_addstr(sb, "\n\n");
	}
	strbuf_release(&t);
	strbuf_addstr(sb, "MAPE of the model (row) against the reference "
		      "(column), n and Lin's concordance on logs; the "
		      "roofline's row and column: the fraction of speed of "
		      "light (a bound, not a model), its violations and n:\n\n"
		      "| model \\\\ reference |");
	for (size_t j = 0; j < m->nsrc; j++)
		if (matrix_in_grid(m, mi, j))
			md_cell(sb, m->src[j].label);
	strbuf_addstr(sb, "\n|---|");
	for (size_t j = 0; j < m->nsrc; j++)
		if (matrix_in_grid(m, mi, j))
			strbuf_addstr(sb, "---:|");
	strbuf_addch(sb, '\n');
	for (size_t i = 0; i < m->nsrc; i++) {
		if (!matrix_in_grid(m, mi, i))
			continue;
		strbuf_addstr(sb, "|");
		md_cell(sb, m->src[i].label);
		for (size_t j = 0; j < m->nsrc; j++) {
			const struct matrix_cell *c;

			if (!matrix_in_grid(m, mi, j))
				continue;
			if (i == j) {
				strbuf_addstr(sb, " - |");
				continue;
			}
			c = matrix_cell(m, mi, i, j);
			grid_text(cell, sizeof(cell), c);
			md_cell(sb, cell);
		}
		strbuf_addch(sb, '\n');
	}
	strbuf_addch(sb, '\n');
}

/* A key's suggested cause and rule, and who was left out of its vote
 * (issue 37). Caller frees. */
static char *key_cause(const struct matrix_key *k)
{
	return xasprintf("%s (%s)%s%s", k->cause ? k->cause : "none", k->rule,
			 k->vote_why ? "; left out of the vote: " : "",
			 k->vote_why ? k->vote_why : "");
}

static void md_key_row(struct strbuf *sb, const struct matrix_key *k)
{
	char sp[32];
	char *ann = k->ann ? xasprintf("%s/%s: %s (%s, %s)", k->ann->status,
				       k->ann->category, k->ann->note,
				       k->ann->author, k->ann->created_at) :
			     xstrdup(ANNOT_STATE_NONE);
	char *cause = key_cause(k);

	report_fmt_pct(sp, sizeof(sp), k->spread);
	strbuf_addstr(sb, "|");
	md_cell(sb, k->workload);
	md_cell(sb, k->op);
	md_cell(sb, k->metric);
	md_cell(sb, sp);
	md_cell(sb, cause);
	md_cell(sb, k->sol ? k->sol : "");
	strbuf_addstr(sb, " ");
	strbuf_add_lines(sb, ann, report_md_escape, "<br>");
	strbuf_addstr(sb, " |\n");
	free(ann);
	free(cause);
}

void report_matrix_md(struct strbuf *sb, const struct report *r)
{
	const struct matrix *m = r->matrix;
	struct matrix_label *l = NULL;
	size_t nl, n = 0, *ord;

	if (!r->opts.matrix)
		return;
	strbuf_addstr(sb, "## Who disagrees with whom\n\n");
	if (!m) {
		strbuf_addstr(sb, "The disagreement matrix was ");
		report_md_escape(sb, r->matrix_note ? r->matrix_note :
				 "not computed");
		strbuf_addstr(sb, ".\n\n");
		return;
	}
	strbuf_addstr(sb, "Every source at its latest version (`perfcorr "
		      "matrix`):");
	for (size_t i = 0; i < m->nsrc; i++) {
		strbuf_addstr(sb, i ? ", " : " ");
		report_md_escape(sb, m->src[i].label);
		strbuf_addf(sb, " (%s)", m->src[i].kind);
	}
	strbuf_addstr(sb, ".\n\n");
	for (size_t mi = 0; mi < m->nmetrics; mi++)
		md_grid(sb, m, mi);
	{
		struct strbuf t = STRBUF_INIT;

		if (left_note(&t, m)) {
			report_md_escape(sb, strbuf_str(&t));
			strbuf_addstr(sb, "\n\n");
		}
		strbuf_reset(&t);
		if (fp_note(&t, m)) {
			report_md_escape(sb, strbuf_str(&t));
			strbuf_addstr(sb, "\n\n");
		}
		strbuf_release(&t);
	}
	nl = matrix_labels(m, &l);
	ord = matrix_order(m, &n);
	strbuf_addf(sb, "### The odd one out\n\nKeys held by three or more "
		    "non-roofline sources, grouped by which agree within "
		    "max(%g%%, the key's spread); the roofline never joins a "
		    "group.\n\n", m->opts.tolerance * 100);
	if (!nl)
		strbuf_addstr(sb, m->unclassified ? "No key classified: the "
			      "runs of those three sources hold are not "
			      "comparable.\n\n" : "No key is held by three "
			      "non-roofline sources.\n\n");
	else
		strbuf_addstr(sb, "| pattern | keys |\n|---|---:|\n");
	for (size_t i = 0; i < nl; i++) {
		strbuf_addstr(sb, "|");
		md_cell(sb, l[i].label);
		strbuf_addf(sb, " %ld |\n", l[i].count);
	}
	for (size_t i = 0; i < nl; i++) {
		size_t top = (size_t)l[i].count < REPORT_MATRIX_TOP ?
			     (size_t)l[i].count : REPORT_MATRIX_TOP;

		strbuf_addstr(sb, "\n#### ");
		report_md_escape(sb, l[i].label);
		strbuf_addf(sb, " (%ld key%s%s)\n\n| workload | op | metric | "
			    "spread | suggested (rule) | roofline violated by "
			    "| annotation |\n|---|---|---|---:|---|---|---|\n",
			    l[i].count, l[i].count == 1 ? "" : "s",
			    top < (size_t)l[i].count ? ", widest spread first" :
			    "");
		for (size_t x = 0; x < top; x++)
			md_key_row(sb, &m->keys[ord[l[i].first + x]]);
	}
	strbuf_addch(sb, '\n');
	free(ord);
	free(l);
}

/* ---- html ---- */

static void td(struct strbuf *sb, const char *cls, const char *s)
{
	strbuf_addstr(sb, cls ? "<td class=\"" : "<td>");
	if (cls) {
		strbuf_addstr(sb, cls);
		strbuf_addstr(sb, "\">");
	}
	html_escape(sb, s);
	strbuf_addstr(sb, "</td>");
}

/* a cell of names (report_html_name: never broken at a '-') */
static void td_name(struct strbuf *sb, const char *cls, const char *s)
{
	strbuf_addstr(sb, cls ? "<td class=\"" : "<td>");
	if (cls) {
		strbuf_addstr(sb, cls);
		strbuf_addstr(sb, "\">");
	}
	report_html_name(sb, s);
	strbuf_addstr(sb, "</td>");
}

static void html_grid(struct strbuf *sb, const struct matrix *m, size_t mi)
{
	char cell[96];

	strbuf_addstr(sb, "<table class=\"matrix\">\n<thead><tr><th>model \\ "
		      "reference</th>");
	for (size_t j = 0; j < m->nsrc; j++) {
		if (!matrix_in_grid(m, mi, j))
			continue;
		strbuf_addstr(sb, "<th class=\"n\">");
		html_escape(sb, m->src[j].label);
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < m->nsrc; i++) {
		if (!matrix_in_grid(m, mi, i))
			continue;
		strbuf_addstr(sb, "<tr>");
		td_name(sb, NULL, m->src[i].label);
		for (size_t j = 0; j < m->nsrc; j++) {
			const struct matrix_cell *c;

			if (!matrix_in_grid(m, mi, j))
				continue;
			if (i == j) {
				td(sb, "n", "-");
				continue;
			}
			c = matrix_cell(m, mi, i, j);
			grid_text(cell, sizeof(cell), c);
			td(sb, c->sol.kind != MSOL_NONE ? "n sol" : "n", cell);
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
}

static void html_key_row(struct strbuf *sb, const struct matrix_key *k)
{
	char sp[32];
	char *cause = key_cause(k);
	char *ann = k->ann ? xasprintf("%s/%s: %s (%s, %s)", k->ann->status,
				       k->ann->category, k->ann->note,
				       k->ann->author, k->ann->created_at) :
			     xstrdup(ANNOT_STATE_NONE);

	report_fmt_pct(sp, sizeof(sp), k->spread);
	strbuf_addstr(sb, "<tr>");
	td_name(sb, "wl", k->workload);
	td_name(sb, NULL, k->op);
	td_name(sb, NULL, k->metric);
	td(sb, "n", sp);
	td(sb, NULL, cause);
	td_name(sb, NULL, k->sol ? k->sol : "");
	strbuf_addstr(sb, "<td>");
	strbuf_add_lines(sb, ann, html_escape, "<br/>");
	strbuf_addstr(sb, "</td></tr>\n");
	free(cause);
	free(ann);
}

void report_matrix_html(struct strbuf *sb, const struct report *r)
{
	const struct matrix *m = r->matrix;
	struct matrix_label *l = NULL;
	size_t nl, n = 0, *ord;

	if (!r->opts.matrix)
		return;
	strbuf_addstr(sb, "<section id=\"matrix\">\n<h2>Who disagrees with "
		      "whom</h2>\n");
	if (!m) {
		strbuf_addstr(sb, "<p class=\"note\">The disagreement matrix was ");
		html_escape(sb, r->matrix_note ? r->matrix_note :
			    "not computed");
		strbuf_addstr(sb, ".</p>\n</section>\n");
		return;
	}
	strbuf_addstr(sb, "<p>Every source at its latest version (<code>"
		      "perfcorr matrix</code>):");
	for (size_t i = 0; i < m->nsrc; i++) {
		strbuf_addstr(sb, i ? ", " : " ");
		html_escape(sb, m->src[i].label);
		strbuf_addf(sb, " (%s)", m->src[i].kind);
	}
	strbuf_addstr(sb, ".</p>\n");
	for (size_t mi = 0; mi < m->nmetrics; mi++) {
		struct strbuf t = STRBUF_INIT;

		strbuf_addstr(sb, "<h3>");
		html_escape(sb, m->metrics[mi].metric);
		grid_keys(&t, m, mi);
		html_escape(sb, strbuf_str(&t));
		strbuf_addstr(sb, "</h3>\n");
		strbuf_reset(&t);
		if (absent_note(&t, m, mi)) {
			strbuf_addstr(sb, "<p class=\"note\">");
			html_escape(sb, strbuf_str(&t));
			strbuf_addstr(sb, "</p>\n");
		}
		strbuf_release(&t);
		report_matrix_heatmap(sb, m, mi);
		html_grid(sb, m, mi);
	}
	{
		struct strbuf t = STRBUF_INIT;

		if (left_note(&t, m)) {
			strbuf_addstr(sb, "<p class=\"note\">");
			html_escape(sb, strbuf_str(&t));
			strbuf_addstr(sb, "</p>\n");
		}
		strbuf_reset(&t);
		if (fp_note(&t, m)) {
			strbuf_addstr(sb, "<p class=\"note\">");
			html_escape(sb, strbuf_str(&t));
			strbuf_addstr(sb, "</p>\n");
		}
		strbuf_release(&t);
	}
	nl = matrix_labels(m, &l);
	ord = matrix_order(m, &n);
	strbuf_addf(sb, "<h3>The odd one out</h3>\n<p>Keys held by three or "
		    "more non-roofline sources, grouped by which agree within "
		    "max(%g%%, the key's spread); the roofline never joins a "
		    "group.</p>\n<table class=\"patterns\">\n<thead><tr><th>"
		    "pattern</th><th class=\"n\">keys</th></tr></thead>\n"
		    "<tbody>\n", m->opts.tolerance * 100);
	for (size_t i = 0; i < nl; i++) {
		char cnt[32];

		snprintf(cnt, sizeof(cnt), "%ld", l[i].count);
		strbuf_addstr(sb, "<tr>");
		td_name(sb, NULL, l[i].label);
		td(sb, "n", cnt);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	for (size_t i = 0; i < nl; i++) {
		size_t top = (size_t)l[i].count < REPORT_MATRIX_TOP ?
			     (size_t)l[i].count : REPORT_MATRIX_TOP;

		strbuf_addstr(sb, "<h4>");
		html_escape(sb, l[i].label);
		strbuf_addf(sb, " (%ld key%s)</h4>\n<table class=\"keys\">\n"
			    "<thead><tr><th>workload</th><th>op</th><th>metric"
			    "</th><th class=\"n\">spread</th><th>suggested "
			    "(rule)</th><th>roofline violated by</th><th>"
			    "annotation</th></tr></thead>\n<tbody>\n",
			    l[i].count, l[i].count == 1 ? "" : "s");
		for (size_t x = 0; x < top; x++)
			html_key_row(sb, &m->keys[ord[l[i].first + x]]);
		strbuf_addstr(sb, "</tbody>\n</table>\n");
	}
	strbuf_addstr(sb, "</section>\n");
	free(ord);
	free(l);
}
