/* Unit tests for the service issue: watch manifests and the fixes fuzzing
 * led to (kmap regex size limit, wkey blank segments). */
#include "check.h"

#include "db/wkey.h"
#include "base/error.h"
#include "src/import/kmap.h"
#include "src/watch/watch.h"

TEST(manifest_ok)
{
	struct watch_manifest m;
	const char *t = "{\"source\": \"lab\", \"kind\": \"silicon\", "
		"\"clock_mhz\": 1500, \"params\": {\"tp\": 2, \"x\": \"y\"}, "
		"\"opts\": {\"topology\": \"t.csv\"}, \"comment\": \"c\"}";

	CHECK_INT(watch_manifest_parse(&m, t, strlen(t), "m.json"), 0);
	CHECK_STR(m.source, "lab");
	CHECK_STR(m.kind, "silicon");
	CHECK_NEAR(m.clock_hz, 1.5e9, 0);
	CHECK_STR(m.params[0], "tp=2");
	CHECK_STR(m.params[1], "x=y");
	CHECK(m.params[2] == NULL);
	CHECK_STR(m.opts[0], "topology=t.csv");
	CHECK(m.version == NULL);
	CHECK_INT(m.size, -1);
	CHECK(m.sha256 == NULL);
	watch_manifest_release(&m);
	t = "{\"source\": \"lab\", \"size\": 1234, \"sha256\": "
	    "\"E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855\"}";
	CHECK_INT(watch_manifest_parse(&m, t, strlen(t), "m.json"), 0);
	CHECK_INT(m.size, 1234);
	CHECK_STR(m.sha256, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	watch_manifest_release(&m);
}

TEST(manifest_bad)
{
	static const char *const bad[] = {
		"{\"kind\": \"silicon\"}",		/* no source */
		"{\"source\": \"\"}",
		"{\"source\": 3}",
		"{\"source\": \"a\", \"colour\": 1}",
		"{\"source\": \"a\", \"clock_mhz\": -5}",
		"{\"source\": \"a\", \"clock_mhz\": \"fast\"}",
		"{\"source\": \"a\", \"params\": [1]}",
		"{\"source\": \"a\", \"params\": {\"k=v\": 1}}",
		"{\"source\": \"a\", \"params\": {\"k\": {}}}",
		"{\"source\": \"a\", \"params\": {}, \"params\": {}}",
		"[\"source\"]",
		"{\"source\": \"a\"",
		"",
		"{\"source\": \"a\", \"size\": -1}",
		"{\"source\": \"a\", \"size\": 1.5}",
		"{\"source\": \"a\", \"size\": \"12\"}",
		"{\"source\": \"a\", \"sha256\": \"abc\"}",
		"{\"source\": \"a\", \"sha256\": \"%064d\"}",
	};
	struct watch_manifest m;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = watch_manifest_parse(&m, bad[i], strlen(bad[i]),
					      "m.json");

		CHECK_INT(rc, PC_EINVALID);
		CHECK(strstr(pc_error_last(), "m.json") != NULL);
	}
	/* a NUL inside is refused, not silently truncated */
	CHECK_INT(watch_manifest_parse(&m, "{\"source\": \"a\"}\0x", 17,
				       "m.json"), PC_EINVALID);
}

TEST(kmap_regex_limit)
{
	static const char *const big[] = {
		"((a{99}){99}){99}",
		"a{1000}{1000}",
		("((((((((((((((((((((((((((((((((((((((((a+)+)+)+)+)+)+)+)+)+)"
		 "+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+"),
		"em++++++++++++++++++++++++++++++++++++++++++++++++++|xmma",
		"eA\n\n++++++O++++++;+++*+++++++++++|xmma",
		"a+*",
	};
	struct kmap *m = NULL;
	char json[512];

	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		snprintf(json, sizeof(json), "[{\"match\": \"%s\", \"op\": "
			 "\"x\"}]", big[i]);
		CHECK_INT(kmap_parse(&m, json, "r.json"), PC_EINVALID);
		CHECK(strstr(pc_error_last(), "too large") != NULL);
	}
	CHECK_INT(kmap_parse(&m, "[{\"match\": \"(sm90|sm80)_xmma_gemm_"
		  "[a-z0-9]+_[[:digit:]]{1,4}x[0-9]{3}.*\", \"op\": \"gemm\"},"
		  " {\"match\": \"^flash(_fwd)?\", \"op\": \"attn\"}]",
		  "r.json"), 0);
	CHECK_STR(kmap_lookup(m, "sm90_xmma_gemm_bf16_128x256_k"), "gemm");
	CHECK_STR(kmap_lookup(m, "flash_fwd_kernel"), "attn");
	CHECK(kmap_lookup(m, "other") == NULL);
	kmap_free(m);
}

TEST(wkey_blank_segments)
{
	struct wkey k, k2;
	char *f, *f2;

	wkey_init(&k);
	wkey_init(&k2);
	CHECK_INT(wkey_parse(&k, "x/ \v/bs=1"), 0);
	f = wkey_format(&k);
	CHECK_STR(f, "x/bs=1");
	CHECK_INT(wkey_parse(&k2, f), 0);
	f2 = wkey_format(&k2);
	CHECK_STR(f2, f);
	wkey_release(&k2);
	CHECK_INT(wkey_parse(&k2, " / "), PC_EINVALID);	/* no name */
	wkey_release(&k2);
	/* names that would not read back (found by fuzz_wkey) */
	CHECK_INT(wkey_parse(&k2, "model==le"), PC_EINVALID);
	wkey_release(&k2);
	CHECK_INT(wkey_set(&k2, "name", "llama/bf16"), PC_EINVALID);
	CHECK_INT(wkey_set(&k2, "name", " a// b /"), 0);
	CHECK_STR(k2.name, "a/b");
	free(f);
	free(f2);
	wkey_release(&k);
	wkey_release(&k2);
}

TEST_MAIN(CASE(manifest_ok), CASE(manifest_bad), CASE(kmap_regex_limit),
	  CASE(wkey_blank_segments))
