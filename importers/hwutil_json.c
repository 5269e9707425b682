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
