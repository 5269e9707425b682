/* runs --fingerprint (see runs_fp.h). */
#include "src/cmd/runs_fp.h"

#include <stdlib.h>
#include <string.h>

#include "base/fingerprint.h"
#include "base/strbuf.h"
#include "db/query.h"
#include "src/corr/corr_fp.h"

/* "input_len=2048 output_len=256 ...": a value with a blank or quote
 * quoted JSON-style; "" when the run states none. */
static void fp_text(struct strbuf *sb, char *const *v)
{
	for (size_t i = 0; i < fp_nfields; i++) {
		if (!v[i])
			continue;
		strbuf_addf(sb, "%s%s=", sb->len ? " " : "",
			    fp_fields[i].name);
		if (strpbrk(v[i], " \t\"="))
			strbuf_add_json_str(sb, v[i]);
		else
			strbuf_addstr(sb, v[i]);
	}
}

static void fp_json(FILE *fp, char *const *v)
{
	int first = 1;

	fputc('{', fp);
	for (size_t i = 0; i < fp_nfields; i++) {
		if (!v[i])
			continue;
		if (!first)
			fputs(", ", fp);
		first = 0;
		out_json_str(fp, fp_fields[i].name);
		fputs(": ", fp);
		out_json_str(fp, v[i]);
	}
	fputc('}', fp);
}

static void row(FILE *fp, struct db_cursor *c, enum out_format fmt,
		struct out_table *t, long n)
{
	char *v[FP_NFIELDS] = { 0 };
	char id[32];
	struct strbuf sb = STRBUF_INIT;
	const char *cell[5];

	corr_fp_parse(db_cursor_text(c, 4), v);
	snprintf(id, sizeof(id), "%lld", (long long)db_cursor_int(c, 0));
	for (int i = 1; i < 4; i++)
		cell[i] = db_cursor_text(c, i) ? db_cursor_text(c, i) : "";
	cell[0] = id;
	if (fmt == OUT_JSON) {
		/* the layout of the other listings (out_cursor) */
		fprintf(fp, "%s{\"run_id\": %s, \"source\": ", n ?
			",\n  " : "\n  ", id);
		out_json_str(fp, cell[1]);
		fputs(", \"kind\": ", fp);
		out_json_str(fp, cell[2]);
		fputs(", \"version\": ", fp);
		out_json_str(fp, cell[3]);
		fputs(", \"fingerprint\": ", fp);
		fp_json(fp, v);
		fputc('}', fp);
	} else {
		fp_text(&sb, v);
		cell[4] = strbuf_str(&sb);
		if (fmt == OUT_CSV)
			for (int i = 0; i < 5; i++) {
				out_csv_field(fp, cell[i]);
				fputc(i < 4 ? ',' : '\n', fp);
			}
		else
			out_table_add(t, cell);
	}
	strbuf_release(&sb);
	for (size_t i = 0; i < FP_NFIELDS; i++)
		free(v[i]);
}

long runs_fp_write(FILE *fp, struct db *db, const char *source,
		   enum out_format fmt)
{
	static const char *const head[] = { "run_id", "source", "kind",
		"version", "fingerprint" };
	struct out_table *t = NULL;
	struct db_cursor *c;
	long n = 0;
	int rc;

	if ((rc = db_list_open(&c, db, DB_LIST_RUNS_META, source)) < 0)
		return rc;
	if (fmt == OUT_TABLE) {
		t = out_table_new(5, head);
		out_table_right(t, 0);
	} else if (fmt == OUT_CSV) {
		fputs("run_id,source,kind,version,fingerprint\n", fp);
	} else {
		fputc('[', fp);
	}
	while ((rc = db_cursor_next(c)) > 0)
		row(fp, c, fmt, t, n++);
	db_cursor_close(c);
	if (fmt == OUT_JSON)
		fputs(n ? "\n]\n" : "]\n", fp);
	if (t) {
		if (rc >= 0)
			out_table_print(t, fp);
		out_table_free(t);
	}
	return rc < 0 ? rc : n;
}
