/* A stream of JSON documents, one at a time (hwutil.h): the module
 * hwutil in a second file. The stream is scanned for the end of each
 * document (strings and nesting followed across reads), which is then
 * parsed alone: memory is bounded by the largest document
 * (JSONUTIL_DOC_MAX), not by the file. */
#include "importers/hwutil.h"

#include <ctype.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/error.h"
#include "base/jsonutil.h"
#include "base/util.h"

#define CHUNK 65536

struct jstream {
	FILE *fp;
	const char *path;
	char *buf;
	size_t len, cap;	/* bytes held, allocated (len + 1 <= cap) */
	size_t start;		/* where the current document starts */
	size_t pos;		/* how far it is scanned */
	long line;		/* the line of buf[start] */
	long scan_line;		/* the line of buf[pos] */
	int depth, instr, esc, eof;
};

/* Replace Python's non-JSON number tokens outside strings. */
static void fix_python_tokens(char *s)
{
	int instr = 0;

	for (char *p = s; *p; p++) {
		if (instr) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				instr = 0;
			continue;
		}
		if (*p == '"')
			instr = 1;
		else if (!strncmp(p, "Infinity", 8)) {
			memcpy(p, "1e999999", 8);
			p += 7;
		} else if (!strncmp(p, "NaN", 3) &&
			 !isalnum((unsigned char)p[3])) {
			memcpy(p, "\"-\"", 3);	/* a missing value */
			p += 2;
		}
	}
}

static long line_of(const char *start, const char *p, long *col)
{
	long line = 1;

	*col = 1;
	for (const char *q = start; q < p && *q; q++) {
		if (*q == '\n') {
			line++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
	return line;
}

static int too_big(const struct jstream *j)
{
	return pc_error_set(PC_EINVALID, "%s:%ld: JSON document larger than "
		"%u MiB (the most perfcorr reads as one document: parsing "
		"takes ~40 bytes of memory per byte); split it into smaller "
		"files, or write JSON lines", j->path, j->line,
		JSONUTIL_DOC_MAX >> 20);
}

/* Read more bytes: 0 ok, 1 at the end of the stream, <0 an error. The
 * consumed part before start is dropped first. */
static int fill(struct jstream *j)
{
	size_t n;

	if (j->eof)
		return 1;
	if (j->start > 0) {
		memmove(j->buf, j->buf + j->start, j->len - j->start);
		j->len -= j->start;
		j->pos -= j->start;
		j->start = 0;
	}
	if (j->len - j->start > JSONUTIL_DOC_MAX)
		return too_big(j);
	if (j->cap - j->len < CHUNK + 1) {
		j->cap = j->cap * 2 > j->len + CHUNK + 1 ? j->cap * 2 :
			 j->len + CHUNK + 1;
		j->buf = xrealloc(j->buf, j->cap);
	}
	n = fread(j->buf + j->len, 1, CHUNK, j->fp);
	if (n == 0) {
		if (ferror(j->fp))
			return pc_error_set(PC_EIO, "%s: read error", j->path);
		j->eof = 1;
		return 1;
	}
	if (memchr(j->buf + j->len, '\0', n))
		return pc_error_set(PC_EINVALID, "%s: NUL byte in a text file",
				    j->path);
	j->len += n;
	return 0;
}

/* Skip white space (and a BOM at the very start) to the next document:
 * 1 when there is one, 0 at the end, <0 an error. */
static int next_doc(struct jstream *j, int first)
{
	int rc;

	for (;;) {
		while (j->start < j->len &&
		       isspace((unsigned char)j->buf[j->start])) {
			if (j->buf[j->start] == '\n')
				j->line++;
			j->start++;
		}
		if (first && j->len - j->start >= 3 &&
		    !memcmp(j->buf + j->start, "\xef\xbb\xbf", 3)) {
			j->start += 3;
			first = 0;
			continue;
		}
		if (j->start < j->len && (!first || j->len - j->start >= 3))
			break;
		if ((rc = fill(j)) < 0)
			return rc;
		if (rc == 1) {
			if (j->start < j->len)
				break;
			return 0;
		}
	}
	j->pos = j->start;
	j->scan_line = j->line;
	j->depth = j->instr = j->esc = 0;
	return 1;
}

/* Scan to the end of the document at start: its length, or <0. A
 * document that does not end (truncated) runs to the end of the file,
 * where cJSON says what is wrong. */
static int doc_end(struct jstream *j, size_t *end)
{
	char c0 = j->buf[j->start];
	int scalar = c0 != '{' && c0 != '[', rc;

	for (;;) {
		while (j->pos < j->len) {
			char c = j->buf[j->pos];

			/* a number, true, null ... ends before white space */
			if (scalar && !j->instr && j->pos > j->start &&
			    (isspace((unsigned char)c) || c == '{' ||
			     c == '[')) {
				*end = j->pos;
				return 0;
			}
			j->pos++;
			if (c == '\n')
				j->scan_line++;
			if (j->instr) {
				if (j->esc) {
					j->esc = 0;
				} else if (c == '\\') {
					j->esc = 1;
				} else if (c == '"') {
					j->instr = 0;
					if (scalar) {
						*end = j->pos;
						return 0;
					}
				}
			} else if (c == '"') {
				j->instr = 1;
			} else if (scalar) {
				continue;
			} else if (c == '{' || c == '[') {
				j->depth++;
			} else if ((c == '}' || c == ']') && --j->depth == 0) {
				*end = j->pos;
				return 0;
			}
		}
		if ((rc = fill(j)) < 0)
			return rc;
		if (rc == 1) {
			*end = j->len;
			return 0;
		}
	}
}

int hwutil_json_docs(FILE *fp, const char *path,
		     int (*fn)(struct cJSON *doc, long line, void *ctx),
		     void *ctx)
{
	struct jstream j = { .fp = fp, .path = path, .line = 1 };
	int rc, ndocs = 0, first = 1;

	j.cap = CHUNK + 1;
	j.buf = xmalloc(j.cap);
	for (;;) {
		const char *stop = NULL;
		size_t end;
		char save;
		cJSON *doc;
		long line, col;
		off_t off;

		if ((rc = next_doc(&j, first)) <= 0)
			break;
		first = 0;
		if ((rc = doc_end(&j, &end)) < 0)
			break;
		if (end - j.start > JSONUTIL_DOC_MAX) {
			rc = too_big(&j);
			break;
		}
		/* the document alone, NUL-terminated for cJSON (fill keeps
		 * a byte free past len) */
		save = j.buf[end];
		j.buf[end] = '\0';
		fix_python_tokens(j.buf + j.start);
		doc = cJSON_ParseWithOpts(j.buf + j.start, &stop, 0);
		if (!doc || (stop && *stop)) {
			const char *e = doc ? stop : cJSON_GetErrorPtr();

			line = line_of(j.buf + j.start, e ? e : j.buf + j.start,
				       &col);
			rc = pc_error_set(PC_EINVALID, "%s:%ld:%ld: invalid JSON",
					  path, j.line + line - 1, col);
			cJSON_Delete(doc);
			break;
		}
		j.buf[end] = save;
		/* fn may read the file itself (stk_key_line finds a key's
		 * line): the stream goes on from where it was */
		off = ftello(fp);
		rc = fn(doc, j.line, ctx);
		cJSON_Delete(doc);
		if (off >= 0 && fseeko(fp, off, SEEK_SET) == 0 && !j.eof)
			clearerr(fp);
		if (rc)
			break;
		ndocs++;
		j.start = end;
		j.line = j.scan_line;
	}
	free(j.buf);
	if (rc < 0)
		return rc;
	if (ndocs == 0 && rc == 0)
		return pc_error_set(PC_EINVALID, "%s: no JSON document", path);
	return ndocs;
}
