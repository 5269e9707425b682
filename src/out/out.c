/* Tables, CSV and JSON output (see out.h). */
#include "src/out/out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/query.h"
#include "base/csv.h"
#include "base/strbuf.h"
#include "base/util.h"

int out_parse_format(const char *s, enum out_format *out)
{
	if (!strcmp(s, "table"))
		*out = OUT_TABLE;
	else if (!strcmp(s, "csv"))
		*out = OUT_CSV;
	else if (!strcmp(s, "json"))
		*out = OUT_JSON;
	else
		return -1;
	return 0;
}

void out_csv_field(FILE *fp, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	csv_cell(&sb, s);
	fputs(strbuf_str(&sb), fp);
	strbuf_release(&sb);
}

void out_json_str(FILE *fp, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_json_str(&sb, s);
	fputs(sb.buf, fp);
	strbuf_release(&sb);
}

void out_json_num(FILE *fp, double v)
{
	struct strbuf sb = STRBUF_INIT;

	if (!isfinite(v)) {
		fputs("null", fp);
		return;
	}
	strbuf_add_double(&sb, v);
	fputs(sb.buf, fp);
	strbuf_release(&sb);
}

/* Cell text of column i: doubles in their shortest exact form. */
static char *cell(struct db_cursor *c, int i)
{
	struct strbuf sb = STRBUF_INIT;

	switch (db_cursor_type(c, i)) {
	case DB_COL_NULL:
		return xstrdup("");
	case DB_COL_INT:
		strbuf_addf(&sb, "%lld", (long long)db_cursor_int(c, i));
		break;
	case DB_COL_REAL:
		strbuf_add_double(&sb, db_cursor_double(c, i));
		break;
	case DB_COL_TEXT:
		strbuf_addstr(&sb, db_cursor_text(c, i));
		break;
	}
	return strbuf_detach(&sb);
}

long out_cursor(FILE *fp, struct db_cursor *c, enum out_format fmt)
{
	int n = db_cursor_ncols(c), rc;
	long rows = 0;
	struct out_table *t = NULL;
	const char **headers = xcalloc((size_t)n, sizeof(*headers));
	char **cells = xcalloc((size_t)n, sizeof(*cells));

	for (int i = 0; i < n; i++)
		headers[i] = db_cursor_name(c, i);
	if (fmt == OUT_TABLE)
		t = out_table_new(n, headers);
	if (fmt == OUT_CSV) {
		for (int i = 0; i < n; i++) {
			if (i)
				fputc(',', fp);
			out_csv_field(fp, headers[i]);
		}
		fputc('\n', fp);
	}
	if (fmt == OUT_JSON)
		fputc('[', fp);
	while ((rc = db_cursor_next(c)) > 0) {
		if (fmt == OUT_JSON)
			fputs(rows ? ",\n  {" : "\n  {", fp);
		for (int i = 0; i < n; i++) {
			cells[i] = cell(c, i);
			if (fmt == OUT_CSV) {
				if (i)
					fputc(',', fp);
				out_csv_field(fp, cells[i]);
			} else if (fmt == OUT_JSON) {
				if (i)
					fputs(", ", fp);
				out_json_str(fp, headers[i]);
				fputs(": ", fp);
				if (db_cursor_type(c, i) == DB_COL_NULL)
					fputs("null", fp);
				else if (db_cursor_type(c, i) == DB_COL_TEXT)
					out_json_str(fp, cells[i]);
				else
					fputs(cells[i], fp);
			}
		}
		if (fmt == OUT_CSV)
			fputc('\n', fp);
		if (fmt == OUT_JSON)
			fputc('}', fp);
		if (t) {
			out_table_add(t, (const char *const *)cells);
			if (rows == 0)
				for (int i = 0; i < n; i++)
					if (db_cursor_type(c, i) == DB_COL_INT ||
					    db_cursor_type(c, i) == DB_COL_REAL)
						out_table_right(t, i);
		}
		for (int i = 0; i < n; i++)
			free(cells[i]);
		rows++;
	}
	if (fmt == OUT_JSON)
		fputs(rows ? "\n]\n" : "]\n", fp);
	if (t) {
		out_table_print(t, fp);
		out_table_free(t);
	}
	free(headers);
	free(cells);
	return rc < 0 ? rc : rows;
}

struct out_table {
	int ncols;
	char **cells;		/* rows * ncols, row 0 = headers */
	size_t rows;
	int *right;
};

struct out_table *out_table_new(int ncols, const char *const *headers)
{
	struct out_table *t = xcalloc(1, sizeof(*t));

	t->ncols = ncols;
	t->right = xcalloc((size_t)ncols, sizeof(*t->right));
	out_table_add(t, headers);
	return t;
}

void out_table_add(struct out_table *t, const char *const *cells)
{
	t->cells = xrealloc(t->cells, (t->rows + 1) * (size_t)t->ncols *
			    sizeof(*t->cells));
	for (int i = 0; i < t->ncols; i++)
		t->cells[t->rows * (size_t)t->ncols + (size_t)i] =
			util_safe_dup(cells[i] ? cells[i] : "");
	t->rows++;
}

void out_table_right(struct out_table *t, int col)
{
	t->right[col] = 1;
}

/* Display width of UTF-8 text (code points; good enough for names). */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

void out_table_print(const struct out_table *t, FILE *fp)
{
	int *wd = xcalloc((size_t)t->ncols, sizeof(*wd));

	for (size_t r = 0; r < t->rows; r++)
		for (int i = 0; i < t->ncols; i++) {
			int w = width(t->cells[r * (size_t)t->ncols + (size_t)i]);

			if (w > wd[i])
				wd[i] = w;
		}
	for (size_t r = 0; r < t->rows; r++) {
		for (int i = 0; i < t->ncols; i++) {
			const char *s = t->cells[r * (size_t)t->ncols + (size_t)i];
			int pad = wd[i] - width(s);
			int last = i == t->ncols - 1;

			if (i)
				fputs("  ", fp);
			if (t->right[i] && r > 0)
				fprintf(fp, "%*s%s", pad, "", s);
			else
				fprintf(fp, "%s%*s", s, last ? 0 : pad, "");
		}
		fputc('\n', fp);
	}
	free(wd);
}

void out_table_free(struct out_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->rows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->right);
	free(t);
}
