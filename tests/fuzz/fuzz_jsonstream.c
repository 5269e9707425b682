/* Fuzz the streaming JSON reader (base/jsonstream.h): byte 0 picks
 * the flags (several documents, Python words), the read size (tokens
 * across reads) and whether values are built as cJSON trees (under a
 * small cap, with a keep filter) or walked as tokens and skipped. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "base/error.h"
#include "base/jsonstream.h"

static int keep(const char *key, const struct jsonstream_tok *v,
		const cJSON *sofar, void *ctx)
{
	(void)sofar;
	(void)ctx;
	return v->type != JS_ARRAY || key[0] != 'x';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t rsizes[] = { 1, 3, 64, 1 << 20 };
	struct jsonstream_tok t;
	struct jsonstream *js;
	unsigned flags = 0;
	FILE *fp;
	int mode;

	if (size < 1)
		return 0;
	if (data[0] & 1)
		flags |= JSONSTREAM_MULTI;
	if (data[0] & 2)
		flags |= JSONSTREAM_PYTHON;
	mode = (data[0] >> 4) & 3;
	fp = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "rb");
	if (!fp)
		return 0;
	if (size == 1)
		(void)fgetc(fp);	/* empty input */
	js = jsonstream_new(fp, "fuzz.json", flags);
	jsonstream_set_read_size(js, rsizes[(data[0] >> 2) & 3]);
	while (jsonstream_next(js, &t) == 0 && t.type != JS_EOF) {
		cJSON *doc;
		char *text;

		if ((t.type == JS_KEY || t.type == JS_STRING) && t.len &&
		    t.str[t.len - 1] == '\x7f')
			(void)strlen(t.str);	/* the borrowed string is readable */
		if (mode == 1 && t.depth == 0) {
			if (jsonstream_tree(js, &t, &doc, 4096, keep, NULL) < 0)
				break;
			text = cJSON_PrintUnformatted(doc);
			cJSON_free(text);
			cJSON_Delete(doc);
		} else if (mode == 2 && t.depth == 1 &&
			   jsonstream_skip(js, &t) < 0) {
			break;
		}
		(void)jsonstream_offset(js);
	}
	jsonstream_free(js);
	fclose(fp);
	pc_error_clear();
	return 0;
}
