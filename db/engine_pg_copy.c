/* The PostgreSQL engine (see engine_pg.c): COPY. A streamed insert
 * (db_prepare_stream) sends its rows through COPY t (cols) FROM STDIN in
 * COPY's text format, buffered COPY_FLUSH bytes at a time; db_rows reads
 * COPY (sql) TO STDOUT, unescaped in place. */
#include "db/engine_pg.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/engine_pg_int.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

/* COPY text format: fields split by tabs, rows by newlines, NULL as \N */
#define COPY_FLUSH (1 << 16)

/* A stream statement from "INSERT INTO t (cols) VALUES (?,..),..": rows
 * go out through COPY t (cols) FROM STDIN when stepped. */
struct pg_stmt *pg_prepare_copy(struct pg_conn *pc, const char *sql)
{
	static const char verb[] = "INSERT INTO ";
	const char *t = sql + sizeof(verb) - 1, *open, *close;
	struct pg_stmt *st;
	char *q;

	if (strncmp(sql, verb, sizeof(verb) - 1) ||
	    !(open = strchr(t, '(')) || !(close = strchr(open, ')'))) {
		free(pc->err);
		pc->err = xstrdup("a streamed insert must read INSERT INTO "
				  "t (cols) VALUES ...");
		return NULL;
	}
	st = xcalloc(1, sizeof(*st));
	st->pc = pc;
	st->ncols = 1;
	for (const char *p = open; p < close; p++)
		st->ncols += *p == ',';
	q = pg_translate(sql, &st->nparams);
	free(q);
	if (!st->nparams || st->nparams % st->ncols) {
		free(st);
		free(pc->err);
		pc->err = xstrdup("a streamed insert binds whole rows");
		return NULL;
	}
	st->copy = xasprintf("COPY %.*s FROM STDIN", (int)(close + 1 - t), t);
	st->vals = xcalloc((size_t)st->nparams, sizeof(*st->vals));
	st->lens = xcalloc((size_t)st->nparams, sizeof(*st->lens));
	st->fmts = xcalloc((size_t)st->nparams, sizeof(*st->fmts));
	return st;
}

/* One field in COPY's text format: \N for NULL; backslash, tab, newline
 * and carriage return escaped. */
static void copy_field(struct strbuf *sb, const char *v, size_t n)
{
	size_t run = 0;

	if (!v) {
		strbuf_add(sb, "\\N", 2);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char e;

		switch (v[i]) {
		case '\\': e = '\\'; break;
		case '\t': e = 't'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		default: continue;
		}
		strbuf_add(sb, v + run, i - run);
		strbuf_addch(sb, '\\');
		strbuf_addch(sb, e);
		run = i + 1;
	}
	strbuf_add(sb, v + run, n - run);
}

int pg_copy_step(struct pg_stmt *st)
{
	struct pg_conn *pc = st->pc;

	if (st->done)
		return 101;
	if (pc->copying != st) {
		PGresult *r;

		if (pg_end_copy(pc) < 0 || pg_copy_failed(pc))
			return PC_EDB;
		r = PQexec(pc->c, st->copy);
		if (PQresultStatus(r) != PGRES_COPY_IN) {
			pg_set_err(pc, r);
			PQclear(r);
			return PC_EDB;
		}
		PQclear(r);
		pc->copying = st;
	}
	for (int i = 0; i < st->nparams; i++) {
		if (st->fmts[i]) {
			free(pc->err);
			pc->err = xstrdup("a streamed insert takes no blobs");
			return PC_EDB;
		}
		copy_field(&pc->cbuf, st->vals[i], (size_t)st->lens[i]);
		strbuf_addch(&pc->cbuf, (i + 1) % st->ncols ? '\t' : '\n');
	}
	st->done = 1;
	return pc->cbuf.len >= COPY_FLUSH && pg_copy_send(pc) < 0 ? PC_EDB :
	       101;
}

int pg_stream_end(struct pg_stmt *st)
{
	if (pg_copy_failed(st->pc))
		return PC_EDB;
	return st->pc->copying == st ? pg_copy_end(st->pc) : 0;
}

/* Rows of COPY (sql) TO STDOUT, unescaped in place. */
struct pg_rows {
	struct pg_conn *pc;
	char *line;
	char **vals;
	int ncols, done;
};

int pg_rows_open(struct pg_conn *pc, struct pg_rows **out, const char *sql,
		 int ncols)
{
	struct pg_rows *rs;
	char *q;
	PGresult *r;

	*out = NULL;
	if (pg_end_copy(pc) < 0)
		return PC_EDB;
	q = xasprintf("COPY (%s) TO STDOUT", sql);
	r = PQexec(pc->c, q);
	free(q);
	if (PQresultStatus(r) != PGRES_COPY_OUT) {
		pg_set_err(pc, r);
		PQclear(r);
		return PC_EDB;
	}
	PQclear(r);
	rs = xcalloc(1, sizeof(*rs));
	rs->pc = pc;
	rs->ncols = ncols;
	rs->vals = xcalloc((size_t)ncols, sizeof(*rs->vals));
	*out = rs;
	return 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	       c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Unescape the field at s (up to a tab or the end) into itself; *tab
 * says whether a tab ended it. Returns where the next field starts. */
static char *copy_unescape(char *s, char **val, int *tab)
{
	char *w = s, *p = s;

	*val = s;
	if (p[0] == '\\' && p[1] == 'N' && (p[2] == '\t' || !p[2])) {
		*val = NULL;
		*tab = p[2] == '\t';
		return p + 2 + *tab;
	}
	while (*p && *p != '\t') {
		if (*p != '\\' || !p[1]) {
			*w++ = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 'b': *w++ = '\b'; p++; break;
		case 'f': *w++ = '\f'; p++; break;
		case 'n': *w++ = '\n'; p++; break;
		case 'r': *w++ = '\r'; p++; break;
		case 't': *w++ = '\t'; p++; break;
		case 'v': *w++ = '\v'; p++; break;
		case 'x':
			if (hexval(p[1]) >= 0) {
				int v = hexval(*++p);

				if (hexval(p[1]) >= 0)
					v = v * 16 + hexval(*++p);
				*w++ = (char)v;
				p++;
				break;
			}
			*w++ = *p++;
			break;
		default:
			if (*p >= '0' && *p <= '7') {
				int v = 0;

				for (int k = 0; k < 3 && *p >= '0' && *p <= '7';
				     k++)
					v = v * 8 + (*p++ - '0');
				*w++ = (char)v;
			} else {
				*w++ = *p++;
			}
		}
	}
	*tab = *p == '\t';
	*w = 0;
	return p + *tab;
}

int pg_rows_next(struct pg_rows *rs)
{
	struct pg_conn *pc = rs->pc;
	PGresult *r;
	char *p;
	int n, rc = 0;

	if (rs->done)
		return 0;
	if (rs->line)
		PQfreemem(rs->line);
	rs->line = NULL;
	n = PQgetCopyData(pc->c, &rs->line, 0);
	if (n > 0) {
		if (rs->line[n - 1] == '\n')
			rs->line[n - 1] = 0;
		p = rs->line;
		for (int i = 0; i < rs->ncols; i++) {
			int tab;

			p = copy_unescape(p, &rs->vals[i], &tab);
			if (tab != (i < rs->ncols - 1)) {
				free(pc->err);
				pc->err = xasprintf("COPY gave a row of %s "
						    "than %d columns", tab ?
						    "more" : "fewer",
						    rs->ncols);
				return PC_EDB;
			}
		}
		return 1;
	}
	rs->done = 1;
	while ((r = PQgetResult(pc->c))) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == 0) {
			pg_set_err(pc, r);
			rc = PC_EDB;
		}
		PQclear(r);
	}
	if (n == -2 && rc == 0) {
		pg_set_err(pc, NULL);
		rc = PC_EDB;
	}
	return rc;
}

const char *pg_rows_value(const struct pg_rows *rs, int i)
{
	return rs->vals[i];
}

void pg_rows_close(struct pg_rows *rs)
{
	if (!rs)
		return;
	/* the rest of the stream is read and dropped: the connection is
	 * usable again after */
	while (pg_rows_next(rs) > 0)
		;
	if (rs->line)
		PQfreemem(rs->line);
	free(rs->vals);
	free(rs);
}
