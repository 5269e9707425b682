/* The list's rows as CSV (see export.h). */
#include "tui/export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/csv.h"
#include "db/annot.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/correlate.h"
#include "src/pairidx/pairidx.h"
#include "tui/data.h"
#include "tui/rows.h"

static void flags_text(unsigned f, char *buf)
{
	static const struct { unsigned bit; char c; } fl[] = {
		{ CORR_WITHIN_NOISE, 'N' }, { CORR_SOL_VIOLATION, 'S' },
		{ CORR_NOISY_REF, 'X' }, { CORR_WAIVED, 'W' },
		{ CORR_INVALID, 'I' }, { CORR_UNVERIFIED, '?' },
	};
	int n = 0;

	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++)
		if (f & fl[i].bit)
			buf[n++] = fl[i].c;
	buf[n] = '\0';
}

/* A number, or an empty cell for an undefined one (err with ref 0). */
static void num(struct strbuf *sb, double v)
{
	if (!isnan(v))
		strbuf_add_double(sb, v);
	strbuf_addch(sb, ',');
}

/* The "# " header: the pairing, the filter, who and when. */
static void header(FILE *fp, const struct tui_data *d, const struct rows *r,
		   const struct export_info *info)
{
	const struct pidx *x = d->ix;
	char now[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fputs("# perfcorr tui export\n", fp);
	fprintf(fp, "# model: %s@%s (%s)\n", x->model.source, x->model.version ?
		x->model.version : "?", x->model.kind ? x->model.kind : "?");
	fprintf(fp, "# reference: %s@%s (%s)\n", x->ref.source,
		x->ref.version ? x->ref.version : "?",
		x->ref.kind ? x->ref.kind : "?");
	if (d->roofline)
		fprintf(fp, "# roofline: %s\n", d->roofline);
	fprintf(fp, "# filter: %s (%zu of %zu rows), order: %s\n",
		info && info->filter && *info->filter ? info->filter : "none",
		r->n, data_npoints(d), info && info->order ? info->order :
		"|err| descending");
	fprintf(fp, "# database: %s\n# exported: %s by %s\n", info &&
		info->db ? info->db : "?", now, util_user());
}

int export_csv(const struct tui_data *d, const struct rows *r,
	       const struct export_info *info, const char *path, size_t *n)
{
	static const char *const since[] = { "", "new", "changed" };
	struct strbuf sb = STRBUF_INIT;
	char *tmp = xasprintf("%s.tmp", path), flags[8];
	FILE *fp = fopen(tmp, "w");
	int bad = 0;

	*n = 0;
	if (!fp) {
		free(tmp);
		return pc_error_set(PC_EIO, "cannot write '%s'", path);
	}
	header(fp, d, r, info);
	fputs("workload,op,metric,unit,model,ref,err,flags,status,category,"
	      "since,note,link\n", fp);
	for (size_t k = 0; k < r->n && !bad; k++) {
		uint32_t i = r->idx[k];
		struct corr_point tmp_pt;
		const struct corr_point *p = data_point(d, i, &tmp_pt);
		const char *cells[] = { p->workload, p->op, p->metric,
			data_metric_unit(d, p->metric_id) };

		strbuf_reset(&sb);
		for (size_t c = 0; c < 4; c++) {
			csv_cell(&sb, cells[c]);
			strbuf_addch(&sb, ',');
		}
		num(&sb, p->model);
		num(&sb, p->ref);
		num(&sb, p->err);
		flags_text(p->flags, flags);
		csv_cell(&sb, flags);
		strbuf_addch(&sb, ',');
		csv_cell(&sb, data_status_word(d->src.status ?
					       d->src.status[i] : 0));
		strbuf_addch(&sb, ',');
		csv_cell(&sb, data_category_name(d->src.category ?
						 d->src.category[i] : 0));
		strbuf_addch(&sb, ',');
		csv_cell(&sb, since[d->since ? d->since[i] : 0]);
		strbuf_addch(&sb, ',');
		/* the notes: the current annotation's, whole (quoted) */
		csv_cell(&sb, p->ann && p->ann->note ? p->ann->note : "");
		strbuf_addch(&sb, ',');
		csv_cell(&sb, p->ann && p->ann->link ? p->ann->link : "");
		strbuf_addch(&sb, '\n');
		bad = fputs(strbuf_str(&sb), fp) == EOF;
		*n += !bad;
	}
	strbuf_release(&sb);
	if (fclose(fp) != 0 || bad || rename(tmp, path) != 0) {
		remove(tmp);
		free(tmp);
		*n = 0;
		return pc_error_set(PC_EIO, "cannot write '%s'", path);
	}
	free(tmp);
	return 0;
}
