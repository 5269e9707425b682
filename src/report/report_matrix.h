#ifndef PC_SRC_REPORT_MATRIX_H
#define PC_SRC_REPORT_MATRIX_H
/*
 * The report's "Who disagrees with whom" section (src/matrix.h over
 * every source at its latest version): per metric the matrix as a table
 * (and in html an SVG heatmap), the keys per pattern and the top keys of
 * each pattern with their suggested cause and annotation.
 */
struct db;
struct report;
struct strbuf;

/* Keys listed per pattern. */
#define REPORT_MATRIX_TOP 5

/* Build r->matrix; a matrix that cannot be built (cycles without a
 * clock), or one of two sources (the report is their comparison), is
 * not an error of the report: the reason goes to r->matrix_note.
 * Database errors pass through. */
int report_matrix_build(struct report *r, struct db *db);

void report_matrix_md(struct strbuf *sb, const struct report *r);
void report_matrix_html(struct strbuf *sb, const struct report *r);

#endif
