/* Unit tests: the streaming JSON reader (base/jsonstream.h): tokens
 * and positions, strings and escapes, numbers (bit-equal to strtod),
 * errors with their positions, chunk boundaries, trees against cJSON. */
#include "check.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/jsonstream.h"

struct rd {
	FILE *fp;
	struct jsonstream *js;
};

static void rd_open(struct rd *r, const char *text, size_t len,
		    unsigned flags)
{
	r->fp = fmemopen((void *)text, len, "rb");
	if (!r->fp)
		abort();
	r->js = jsonstream_new(r->fp, "t.json", flags);
}

static void rd_close(struct rd *r)
{
	jsonstream_free(r->js);
	fclose(r->fp);
}

/* All tokens of text; the error (or "") of the first failure. */
static const char *tokens(const char *text, unsigned flags, char *types,
			  size_t n)
{
	static const char code[] = "E{}[]ksntfz";
	struct jsonstream_tok t;
	struct rd r;
	size_t i = 0;
	int rc;

	pc_error_clear();
	rd_open(&r, text, strlen(text), flags);
	while ((rc = jsonstream_next(r.js, &t)) == 0) {
		if (i + 1 < n)
			types[i++] = code[t.type];
		if (t.type == JS_EOF)
			break;
	}
	types[i] = '\0';
	rd_close(&r);
	return rc < 0 ? pc_error_last() : "";
}

/* The error of reading text to its end. */
static const char *error_of(const char *text, unsigned flags)
{
	char types[256];

	return tokens(text, flags, types, sizeof(types));
}

TEST(token_kinds_and_positions)
{
	const char *doc = "{\"a\": [1, \"x\", true, false, null],\n \"b\": {}}";
	struct jsonstream_tok t;
	struct rd r;
	char types[64];

	CHECK_STR(tokens(doc, 0, types, sizeof(types)), "");
	CHECK_STR(types, "{k[nstfz]k{}}E");
	rd_open(&r, doc, strlen(doc), 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_INT(t.depth, 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_STR(t.str, "a");
	CHECK_INT(t.col, 2);
	CHECK_INT(t.depth, 1);
	CHECK_INT(jsonstream_next(r.js, &t), 0);	/* [ */
	CHECK_INT(t.byte, 6);
	CHECK(jsonstream_skip(r.js, &t) == 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_STR(t.str, "b");
	CHECK_INT(t.line, 2);
	CHECK_INT(t.col, 2);
	CHECK_INT(t.byte, 36);
	CHECK_INT(jsonstream_next(r.js, &t), 0);	/* { */
	CHECK_INT(jsonstream_next(r.js, &t), 0);	/* } */
	CHECK_INT(t.type, JS_OBJECT_END);
	CHECK_INT(t.depth, 1);
	rd_close(&r);
	/* empty input: the end at once; a BOM and white space too */
	CHECK_STR(tokens("", 0, types, sizeof(types)), "");
	CHECK_STR(types, "E");
	CHECK_STR(tokens("\xef\xbb\xbf \n\t", 0, types, sizeof(types)), "");
	CHECK_STR(types, "E");
}

TEST(strings_and_escapes)
{
	const char *doc = "[\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\u20ac\","
			  " \"\\ud83d\\ude00\", \"raw\ttab\"]";
	struct jsonstream_tok t;
	struct rd r;

	rd_open(&r, doc, strlen(doc), 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_STR(t.str, "a\"b\\c/d\b\f\n\r\t");
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_STR(t.str, "\xc3\xa9\xe2\x82\xac");
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_STR(t.str, "\xf0\x9f\x98\x80");	/* U+1F600 */
	CHECK_INT(t.len, 4);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_STR(t.str, "raw\ttab");
	rd_close(&r);
	/* \u0000 is a token of length 1; a tree refuses it */
	rd_open(&r, "\"\\u0000\"", 8, 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_INT(t.len, 1);
	rd_close(&r);
	CHECK(strstr(error_of("\"\\ud83d\"", 0), "t.json:1:2: invalid JSON "
		     "(byte 1): a UTF-16 high surrogate \\ud83d not followed"));
	CHECK(strstr(error_of("\"\\udc00\"", 0), "lone UTF-16 low surrogate"));
	CHECK(strstr(error_of("\"\\u12g4\"", 0), "four hex digits"));
	CHECK(strstr(error_of("\"\\x\"", 0), "t.json:1:2: invalid JSON "
		     "(byte 1): expected an escape"));
	/* not closed: where cJSON said, just after the opening quote */
	CHECK_STR(error_of("{\"a\": 1,\n  \"bcd", 0), "t.json:2:4: invalid JSON "
		  "(byte 12): a string not closed before the end of the file");
	CHECK(strstr(error_of("\"ab\\", 0), "t.json:1:2: invalid JSON (byte 1): "
		     "a string not closed"));
	CHECK(strstr(error_of("\"\\u12", 0), "not closed"));
}

TEST(nul_bytes)
{
	struct jsonstream_tok t;
	struct rd r;

	rd_open(&r, "[\"a\0b\"]", 7, 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK(jsonstream_next(r.js, &t) < 0);
	CHECK(strstr(pc_error_last(), "t.json:1:4: invalid JSON (byte 3): a "
		     "NUL byte"));
	rd_close(&r);
	rd_open(&r, "[1,\0]", 5, 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK(jsonstream_next(r.js, &t) < 0);
	CHECK(strstr(pc_error_last(), "NUL byte"));
	rd_close(&r);
}

TEST(numbers_equal_strtod)
{
	static const char *const nums[] = { "0", "-0", "1", "-1", "42",
		"3.14159", "0.1", "0.000123", "1e10", "1E-7", "-2.5e+3",
		"88511388202.785", "1691510394820126", "9007199254740993",
		"123456789012345678901234567890", "1.7976931348623157e308",
		"4.9e-324", "1e400", "-1e400", "2.2250738585072014e-308",
		"0.30000000000000004", "100.5", "102.25", "98.75", "1e22",
		"1e23", "123456789012345.6", "0.1234567890123456789",
		"5e-324", "1.00000000000000011102230246251565404236316680908203125",
		NULL };

	for (int i = 0; nums[i]; i++) {
		struct jsonstream_tok t;
		struct rd r;
		double want = strtod(nums[i], NULL);

		rd_open(&r, nums[i], strlen(nums[i]), 0);
		CHECK_INT(jsonstream_next(r.js, &t), 0);
		CHECK_INT(t.type, JS_NUMBER);
		if (memcmp(&t.num, &want, sizeof(want))) {
			fprintf(stderr, "  %s: %.17g, strtod %.17g\n", nums[i],
				t.num, want);
			CHECK(0);
		}
		CHECK_INT(jsonstream_next(r.js, &t), 0);
		CHECK_INT(t.type, JS_EOF);
		rd_close(&r);
	}
	CHECK(strstr(error_of("01", 0), "t.json:1:2: invalid JSON (byte 1): "
		     "expected the end of the file after the document, found '1'"));
	CHECK(strstr(error_of("[1.]", 0), "expected a digit after '.', found ']'"));
	CHECK(strstr(error_of("[-]", 0), "expected a digit, found ']'"));
	CHECK(strstr(error_of("[1e]", 0), "a digit in the exponent"));
	CHECK(strstr(error_of("[+1]", 0), "t.json:1:2: invalid JSON (byte 1): "
		     "expected a value, found '+'"));
	CHECK(strstr(error_of("[.5]", 0), "expected a value, found '.'"));
}

TEST(python_words)
{
	struct jsonstream_tok t;
	struct rd r;
	const char *doc = "[NaN, Infinity, -Infinity]";

	rd_open(&r, doc, strlen(doc), JSONSTREAM_PYTHON);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK(t.nan && isnan(t.num));
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK(isinf(t.num) && t.num > 0 && !t.nan);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK(isinf(t.num) && t.num < 0);
	rd_close(&r);
	CHECK(strstr(error_of(doc, 0), "t.json:1:2: invalid JSON (byte 1): "
		     "expected a value, found 'N'"));
	CHECK(strstr(error_of("[-Infinity]", 0), "expected a digit"));
	CHECK(strstr(error_of("[tru]", 0), "expected a value, found 't'"));
}

TEST(grammar_errors)
{
	CHECK_STR(error_of("{\"a\": 1,\n \"b\": [1, 2", 0), "t.json:2:12: "
		  "invalid JSON (byte 20): expected more of an array (',' or "
		  "']'), found the end of the file");
	CHECK(strstr(error_of("{\"a\": 1", 0), "t.json:1:8: invalid JSON "
		     "(byte 7): expected more of an object (',' or '}')"));
	CHECK(strstr(error_of("{\"a\":", 0), "t.json:1:6: invalid JSON "
		     "(byte 5): expected a value, found the end of the file"));
	CHECK(strstr(error_of("{\"a\" 1}", 0), "t.json:1:6: invalid JSON "
		     "(byte 5): expected ':' after the key, found '1'"));
	CHECK(strstr(error_of("{1: 2}", 0), "expected a key (a string) or '}'"));
	CHECK(strstr(error_of("{\"a\": 1,}", 0), "expected a key (a string) "
		     "after ','"));
	CHECK(strstr(error_of("[1, 2,]", 0), "expected a value, found ']'"));
	CHECK(strstr(error_of("[1 2]", 0), "expected ',' or ']' after an "
		     "element, found '2'"));
	CHECK(strstr(error_of("{\"a\": 1]", 0), "expected ',' or '}' after a "
		     "member, found ']'"));
	CHECK(strstr(error_of("{} x", 0), "t.json:1:4: invalid JSON (byte 3): "
		     "expected the end of the file after the document"));
	CHECK(strstr(error_of("{}{}", 0), "after the document, found '{'"));
	CHECK(strstr(error_of("\x01", 0), "found byte 0x01"));
	/* the BOM is not a column */
	CHECK(strstr(error_of("\xef\xbb\xbf{]", 0), "t.json:1:2: invalid JSON "
		     "(byte 4)"));
	/* several documents only when asked for */
	{
		char types[32];

		CHECK_STR(tokens("{}\n[1]\n\"s\" 2", JSONSTREAM_MULTI, types,
				 sizeof(types)), "");
		CHECK_STR(types, "{}[n]snE");
		CHECK(strstr(tokens("{}\n{", JSONSTREAM_MULTI, types,
				    sizeof(types)), "t.json:2:2: invalid JSON"));
	}
}

TEST(depth_limit)
{
	char *deep = malloc(2 * JSONSTREAM_DEPTH_MAX + 4);
	int n = JSONSTREAM_DEPTH_MAX;

	memset(deep, '[', (size_t)n);
	memset(deep + n, ']', (size_t)n);
	deep[2 * n] = '\0';
	CHECK_STR(error_of(deep, 0), "");
	memset(deep, '[', (size_t)n + 1);
	memset(deep + n + 1, ']', (size_t)n + 1);
	deep[2 * n + 2] = '\0';
	CHECK(strstr(error_of(deep, 0), "t.json:1:1001: invalid JSON (byte "
		     "1000): nested deeper than 1000 levels"));
	free(deep);
}

/* A document of about n bytes with every kind of value, long strings and
 * numbers placed so that some straddle the 256 KiB reads. */
static char *gen_doc(size_t n, unsigned seed)
{
	size_t cap = n + 4096, len = 0;
	char *s = malloc(cap);

	len += (size_t)sprintf(s, "{\"traceEvents\": [");
	for (int i = 0; len < n; i++) {
		seed = seed * 1103515245u + 12345u;
		if (len + 2048 > cap)
			break;
		len += (size_t)sprintf(s + len, "%s{\"ph\": \"X\", \"name\": "
			"\"k\\u00e9%u\\n\\ud83d\\ude00%.*s\", \"ts\": %u.%03u, "
			"\"dur\": %u.%u, \"args\": {\"grid\": [%u, 1, 1], "
			"\"e\": %ue-%u, \"neg\": -%u, \"t\": true, \"n\": null}}",
			i ? ",\n " : "", seed % 1000, (int)(seed % 300),
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
			seed, seed % 1000, seed % 5000, seed % 7, seed % 1024,
			seed % 90, seed % 30, seed);
	}
	len += (size_t)sprintf(s + len, "], \"deviceProperties\": [{\"name\": "
			       "\"H100\"}]}");
	s[len] = '\0';
	return s;
}

static void tree_equals_cjson(size_t size, size_t rsize)
{
	char *doc = gen_doc(size, 7);
	cJSON *want = cJSON_Parse(doc), *got = NULL;
	struct jsonstream_tok t;
	struct rd r;
	char *a, *b;

	CHECK(want != NULL);
	rd_open(&r, doc, strlen(doc), 0);
	jsonstream_set_read_size(r.js, rsize);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_INT(jsonstream_tree(r.js, &t, &got, 64u << 20, NULL, NULL), 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_INT(t.type, JS_EOF);
	a = cJSON_PrintUnformatted(want);
	b = cJSON_PrintUnformatted(got);
	CHECK(a && b && !strcmp(a, b));
	CHECK_INT(jsonstream_offset(r.js), (long long)strlen(doc));
	free(a);
	free(b);
	cJSON_Delete(want);
	cJSON_Delete(got);
	rd_close(&r);
	free(doc);
}

TEST(tree_equals_cjson_across_chunks)
{
	tree_equals_cjson(900 * 1024, 256 * 1024);
	/* reads of 1, 3, 7 bytes: every token across a read */
	tree_equals_cjson(20000, 1);
	tree_equals_cjson(60000, 3);
	tree_equals_cjson(60000, 7);
}

static int keep_small(const char *key, const struct jsonstream_tok *v,
		      const cJSON *sofar, void *ctx)
{
	(void)sofar;
	(*(int *)ctx)++;
	return v->type != JS_OBJECT || strcmp(key, "big");
}

TEST(tree_keep_and_cap)
{
	char *doc = gen_doc(600 * 1024, 3), *text;
	size_t n = strlen(doc) + 100;
	struct jsonstream_tok t;
	struct rd r;
	cJSON *got;
	int calls = 0;

	/* a big array dropped unbuilt: under a 1 KiB cap */
	text = malloc(n);
	snprintf(text, n, "{\"a\": 1, \"big\": %s, \"keep\": [2]}", doc);
	rd_open(&r, text, strlen(text), 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_INT(jsonstream_tree(r.js, &t, &got, 1024, keep_small, &calls), 0);
	CHECK_INT(calls, 3);
	{
		char *p = cJSON_PrintUnformatted(got);

		CHECK_STR(p, "{\"a\":1,\"keep\":[2]}");
		free(p);
	}
	cJSON_Delete(got);
	rd_close(&r);
	/* the same document built: over the cap, named */
	rd_open(&r, doc, strlen(doc), 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK(jsonstream_tree(r.js, &t, &got, 64 * 1024, NULL, NULL) < 0);
	CHECK(strstr(pc_error_last(), "t.json:1: JSON document larger than 0 "
		     "MiB"));
	CHECK(jsonstream_next(r.js, &t) < 0);	/* the reader stays failed */
	rd_close(&r);
	/* \u0000 in a built string or key */
	rd_open(&r, "{\"a\\u0000b\": 1}", 15, 0);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK(jsonstream_tree(r.js, &t, &got, 1024, NULL, NULL) < 0);
	CHECK(strstr(pc_error_last(), "t.json:1:2: a \\u0000 (NUL) inside a "
		     "string"));
	rd_close(&r);
	/* NaN is built as the missing value "-" */
	rd_open(&r, "[NaN, 1]", 8, JSONSTREAM_PYTHON);
	CHECK_INT(jsonstream_next(r.js, &t), 0);
	CHECK_INT(jsonstream_tree(r.js, &t, &got, 1024, NULL, NULL), 0);
	CHECK_STR(cJSON_GetArrayItem(got, 0)->valuestring, "-");
	cJSON_Delete(got);
	rd_close(&r);
	free(text);
	free(doc);
}

TEST(truncated_everywhere)
{
	/* every prefix of a document is an error naming the file's end or
	 * the open string, never a crash or a success */
	const char *doc = "{\"a\": [1.5, -2e3, \"x\\u00e9y\", true, null, "
			  "{\"b\": false}], \"c\": \"\\ud83d\\ude00\"}";
	size_t n = strlen(doc);

	for (size_t i = 1; i < n; i++) {
		char *p = strndup(doc, i);
		const char *e = error_of(p, 0);

		if (!strstr(e, "invalid JSON")) {
			fprintf(stderr, "  prefix %zu: '%s'\n", i, e);
			CHECK(0);
		}
		free(p);
	}
	CHECK_STR(error_of(doc, 0), "");
}

TEST_MAIN(CASE(token_kinds_and_positions), CASE(strings_and_escapes),
	  CASE(nul_bytes), CASE(numbers_equal_strtod), CASE(python_words),
	  CASE(grammar_errors), CASE(depth_limit),
	  CASE(tree_equals_cjson_across_chunks), CASE(tree_keep_and_cap),
	  CASE(truncated_everywhere))
