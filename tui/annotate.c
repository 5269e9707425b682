/* The annotation form and its save (see annotate.h). */
#include "tui/annotate.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "tui/data.h"
#include "tui/form.h"
#include "tui/status.h"
#include "tui/tui.h"

enum { F_STATUS, F_CATEGORY, F_NOTE, F_LINK, F_EXPIRES, F_COUNT };

static int is_date(const char *s)
{
	static const char shape[] = "dddd-dd-dd";

	if (strlen(s) != sizeof(shape) - 1)
		return 0;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != '-')
			return 0;
	return strncmp(s + 5, "13", 2) < 0 && strncmp(s + 5, "00", 2) > 0 &&
	       strncmp(s + 8, "32", 2) < 0 && strncmp(s + 8, "00", 2) > 0;
}

static int validate(struct form *f)
{
	const char *exp = strbuf_str(&f->fields[F_EXPIRES].text);
	const char *status = f->fields[F_STATUS].choices[
		f->fields[F_STATUS].choice];

	f->error[0] = '\0';
	if (*exp && !is_date(exp))
		snprintf(f->error, sizeof(f->error), "expiry '%s' is not a "
			 "date (YYYY-MM-DD)", exp);
	else if (*exp && strcmp(status, "accepted"))
		snprintf(f->error, sizeof(f->error), "an expiry is only for "
			 "'accepted' (status is '%s')", status);
	else if (!strcmp(status, "accepted") &&
		 !*strbuf_str(&f->fields[F_NOTE].text))
		snprintf(f->error, sizeof(f->error), "an accepted annotation "
			 "needs a note: say why the error is acceptable");
	return f->error[0] ? -1 : 0;
}

static int index_of(const char *const *list, const char *s, int dflt)
{
	for (int i = 0; s && list[i]; i++)
		if (!strcmp(list[i], s))
			return i;
	return dflt;
}

/* Start from the point's current state (or explained/unknown). */
static void prefill(struct form_field *ff, const struct tui_data *d,
		    uint32_t point)
{
	struct corr_point tmp;
	const struct corr_point *p = data_point(d, point, &tmp);
	const unsigned char *st = d->src.status, *ct = d->src.category;
	const char *status = st[point] ? data_status_name(st[point]) :
			     "explained";
	const char *cat = ct[point] ? data_category_name(ct[point]) :
			  "unknown";

	/* an undone first annotation is none: start empty (issue 35) */
	if (annot_none(p->ann)) {
		ff[F_STATUS].choice = index_of(db_annot_statuses, "explained",
					       2);
		ff[F_CATEGORY].choice = index_of(db_annot_categories,
						 "unknown", 6);
		return;
	}

	ff[F_STATUS].choice = index_of(db_annot_statuses, status, 2);
	ff[F_CATEGORY].choice = index_of(db_annot_categories, cat, 6);
	if (p->ann && p->ann->note)
		strbuf_addstr(&ff[F_NOTE].text, p->ann->note);
	if (p->ann && p->ann->link)
		strbuf_addstr(&ff[F_LINK].text, p->ann->link);
	if (p->ann && p->ann->expires)
		strbuf_addstr(&ff[F_EXPIRES].text, p->ann->expires);
}

/* The annotation form's fields, both forms (rows and a matrix key). */
static void fields_init(struct form_field ff[F_COUNT])
{
	static const struct form_field tmpl[F_COUNT] = {
		[F_STATUS] = { "status", FORM_CHOICE, db_annot_statuses, 0,
			       STRBUF_INIT },
		[F_CATEGORY] = { "category", FORM_CHOICE, db_annot_categories,
				 0, STRBUF_INIT },
		[F_NOTE] = { "note", FORM_NOTE, NULL, 0, STRBUF_INIT },
		[F_LINK] = { "link", FORM_TEXT, NULL, 0, STRBUF_INIT },
		[F_EXPIRES] = { "expires", FORM_TEXT, NULL, 0, STRBUF_INIT },
	};

	memcpy(ff, tmpl, sizeof(tmpl));
}

int annotate_points(struct tui *t, const uint32_t *points, size_t n)
{
	struct form_field ff[F_COUNT];
	struct form f = { .fields = ff, .n = F_COUNT, .cur = 0,
			  .validate = validate };
	struct corr_point tmp;
	const struct corr_point *p = data_point(&t->data, points[0], &tmp);
	struct annot a;
	char title[256];
	int rc;

	fields_init(ff);
	if (n == 1)
		snprintf(title, sizeof(title), "Annotate %s %s %s", p->workload,
			 p->op, p->metric);
	else
		snprintf(title, sizeof(title), "Annotate %zu marked rows (one "
			 "explanation for all)", n);
	f.title = title;
	prefill(ff, &t->data, points[0]);
	if (!form_run(t, &f)) {
		form_release(&f);
		status_report("annotation cancelled: nothing written");
		return 0;
	}
	memset(&a, 0, sizeof(a));
	a.status = (char *)db_annot_statuses[ff[F_STATUS].choice];
	a.category = (char *)db_annot_categories[ff[F_CATEGORY].choice];
	a.note = (char *)strbuf_str(&ff[F_NOTE].text);
	a.link = (char *)strbuf_str(&ff[F_LINK].text);
	a.expires = (char *)strbuf_str(&ff[F_EXPIRES].text);
	rc = data_annotate(&t->data, points, n, &a);
	if (rc == 0)
		status_report("annotated %zu row%s: %s (%s)", n, n == 1 ? "" :
			      "s", a.status, a.category);
	form_release(&f);
	return rc < 0 ? rc : 1;
}

int annotate_key(struct tui *t, const char *workload, const char *op,
		 const char *metric, const char *model_source,
		 const char *suggested, const char *rule,
		 const struct annot *cur)
{
	struct form_field ff[F_COUNT];
	struct form f = { .fields = ff, .n = F_COUNT, .cur = 0,
			  .validate = validate };
	struct annot a;
	char title[512], hint[512];
	int rc;

	fields_init(ff);
	if (annot_none(cur))
		cur = NULL;	/* an undone first annotation: none */
	snprintf(title, sizeof(title), "Annotate %s %s %s", workload, op,
		 metric);
	snprintf(hint, sizeof(hint), "suggested: %s (%s)", suggested ?
		 suggested : "none", rule ? rule : "no rule");
	f.title = title;
	f.advice = hint;
	ff[F_STATUS].choice = index_of(db_annot_statuses, cur ? cur->status :
				       NULL, 2);
	ff[F_CATEGORY].choice = index_of(db_annot_categories, suggested ?
					 suggested : cur ? cur->category :
					 NULL, 6);
	if (cur && cur->note)
		strbuf_addstr(&ff[F_NOTE].text, cur->note);
	if (cur && cur->link)
		strbuf_addstr(&ff[F_LINK].text, cur->link);
	if (cur && cur->expires)
		strbuf_addstr(&ff[F_EXPIRES].text, cur->expires);
	if (!form_run(t, &f)) {
		form_release(&f);
		status_report("annotation cancelled: nothing written");
		return 0;
	}
	memset(&a, 0, sizeof(a));
	a.workload = (char *)workload;
	a.op = (char *)op;
	a.metric = (char *)metric;
	a.model_source = (char *)model_source;
	a.status = (char *)db_annot_statuses[ff[F_STATUS].choice];
	a.category = (char *)db_annot_categories[ff[F_CATEGORY].choice];
	a.note = (char *)strbuf_str(&ff[F_NOTE].text);
	a.link = (char *)strbuf_str(&ff[F_LINK].text);
	a.expires = (char *)strbuf_str(&ff[F_EXPIRES].text);
	if (!*a.link)
		a.link = NULL;
	if (!*a.expires)
		a.expires = NULL;
	rc = db_annot_add(t->db, &a, 1, NULL);
	/* U undoes the last save: this one it cannot, so none (an undo of an
	 * older save after this one would not be what a person expects) */
	if (rc == 0)
		data_undo_free(&t->data);
	if (rc == 0)
		status_report("annotated %s %s %s: %s (%s)", workload, op,
			      metric, a.status, a.category);
	form_release(&f);
	if (rc < 0)
		return rc;
	tui_reload(t);
	return 1;
}
