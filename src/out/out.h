#ifndef PC_SRC_OUT_H
#define PC_SRC_OUT_H
/*
 * Output for people and machines: aligned tables (numbers right-aligned,
 * untrusted text escaped), RFC 4180 CSV and JSON, from a db cursor or
 * from rows built by a command. Part of the CLI layer.
 */
#include <stdio.h>

struct db_cursor;

enum out_format { OUT_TABLE, OUT_CSV, OUT_JSON };

/* Parse "table|csv|json"; -1 when unknown. */
int out_parse_format(const char *s, enum out_format *out);

/* Stream every row of c to fp in fmt. Returns rows written or <0. */
long out_cursor(FILE *fp, struct db_cursor *c, enum out_format fmt);

/* A table built row by row (strings copied), printed aligned. */
struct out_table;
struct out_table *out_table_new(int ncols, const char *const *headers);
void out_table_add(struct out_table *t, const char *const *cells);
/* right-align column i (numbers) */
void out_table_right(struct out_table *t, int col);
void out_table_print(const struct out_table *t, FILE *fp);
void out_table_free(struct out_table *t);

/* Write s as one CSV field (quoted when needed). */
void out_csv_field(FILE *fp, const char *s);
/* Write s as a JSON string literal. */
void out_json_str(FILE *fp, const char *s);
/* Write a double as JSON (null when not finite). */
void out_json_num(FILE *fp, double v);

#endif
