#ifndef PC_IMPORTERS_JSONUTIL_H
#define PC_IMPORTERS_JSONUTIL_H
/*
 * Helpers for JSON importers on top of cJSON: bounded whole-document
 * reads with line:column error positions, and scalar formatting.
 */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

/* The most one JSON document may take (64 MiB): cJSON builds a tree of
 * about 40 bytes per byte of input (a 60 MB document took 2.5 GB), so a
 * whole-document format (small by nature: policies, kernel maps,
 * manifests, perfcorr-json) is capped, and a stream of documents (JSON
 * lines) is read one document at a time, each capped; big documents are
 * read with the streaming reader (jsonstream.h), where the cap bounds
 * what is built of one value (a trace event), not the file. */
#define JSONUTIL_DOC_MAX (64u << 20)

/* Where a JSON text really starts: after a UTF-8 BOM and JSON's white
 * space (space, tab, CR, LF). The probes of the JSON formats test the
 * byte there ('{' for an object, '[' for an array). */
const char *jsonutil_start(const char *text);

/* Read all of fp (at most max bytes, else PC_EINVALID) and parse it.
 * A UTF-8 BOM is skipped. Caller deletes *out. Parse errors say
 * "path:LINE:COL: invalid JSON". */
int jsonutil_parse_file(cJSON **out, FILE *fp, const char *path, size_t max);

/* Parse one NUL-terminated text (e.g. a JSONL line); errors name
 * "path:line:col". Caller deletes *out. */
int jsonutil_parse_text(cJSON **out, const char *text, const char *path,
			long line);

/* A string or number (or bool) as text; borrowed from a static buffer
 * for numbers, valid until the next call. NULL for other types. */
const char *jsonutil_scalar(const cJSON *v);

/* A number member as double: 0 and *out when a number, 1 when absent or
 * null, PC_EINVALID naming key when of another type. */
int jsonutil_number(const cJSON *obj, const char *key, double *out,
		    const char *path);

#endif
