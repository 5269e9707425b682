/* The report for scripts and spreadsheets: CSV (one row per pair) and
 * JSON (the whole report model). Numbers are written so that they read
 * back exactly; undefined statistics are empty (CSV) or null (JSON). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/runinfo.h"
#include "src/corr/corrcpd.h"
#include "src/corr/correlate.h"
#include "src/corr/corrout.h"
#include "src/corr/corrout_fp.h"
#include "base/csv.h"
#include "base/error.h"
#include "base/html.h"
#include "src/out/out.h"
#include "src/report/report.h"
#include "src/report/report_prev.h"
#include "src/report/report_sens.h"
#include "src/report/report_tiers.h"
#include "src/report/report_calib.h"
#include "src/report/report_slo.h"
#include "base/strbuf.h"

static const char *const csv_cols[] = {
	"workload", "op", "op_class", "metric", "unit", "model", "ref", "err",
	"abs_err", "ref_stddev", "ref_n", "within_noise", "sol_violation",
	"noisy_ref", "invalid", "waived", "discrepancy", "new_since_review",
	"model_run", "ref_run", "annotation_status", "annotation_category",
	"annotation_note", "annotation_author", "annotation_date",
	"annotation_link", "unverified", NULL,
};

static void csv_num(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_add_double(sb, v);
	strbuf_addch(sb, ',');
}

static void csv_flag(struct strbuf *sb, int on)
{
	strbuf_addstr(sb, on ? "1," : "0,");
}

static int flush(struct strbuf *sb, FILE *fp)
{
	size_t n = sb->len;

	if (n && fwrite(sb->buf, 1, n, fp) != n)
		return PC_EIO;
	strbuf_reset(sb);
	return 0;
}

/* Text field (csv_cell: quoted, formulas neutralised), then a separator. */
static void csv_text(struct strbuf *sb, const char *s, char sep)
{
	csv_cell(sb, s ? s : "");
	strbuf_addch(sb, sep);
}

static void csv_point(struct strbuf *sb, const struct report *r, size_t i)
{
	const struct corr_point *p = &r->set->points[i];
	const struct annot *a = p->ann;

	csv_text(sb, p->workload, ',');
	csv_text(sb, p->op, ',');
	csv_text(sb, p->op_class, ',');
	csv_text(sb, p->metric, ',');
	csv_text(sb, report_unit(r, p->metric), ',');
	csv_num(sb, p->model);
	csv_num(sb, p->ref);
	csv_num(sb, p->err);
	csv_num(sb, fabs(p->err));
	csv_num(sb, p->ref_sd);
	csv_num(sb, p->ref_n);
	csv_flag(sb, p->flags & CORR_WITHIN_NOISE);
	csv_flag(sb, p->flags & CORR_SOL_VIOLATION);
	csv_flag(sb, p->flags & CORR_NOISY_REF);
	csv_flag(sb, p->flags & CORR_INVALID);
	csv_flag(sb, p->flags & CORR_WAIVED);
	csv_flag(sb, report_is_discrepancy(p, r->opts.limit));
	if (r->is_new)
		csv_flag(sb, r->is_new[i]);
	else
		strbuf_addch(sb, ',');
	strbuf_addf(sb, "%lld,%lld,", (long long)p->model_run,
		    (long long)p->ref_run);
	csv_text(sb, a ? a->status : "", ',');
	csv_text(sb, a ? a->category : "", ',');
	csv_text(sb, a ? a->note : "", ',');
	csv_text(sb, a ? a->author : "", ',');
	csv_text(sb, a ? a->created_at : "", ',');
	csv_text(sb, a ? a->link : "", ',');
	strbuf_addstr(sb, p->flags & CORR_UNVERIFIED ? "1\n" : "0\n");
}

int report_write_csv(const struct report *r, FILE *fp)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; csv_cols[i]; i++)
		strbuf_addf(&sb, "%s%c", csv_cols[i], csv_cols[i + 1] ? ',' :
			    '\n');
	for (size_t i = 0; !rc && i < r->set->n; i++) {
		csv_point(&sb, r, i);
		if (sb.len > 1 << 16)
			rc = flush(&sb, fp);
	}
	if (!rc)
		rc = flush(&sb, fp);
	strbuf_release(&sb);
	if (rc || ferror(fp))
		return pc_error_set(PC_EIO, "cannot write the report");
	return 0;
}

static void jnum(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_add_double(sb, v);
	else
		strbuf_addstr(sb, "null");
}

/* A JSON string; bytes that are not UTF-8 become U+FFFD so that every
 * JSON parser accepts the output. */
static void jstr(struct strbuf *sb, const char *s)
{
	char *fixed;

	if (!s) {
		strbuf_addstr(sb, "null");
		return;
	}
	fixed = html_utf8_fix(s);
	strbuf_add_json_str(sb, fixed ? fixed : s);
	free(fixed);
}

/* The statistics, with exactly the keys of `compare --format json`:
 * corrout's own writer, into sb. */
static void json_stats(struct strbuf *sb, const struct stats_summary *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		abort();	/* out of memory, as xmalloc */
	corrout_stats_json(fp, s);
	if (fclose(fp) != 0)
		abort();
	strbuf_add(sb, text, len);
	free(text);
}

static void json_side(struct strbuf *sb, const struct report *r, int ref)
{
	const struct corr_side *s = ref ? &r->set->ref : &r->set->model;
	size_t from = ref ? r->nmodel_runs : 0;
	size_t to = ref ? r->nruns : r->nmodel_runs;

	strbuf_addstr(sb, "{\"source\":");
	jstr(sb, s->source);
	strbuf_addstr(sb, ",\"version\":");
	jstr(sb, s->version);
	strbuf_addstr(sb, ",\"kind\":");
	jstr(sb, s->kind);
	strbuf_addstr(sb, ",\"runs\":[");
	for (size_t i = from; i < to; i++) {
		const struct runinfo *u = &r->runs[i];

		strbuf_addf(sb, "%s{\"id\":%lld,\"file\":", i > from ? "," : "",
			    (long long)u->id);
		jstr(sb, u->file_name);
		strbuf_addstr(sb, ",\"sha256\":");
		jstr(sb, u->sha256);
		strbuf_addstr(sb, ",\"format\":");
		jstr(sb, u->format);
		strbuf_addstr(sb, ",\"platform\":");
		jstr(sb, u->platform);
		strbuf_addstr(sb, ",\"imported_at\":");
		jstr(sb, u->imported_at);
		strbuf_addstr(sb, ",\"imported_by\":");
		jstr(sb, u->imported_by);
		strbuf_addf(sb, ",\"results\":%lld}", (long long)u->n_results);
	}
	strbuf_addstr(sb, "]}");
}

static void json_groups(struct strbuf *sb, const struct report *r)
{
	strbuf_addstr(sb, ",\"groups\":[");
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct report_group *g = &r->groups[i];

		strbuf_addstr(sb, i ? ",\n{\"key\":{\"metric\":" :
			      "\n{\"key\":{\"metric\":");
		jstr(sb, g->metric);
		strbuf_addstr(sb, ",\"op_class\":");
		jstr(sb, g->op_class);
		strbuf_addstr(sb, "},\"unit\":");
		jstr(sb, g->unit);
		strbuf_addch(sb, ',');
		json_stats(sb, &g->s);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "]");
}

static void json_trend(struct strbuf *sb, const struct report *r)
{
	strbuf_addstr(sb, ",\n\"trend\":");
	if (!r->opts.trend) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addstr(sb, "{\"versions\":[");
	for (size_t v = 0; v < r->nversions; v++) {
		strbuf_addstr(sb, v ? "," : "");
		jstr(sb, r->versions[v]);
	}
	strbuf_addstr(sb, "],\"mape\":{");
	for (size_t m = 0; m < r->nmetrics; m++) {
		strbuf_addstr(sb, m ? "," : "");
		jstr(sb, r->metrics[m]);
		strbuf_addstr(sb, ":[");
		for (size_t v = 0; v < r->nversions; v++) {
			strbuf_addstr(sb, v ? "," : "");
			jnum(sb, r->trend[v * r->nmetrics + m]);
		}
		strbuf_addch(sb, ']');
	}
	strbuf_addch(sb, '}');
	if (r->cpd && r->cpd->npoints >= CORR_CPD_MIN_VERSIONS) {
		strbuf_addstr(sb, ",\"change_points\":");
		corr_cpd_json(sb, r->cpd, (const char *const *)r->versions);
	}
	strbuf_addch(sb, '}');
}

static void json_changes(struct strbuf *sb, const char *name,
			 const struct report_change *c, size_t n,
			 const struct report *r)
{
	strbuf_addf(sb, ",\"%s\":[", name);
	for (size_t i = 0; i < n; i++) {
		const struct corr_point *p = c[i].point >= 0 ?
			&r->set->points[c[i].point] : NULL;

		strbuf_addstr(sb, i ? ",\n{\"workload\":" : "\n{\"workload\":");
		jstr(sb, c[i].workload);
		strbuf_addstr(sb, ",\"op\":");
		jstr(sb, c[i].op);
		strbuf_addstr(sb, ",\"metric\":");
		jstr(sb, c[i].metric);
		strbuf_addstr(sb, ",\"err_then\":");
		jnum(sb, c[i].err_then);
		strbuf_addstr(sb, ",\"err_now\":");
		jnum(sb, p ? p->err : NAN);
		strbuf_addstr(sb, ",\"reason\":");
		jstr(sb, c[i].reason);
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, ']');
}

static void json_review(struct strbuf *sb, const struct report *r)
{
	strbuf_addstr(sb, ",\n\"review\":");
	if (!r->opts.since_last_review) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addstr(sb, "{\"last\":");
	if (r->have_review) {
		strbuf_addf(sb, "{\"id\":%lld,\"created_at\":",
			    (long long)r->last.id);
		jstr(sb, r->last.created_at);
		strbuf_addstr(sb, ",\"author\":");
		jstr(sb, r->last.author);
		strbuf_addstr(sb, ",\"model_version\":");
		jstr(sb, r->last.model_version);
		strbuf_addstr(sb, ",\"ref_version\":");
		jstr(sb, r->last.ref_version);
		strbuf_addstr(sb, ",\"limit\":");
		jnum(sb, r->last.limit);
		strbuf_addch(sb, '}');
	} else {
		strbuf_addstr(sb, "null");
	}
	strbuf_addf(sb, ",\"still_listed\":%ld", r->nstill);
	json_changes(sb, "new", r->news, r->nnew, r);
	json_changes(sb, "resolved", r->resolved, r->nresolved, r);
	strbuf_addch(sb, '}');
}

static void json_annot(struct strbuf *sb, const struct annot *a)
{
	if (!a) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addstr(sb, "{\"status\":");
	jstr(sb, a->status);
	strbuf_addstr(sb, ",\"category\":");
	jstr(sb, a->category);
	strbuf_addstr(sb, ",\"note\":");
	jstr(sb, a->note);
	strbuf_addstr(sb, ",\"link\":");
	jstr(sb, a->link);
	strbuf_addstr(sb, ",\"expires\":");
	jstr(sb, a->expires);
	strbuf_addstr(sb, ",\"author\":");
	jstr(sb, a->author);
	strbuf_addstr(sb, ",\"created_at\":");
	jstr(sb, a->created_at);
	strbuf_addch(sb, '}');
}

static void json_point(struct strbuf *sb, const struct report *r, size_t i)
{
	const struct corr_point *p = &r->set->points[i];

	strbuf_addstr(sb, i ? ",\n{\"workload\":" : "\n{\"workload\":");
	jstr(sb, p->workload);
	strbuf_addstr(sb, ",\"op\":");
	jstr(sb, p->op);
	strbuf_addstr(sb, ",\"op_class\":");
	jstr(sb, p->op_class);
	strbuf_addstr(sb, ",\"metric\":");
	jstr(sb, p->metric);
	strbuf_addstr(sb, ",\"model\":");
	jnum(sb, p->model);
	strbuf_addstr(sb, ",\"ref\":");
	jnum(sb, p->ref);
	strbuf_addstr(sb, ",\"err\":");
	jnum(sb, p->err);
	strbuf_addstr(sb, ",\"ref_stddev\":");
	jnum(sb, p->ref_sd);
	strbuf_addf(sb, ",\"within_noise\":%s,\"sol_violation\":%s,"
		    "\"noisy_ref\":%s,\"invalid\":%s,\"waived\":%s,"
		    "\"discrepancy\":%s,\"new\":%s,\"model_run\":%lld,"
		    "\"ref_run\":%lld,\"annotation\":",
		    p->flags & CORR_WITHIN_NOISE ? "true" : "false",
		    p->flags & CORR_SOL_VIOLATION ? "true" : "false",
		    p->flags & CORR_NOISY_REF ? "true" : "false",
		    p->flags & CORR_INVALID ? "true" : "false",
		    p->flags & CORR_WAIVED ? "true" : "false",
		    report_is_discrepancy(p, r->opts.limit) ? "true" : "false",
		    !r->is_new ? "null" : r->is_new[i] ? "true" : "false",
		    (long long)p->model_run, (long long)p->ref_run);
	json_annot(sb, p->ann);
	strbuf_addf(sb, ",\"unverified\":%s}",
		    p->flags & CORR_UNVERIFIED ? "true" : "false");
}

/* What md and html list: indexes into "points". */
static void json_listed(struct strbuf *sb, const struct report *r)
{
	strbuf_addstr(sb, ",\n\"listed\":{\"discrepancies\":[");
	for (size_t i = 0; i < r->ntop; i++)
		strbuf_addf(sb, "%s%zu", i ? "," : "", r->top[i]);
	strbuf_addstr(sb, "],\"open\":[");
	for (size_t i = 0; i < r->nopen; i++)
		strbuf_addf(sb, "%s%zu", i ? "," : "", r->open[i]);
	strbuf_addstr(sb, "],\"closest_to_limit\":[");
	for (size_t i = 0; i < r->nnear; i++)
		strbuf_addf(sb, "%s%zu", i ? "," : "", r->near[i]);
	strbuf_addstr(sb, "],\"annotated\":[");
	for (size_t i = 0; i < r->nnoted; i++)
		strbuf_addf(sb, "%s%zu", i ? "," : "", r->noted[i]);
	strbuf_addstr(sb, "]}");
}

static void json_head(struct strbuf *sb, const struct report *r)
{
	strbuf_addstr(sb, "{\"generated_at\":");
	jstr(sb, r->generated_at);
	strbuf_addstr(sb, ",\"model\":");
	json_side(sb, r, 0);
	strbuf_addstr(sb, ",\n\"ref\":");
	json_side(sb, r, 1);
	strbuf_addstr(sb, ",\n\"limit\":");
	jnum(sb, r->opts.limit);
	strbuf_addf(sb, ",\"discrepancies\":%ld,\"open\":%ld,"
		    "\"excluded_noisy\":%ld,\"sol_violations\":%ld,"
		    "\"invalid\":%ld,\n\"summary\":{",
		    r->ndiscrepancies, r->nopen_all, r->set->excluded_noisy,
		    r->set->sol_violations, r->set->invalid);
	json_stats(sb, &r->all);
	strbuf_addch(sb, '}');
	/* is the pair comparable? (issue 37): compare's members */
	strbuf_addstr(sb, ",\n\"fingerprint\":{");
	corrout_fp_json_sb(sb, r->set, r->allow);
	strbuf_addch(sb, '}');
	json_listed(sb, r);
	json_groups(sb, r);
	json_trend(sb, r);
	strbuf_addstr(sb, ",\n\"previous\":");
	report_prev_json(sb, r);
	json_review(sb, r);
	strbuf_addstr(sb, ",\n\"gate\":");
	if (r->gate_text) {
		strbuf_addstr(sb, "{\"verdict\":");
		jstr(sb, r->gate_verdict == 0 ? "pass" : r->gate_verdict == 1 ?
		     "warn" : r->gate_verdict == 2 ? "fail" :
		     r->gate_verdict == 3 ? "unknown" : NULL);
		strbuf_addstr(sb, ",\"text\":");
		jstr(sb, r->gate_text);
		strbuf_addch(sb, '}');
	} else {
		strbuf_addstr(sb, "null");
	}
	report_sens_json(sb, r);
	report_tiers_json(sb, r);
	report_calib_json(sb, r);
	report_slo_json(sb, r);
}

int report_write_json(const struct report *r, FILE *fp)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	json_head(&sb, r);
	strbuf_addstr(&sb, ",\n\"points\":[");
	rc = flush(&sb, fp);
	for (size_t i = 0; !rc && i < r->set->n; i++) {
		json_point(&sb, r, i);
		if (sb.len > 1 << 16)
			rc = flush(&sb, fp);
	}
	strbuf_addstr(&sb, "]}\n");
	if (!rc)
		rc = flush(&sb, fp);
	strbuf_release(&sb);
	if (rc || ferror(fp))
		return pc_error_set(PC_EIO, "cannot write the report");
	return 0;
}
