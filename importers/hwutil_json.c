/* A stream of JSON documents, one at a time (hwutil.h): the module
 * hwutil in a second file. Each document is built from the streaming
 * reader's tokens (base/jsonstream.h), members the importer does not
 * read (per-request arrays) skipped unbuilt: memory is bounded by what
 * one document keeps (JSONUTIL_DOC_MAX), not by the file. */
#include "importers/hwutil.h"

#include <sys/types.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "base/error.h"
#include "base/jsonstream.h"
#include "base/jsonutil.h"

int hwutil_json_docs_keep(FILE *fp, const char *path,
			  int (*keep)(const char *key,
				      const struct jsonstream_tok *value,
				      const struct cJSON *sofar, void *ctx),
			  int (*fn)(struct cJSON *doc, long line, void *ctx),
			  void *ctx)
{
	struct jsonstream *js = jsonstream_new(fp, path, JSONSTREAM_MULTI |
					       JSONSTREAM_PYTHON);
	struct jsonstream_tok t;
	int rc, ndocs = 0;

	for (;;) {
		cJSON *doc;
		off_t off;

		if ((rc = jsonstream_next(js, &t)) < 0 || t.type == JS_EOF)
			break;
		if ((rc = jsonstream_tree(js, &t, &doc, JSONUTIL_DOC_MAX, keep,
					  ctx)) < 0)
			break;
		/* fn may read the file itself (stk_key_line finds a key's
		 * line): the stream goes on from where it was */
		off = ftello(fp);
		rc = fn(doc, t.line, ctx);
		cJSON_Delete(doc);
		if (off >= 0 && fseeko(fp, off, SEEK_SET) == 0)
			clearerr(fp);
		if (rc)
			break;
		ndocs++;
	}
	jsonstream_free(js);
	if (rc < 0)
		return rc;
	if (ndocs == 0 && rc == 0)
		return pc_error_set(PC_EINVALID, "%s: no JSON document", path);
	return ndocs;
}

int hwutil_json_docs(FILE *fp, const char *path,
		     int (*fn)(struct cJSON *doc, long line, void *ctx),
		     void *ctx)
{
	return hwutil_json_docs_keep(fp, path, NULL, fn, ctx);
}

int hwutil_json_items(FILE *fp, const char *path, const char *what,
		      int (*keep)(const char *key,
				  const struct jsonstream_tok *value,
				  const struct cJSON *sofar, void *ctx),
		      int (*fn)(struct cJSON *item, long line, void *ctx),
		      void *ctx)
{
	struct jsonstream *js = jsonstream_new(fp, path, JSONSTREAM_PYTHON);
	struct jsonstream_tok t;
	long n = 0;
	int rc;

	if ((rc = jsonstream_next(js, &t)) < 0)
		goto done;
	if (t.type != JS_ARRAY) {
		rc = t.type == JS_EOF ?
			pc_error_set(PC_EINVALID, "%s: no JSON document", path) :
			pc_error_set(PC_EINVALID, "%s:%ld: expected a JSON array "
				     "(%s)", path, t.line, what);
		goto done;
	}
	for (;;) {
		cJSON *item;

		if ((rc = jsonstream_next(js, &t)) < 0 ||
		    t.type == JS_ARRAY_END)
			break;
		if ((rc = jsonstream_tree(js, &t, &item, JSONUTIL_DOC_MAX,
					  keep, ctx)) < 0)
			break;
		rc = fn(item, t.line, ctx);
		cJSON_Delete(item);
		if (rc)
			break;
		n++;
	}
	/* the end of the document: nothing may follow the array */
	if (rc == 0 && t.type == JS_ARRAY_END &&
	    (rc = jsonstream_next(js, &t)) == 0 && t.type != JS_EOF)
		rc = pc_error_set(PC_EINVALID, "%s:%ld: text after the array",
				  path, t.line);
done:
	jsonstream_free(js);
	return rc < 0 ? rc : (int)(n > 0x7fffffff ? 0x7fffffff : n);
}
