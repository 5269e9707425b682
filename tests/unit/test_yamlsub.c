/* Unit tests: the PyYAML-dump subset of YAML (importers/yamlsub.h).
 * The texts are what PyYAML 6 writes with yaml.dump(d, indent=2) (checked
 * by hand against yaml.safe_load); tests/cli/yamlsub_pyyaml.sh compares
 * random documents with PyYAML where it is installed.
 * With YAMLSUB_FILE=path the binary prints that file as JSON instead
 * (infinities as "__inf__"/"__-inf__") for that comparison. */
#include "check.h"

#include <cjson/cJSON.h>
#include <math.h>

#include "importers/yamlsub.h"
#include "base/error.h"

static cJSON *parse(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	cJSON *o = NULL;

	if (yamlsub_parse(&o, fp, "t.yaml") < 0)
		o = NULL;
	fclose(fp);
	return o;
}

/* The JSON text of a YAML text ("ERR: message" on error). */
static char *json(const char *text)
{
	cJSON *o = parse(text);
	char *s;

	if (!o) {
		size_t n = strlen(pc_error_last()) + 8;

		s = malloc(n);
		snprintf(s, n, "ERR: %s", pc_error_last());
		return s;
	}
	s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

#define CHECK_YAML(text, want) do { char *_j = json(text); \
	CHECK_STR(_j, want); free(_j); } while (0)

TEST(pyyaml_block)
{
	CHECK_YAML("run:\n  keywords:\n  - a\n  - b\n  uid: abc\nversion: '0.2'\n",
		   "{\"run\":{\"keywords\":[\"a\",\"b\"],\"uid\":\"abc\"},"
		   "\"version\":\"0.2\"}");
	CHECK_YAML("ld:\n- a: 1\n  b:\n  - 1\n  - 2\n- c:\n    d: 1\n",
		   "{\"ld\":[{\"a\":1,\"b\":[1,2]},{\"c\":{\"d\":1}}]}");
	CHECK_YAML("ll:\n- - 1\n  - 2\n- - 3\n  - - 4\n    - 5\ne: {}\nel: []\n",
		   "{\"ll\":[[1,2],[3,[4,5]]],\"e\":{},\"el\":[]}");
	CHECK_YAML("args:\n  --block-size: 1024\n  --no-enable: null\n",
		   "{\"args\":{\"--block-size\":1024,\"--no-enable\":null}}");
}

TEST(pyyaml_scalars)
{
	CHECK_YAML("- 0.0.1\n- '0.2'\n- 'yes'\n- yes\n- ~\n- ''\n- 0x1F\n- 012\n"
		   "- 1:30\n- 1e5\n- 1.0e+5\n- .nan\n- 1_000\n",
		   "[\"0.0.1\",\"0.2\",\"yes\",true,null,\"\",31,10,90,\"1e5\","
		   "100000,null,1000]");
	CHECK_YAML("colon: 'a: b'\nhash: 'a #b'\n'k: v': 1\nq?: ?x\n"
		   "quote: it's \"q\"\n",
		   "{\"colon\":\"a: b\",\"hash\":\"a #b\",\"k: v\":1,\"q?\":\"?x\","
		   "\"quote\":\"it's \\\"q\\\"\"}");
	/* single quotes fold: a break is a space, an empty line a newline */
	CHECK_YAML("multi: 'line1\n\n  line2\n\n\n  line4'\nnl: 'abc\n\n  '\n"
		   "long: 'word word\n  word '\n",
		   "{\"multi\":\"line1\\nline2\\n\\nline4\",\"nl\":\"abc\\n\","
		   "\"long\":\"word word word \"}");
	CHECK_YAML("t: \"a\\tb\\n  c\\xE9\"\nj: \"x \\\n  y\"\n",
		   "{\"t\":\"a\\tb\\n  c\xc3\xa9\",\"j\":\"x y\"}");
	CHECK_YAML("p: plain text\n  continued\n# c\nq: 1\n",
		   "{\"p\":\"plain text continued\",\"q\":1}");
}

TEST(infinity)
{
	cJSON *o = parse("a: -.inf\nb: .Inf\n");

	CHECK(o != NULL);
	if (!o)
		return;
	CHECK(isinf(cJSON_GetObjectItem(o, "a")->valuedouble) &&
	      cJSON_GetObjectItem(o, "a")->valuedouble < 0);
	CHECK(isinf(cJSON_GetObjectItem(o, "b")->valuedouble) &&
	      cJSON_GetObjectItem(o, "b")->valuedouble > 0);
	cJSON_Delete(o);
}

TEST(hand_written)
{
	CHECK_YAML("# c\n---\nlit: |\n  a\n    b\n\nkeep: |+\n  k\n\nfold: >-\n"
		   "  x\n  y\n\n  z\n",
		   "{\"lit\":\"a\\n  b\\n\",\"keep\":\"k\\n\\n\",\"fold\":"
		   "\"x y\\nz\"}");
	CHECK_YAML("kv: {\"a\":\"N\", b: [1, 2], c: }  # flow\n",
		   "{\"kv\":{\"a\":\"N\",\"b\":[1,2],\"c\":null}}");
	CHECK_YAML("s:\n  -   name: y   # note\n      v: 1\n",
		   "{\"s\":[{\"name\":\"y\",\"v\":1}]}");
}

TEST(refused)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "a: &x 1\nb: *x\n", "t.yaml:1: YAML: an anchor" },
		{ "a:\n\tb: 1\n", "t.yaml:2: YAML: a tab in the indentation" },
		{ "? [a]\n: 1\n", "t.yaml:1: YAML: a complex key" },
		{ "a: 1\na: 2\n", "t.yaml:2: YAML: a key given twice" },
		{ "a: 1\n---\nb: 2\n", "t.yaml:2: YAML: a second document" },
		{ "a: 'open\n  still\n", "t.yaml:2: YAML: a quoted scalar not "
		  "closed" },
		{ "a:\n  b: 1\n   c: 2\n", "t.yaml:3: YAML: ': ' inside a plain" },
		{ "a:\n  b: 1\n c: 2\n", "t.yaml:3: YAML: bad indentation" },
		{ "a: {b: 1,\n  c: 2}\n", "t.yaml:1: YAML: expected ',' or '}'" },
		{ "a: !!str 1\n", "t.yaml:1: YAML: an anchor, alias or tag" },
		{ "a: \"\\u0000\"\n", "t.yaml:1: YAML: an unknown escape" },
		{ "  a: 1\n", "t.yaml:1: YAML: the document starts indented" },
		{ "", "t.yaml: no YAML document" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char *j = json(bad[i].text);

		if (strncmp(j + 5, bad[i].err, strlen(bad[i].err)))
			fprintf(stderr, "case %zu: %s\n", i, j);
		CHECK(!strncmp(j, "ERR: ", 5) &&
		      !strncmp(j + 5, bad[i].err, strlen(bad[i].err)));
		free(j);
	}
}

static void mark_inf(cJSON *o)
{
	for (cJSON *c = o->child, *next; c; c = next) {
		next = c->next;
		if (cJSON_IsNumber(c) && isinf(c->valuedouble)) {
			cJSON *r = cJSON_CreateString(c->valuedouble > 0 ?
						      "__inf__" : "__-inf__");

			if (cJSON_IsObject(o))
				cJSON_ReplaceItemInObjectCaseSensitive(o,
							c->string, r);
			else
				cJSON_ReplaceItemViaPointer(o, c, r);
		} else
			mark_inf(c);
	}
}

TEST(dump_file)
{
	const char *path = getenv("YAMLSUB_FILE");
	FILE *fp;
	cJSON *o;
	char *s;

	if (!path)
		return;
	fp = fopen(path, "r");
	CHECK(fp != NULL);
	if (!fp)
		return;
	if (yamlsub_parse(&o, fp, path) < 0) {
		printf("ERR %s\n", pc_error_last());
	} else {
		mark_inf(o);
		s = cJSON_PrintUnformatted(o);
		printf("%s\n", s);
		free(s);
		cJSON_Delete(o);
	}
	fclose(fp);
}

TEST_MAIN(CASE(pyyaml_block), CASE(pyyaml_scalars), CASE(infinity),
	  CASE(hand_written),
	  CASE(refused), CASE(dump_file))
