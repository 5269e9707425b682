#ifndef PC_IMPORTERS_CSV_H
#define PC_IMPORTERS_CSV_H
/*
 * The one CSV reader every CSV-ish importer shares. Streams records from
 * a FILE (memory is bounded by the longest record, not the file):
 * RFC 4180 quoting (separators, quotes and newlines inside quotes), CRLF,
 * a UTF-8 BOM, ragged rows, ", " separators (trim_space), a record-size
 * limit so a pathological line is an error, not an OOM kill.
 * Fields are borrowed until the next csv_read().
 */
#include <stddef.h>
#include <stdio.h>

struct csv {
	FILE *fp;
	const char *path;	/* for messages */
	char sep;		/* ',' by default */
	int trim_space;		/* strip blanks around unquoted fields */
	size_t max_record;	/* bytes; default 16 MiB */
	long line;		/* line where the current record starts */
	char **fields;
	size_t nfields;
	int unended;		/* the record ended at the end of the file
				 * with no line end (a writer that ends
				 * every row with one: a cut file) */
	int whole;		/* set by a reader whose writer ends every
				 * row: after an unended row that is not
				 * blank, the next csv_read() fails with
				 * "path:line: the last row has no line
				 * end (a cut file? ...)" (the reader's own
				 * check of that row speaks first) */
	/* private */
	long next_line;
	char *rec;
	size_t rlen, rcap;
	size_t *offs;
	size_t fcap;
	char ibuf[65536];
	size_t ipos, ilen;
	int eof, started;
};

void csv_init(struct csv *c, FILE *fp, const char *path);
void csv_release(struct csv *c);

/* Read one record: 1 when read, 0 at end of file, <0 with a message
 * ("x.csv:17: unterminated quoted field"). A blank line is a record with
 * one empty field (see csv_blank). */
int csv_read(struct csv *c);

/* 1 when the current record is a blank line. */
int csv_blank(const struct csv *c);

/* Index of the field equal to name (after trimming), or -1. */
int csv_col(const struct csv *c, const char *name);

/* Bytes consumed so far (for progress). */
long long csv_offset(const struct csv *c);

/* 1 for N/A, [N/A], n/a, NA, nan, -nan, empty, blanks. */
int csv_is_missing(const char *s);

/* Parse a number allowing thousands separators ("1,234.5"); missing
 * values give NaN and return 0; garbage returns -1. */
int csv_number(const char *s, double *out);

struct strbuf;

/* Append s as one CSV cell (no separator): quoted when it holds a
 * separator, quote, newline or edge blanks (RFC 4180), and a text cell
 * that starts with = + - @ (or tab, CR) gets a leading ' so that no
 * spreadsheet runs it as a formula (OWASP CSV injection). Numbers
 * ("-1.5", "+2e-06") are left alone. Every CSV perfcorr writes (export,
 * listings, reports) goes through here. */
void csv_cell(struct strbuf *sb, const char *s);
/* Undo csv_cell's formula quote in place ("'=x" -> "=x"): perfcorr's own
 * CSV imports back unchanged. */
void csv_unquote_formula(char *s);

#endif
