/* The detail's workload-fingerprint section (see detail_fp.h). */
#include "tui/detail_fp.h"

#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "src/corr/corr_fp.h"
#include "src/corr/correlate.h"
#include "src/pairidx/pairidx.h"
#include "tui/theme.h"
#include "tui/tui.h"
#include "tui/view.h"

/* The mark and the words after the values of a field's state. */
static const char *mark(enum corr_fp_state st, const struct fp_field *f,
			const char *a, char *buf, size_t len)
{
	switch (st) {
	case CORR_FPS_SAME:
		return "=";
	case CORR_FPS_UNVERIFIED:
		snprintf(buf, len, "? unverified: only the %s states it",
			 a ? "model" : "reference");
		return buf;
	case CORR_FPS_ALLOWED:
		snprintf(buf, len, "! differs, allowed (--allow-mismatch %s)",
			 f->name);
		return buf;
	case CORR_FPS_DIFFERS:
		if (f->tol > 0)
			snprintf(buf, len, "x differs beyond %g%%: not "
				 "comparable", f->tol * 100);
		else
			snprintf(buf, len, "x differs: not comparable");
		return buf;
	case CORR_FPS_UNCHECKED:
		return "  (recorded, not checked)";
	default:
		return "";
	}
}

static int widest(struct corr_fp *fp, int64_t run, int min)
{
	const char *const *v = corr_fp_values(fp, run);
	int w = min;

	for (size_t i = 0; i < fp_nfields; i++)
		if (v[i] && (int)strlen(v[i]) > w)
			w = (int)strlen(v[i]);
	return w > 28 ? 28 : w;
}

void detail_fp_add(struct view *v, const struct corr_point *p)
{
	struct corr_fp *fp = NULL;
	const char *const *mv, *const *rv;
	char buf[96];
	int wm, wr, any = 0;

	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Workload fingerprint (model run %lld "
		    "vs reference run %lld; = same, ? unverified, ! allowed "
		    "mismatch)", (long long)p->model_run,
		    (long long)p->ref_run);
	if (corr_fp_new(&fp, v->tui->data.allow_mismatch) < 0 ||
	    corr_fp_add(fp, v->tui->db, p->model_run) < 0 ||
	    corr_fp_add(fp, v->tui->db, p->ref_run) < 0) {
		textbuf_add(&v->text, TH_ERROR, "  %s", pc_error_last());
		pc_error_clear();
		corr_fp_free(fp);
		return;
	}
	mv = corr_fp_values(fp, p->model_run);
	rv = corr_fp_values(fp, p->ref_run);
	wm = widest(fp, p->model_run, 5);
	wr = widest(fp, p->ref_run, 9);
	for (size_t i = 0; i < fp_nfields; i++) {
		const struct fp_field *f = &fp_fields[i];
		enum corr_fp_state st = corr_fp_state(fp, i, p->model_run,
						      p->ref_run);

		if (st == CORR_FPS_NONE)
			continue;
		if (!any++)
			textbuf_add(&v->text, TH_COLHEAD, "  %-22s %-*s %-*s",
				    "field", wm, "model", wr, "reference");
		textbuf_add(&v->text, st == CORR_FPS_SAME ||
			    st == CORR_FPS_UNCHECKED ? TH_NORMAL : TH_HEADER,
			    "  %-22s %-*.*s %-*.*s %s", f->name, wm, wm,
			    mv[i] ? mv[i] : "-", wr, wr, rv[i] ? rv[i] : "-",
			    mark(st, f, mv[i], buf, sizeof(buf)));
	}
	if (!any)
		textbuf_add(&v->text, TH_DIM, "  (neither run states one: "
			    "perfcorr import --meta fp.FIELD=VALUE)");
	corr_fp_free(fp);
}
