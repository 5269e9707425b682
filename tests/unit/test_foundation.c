/* Unit tests: unit table, canonical workload keys, CSV reader, sha256. */
#include "check.h"

#include "base/units.h"
#include "db/wkey.h"
#include "base/csv.h"
#include "base/sha256.h"
#include "base/util.h"

TEST(units_table)
{
	const struct unit *u = units_lookup("ms");

	CHECK(u && !strcmp(u->dim, "time"));
	CHECK_NEAR(u->factor, 1e-3, 0);
	CHECK_NEAR(units_lookup("nsecond")->factor, 1e-9, 0);
	CHECK_NEAR(units_lookup("KiB")->factor, 1024, 0);
	CHECK_NEAR(units_lookup("KB")->factor, 1000, 0);
	CHECK_NEAR(units_lookup("Kbyte")->factor, 1000, 0);
	CHECK_NEAR(units_lookup("%")->factor, 0.01, 0);
	CHECK_STR(units_lookup("cycles")->dim, "cycles");
	CHECK_STR(units_lookup("tokens/s")->dim, "rate");
	CHECK_STR(units_lookup("mJ")->si, "J");
	CHECK_NEAR(units_lookup("mW")->factor, 1e-3, 0);
	CHECK_NEAR(units_lookup("TFLOP")->factor, 1e12, 0);
	CHECK(units_lookup("Watt") != NULL);	/* case-insensitive, long */
	CHECK(units_lookup("MS") == NULL);	/* short: exact only */
	CHECK(units_lookup("furlongs") == NULL);
	CHECK(units_lookup("") && !strcmp(units_lookup("")->dim, "count"));
}

TEST(wkey_canonical)
{
	struct wkey a, b;
	char *ka, *kb;

	wkey_init(&a);
	wkey_init(&b);
	CHECK_INT(wkey_parse(&a, "llama3-8b/decode/bs=32/seq=2048/bf16"), 0);
	CHECK_INT(wkey_parse(&b, "llama3-8b/BF16/seq_len=2048/batch_size=32.0/"
			     "decode"), 0);
	ka = wkey_format(&a);
	kb = wkey_format(&b);
	CHECK_STR(ka, "llama3-8b/decode/bs=32/seq=2048/bf16");
	CHECK_STR(kb, ka);
	CHECK_STR(wkey_get(&b, "bs"), "32");
	CHECK(wkey_set(&a, "batch", "16") < 0);		/* conflict */
	CHECK_INT(wkey_set(&a, "batch", "32"), 0);	/* same value */
	free(ka);
	free(kb);
	wkey_release(&a);
	wkey_release(&b);
	/* names with slashes (HF model ids) survive a round trip */
	wkey_init(&a);
	CHECK_INT(wkey_parse(&a, "meta-llama/Llama-3-8B/prefill/bs=1"), 0);
	CHECK_STR(a.name, "meta-llama/Llama-3-8B");
	ka = wkey_format(&a);
	CHECK_STR(ka, "meta-llama/Llama-3-8B/prefill/bs=1");
	free(ka);
	wkey_release(&a);
	wkey_init(&a);
	CHECK(wkey_parse(&a, "bs=1/decode") < 0);	/* no name */
	wkey_release(&a);
	/* numbers as "%.0f" of their value writes them (db/wkey.c: plain
	 * integers are kept as they are, the rest parsed and formatted) */
	{
		static const char *const in[][2] = {
			{ "0", "0" }, { "7", "7" }, { " 32 ", "32" },
			{ "32.0", "32" }, { "007", "7" }, { "+5", "5" },
			{ "-0", "-0" }, { "-12", "-12" }, { "1e3", "1000" },
			{ "123456789012345", "123456789012345" },
			{ "1234567890123456", "1234567890123456" },
			{ "2.5", "2.5" }, { "12a", "12a" },
		};

		for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
			char *c = wkey_canon_value("bs", in[i][0]);

			CHECK_STR(c, in[i][1]);
			free(c);
		}
	}
}

static FILE *mem(const char *s)
{
	FILE *fp = tmpfile();

	fputs(s, fp);
	rewind(fp);
	return fp;
}

TEST(csv_reader)
{
	FILE *fp = mem("\xef\xbb\xbf" "a,\"b,c\",\"d \"\"q\"\"\"\r\n"
		       "1,\"multi\nline\",3\n\n4,5\n\"open");
	struct csv c;

	csv_init(&c, fp, "t.csv");
	CHECK_INT(csv_read(&c), 1);
	CHECK_INT(c.nfields, 3);
	CHECK_STR(c.fields[0], "a");
	CHECK_STR(c.fields[1], "b,c");
	CHECK_STR(c.fields[2], "d \"q\"");
	CHECK_INT(csv_read(&c), 1);
	CHECK_INT(c.line, 2);
	CHECK_STR(c.fields[1], "multi\nline");
	CHECK_INT(csv_read(&c), 1);
	CHECK(csv_blank(&c));
	CHECK_INT(c.line, 4);
	CHECK_INT(csv_read(&c), 1);
	CHECK_INT(c.nfields, 2);	/* ragged row */
	CHECK_INT(c.line, 5);
	CHECK(csv_read(&c) < 0);	/* unterminated quote */
	csv_release(&c);
	fclose(fp);

	fp = mem(" Layer, Cycles, Util,\n1, 20, 0.5,\n");
	csv_init(&c, fp, "s.csv");
	c.trim_space = 1;
	CHECK_INT(csv_read(&c), 1);
	CHECK_INT(c.nfields, 4);
	CHECK_INT(csv_col(&c, "Cycles"), 1);
	CHECK_INT(csv_read(&c), 1);
	CHECK_STR(c.fields[1], "20");
	CHECK_STR(c.fields[3], "");
	CHECK_INT(csv_read(&c), 0);
	csv_release(&c);
	fclose(fp);
}

TEST(csv_limits_and_numbers)
{
	FILE *fp = tmpfile();
	struct csv c;
	double v;

	for (int i = 0; i < 5000; i++)
		fputs("xxxxxxxxxx", fp);
	rewind(fp);
	csv_init(&c, fp, "big.csv");
	c.max_record = 4096;
	CHECK(csv_read(&c) < 0);	/* too long: error, not OOM */
	csv_release(&c);
	fclose(fp);
	CHECK_INT(csv_number("50,462,720", &v), 0);
	CHECK_NEAR(v, 50462720, 0);
	CHECK_INT(csv_number("[N/A]", &v), 0);
	CHECK(isnan(v));
	CHECK(csv_number("12abc", &v) < 0);
}

TEST(sha256_vectors)
{
	struct sha256 s;
	char hex[65];

	sha256_init(&s);
	sha256_update(&s, "abc", 3);
	sha256_final_hex(&s, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_init(&s);
	for (int i = 0; i < 1000; i++)	/* crosses block boundaries */
		sha256_update(&s, "a", 1);
	sha256_final_hex(&s, hex);
	CHECK_STR(hex, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST(safe_text)
{
	char *s = util_safe_dup("a\x1b[31mb\n");

	CHECK_STR(s, "a\\x1b[31mb\\n");
	free(s);
	/* C1 CSI encoded (C2 9B) and raw (9B), a stray continuation byte,
	 * an overlong '/' (C0 AF), RLO U+202E (E2 80 AE), LRI U+2066
	 * (E2 81 A6), DEL; UTF-8 text (e-acute, U+2013) stays */
	s = util_safe_dup("x\xc2\x9b" "1m\x9b" "2m\x80\xc0\xaf"
			  "\xe2\x80\xae" "gpj.exe\xe2\x81\xa6" "a\x7f"
			  "\xc3\xa9\xe2\x80\x93");
	CHECK_STR(s, "x\\x9b1m\\x9b2m\\x80\\xc0\\xaf\\u202egpj.exe\\u2066a"
		  "\\x7f\xc3\xa9\xe2\x80\x93");
	free(s);
	/* the neighbours of the bidi ranges are ordinary text */
	s = util_safe_dup("\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xaa");
	CHECK_STR(s, "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xaa");
	free(s);
}

/* xgrow, the readers' growth rule (db/db.h): room for 16, then doubling,
 * only when the array is full; what was stored stays. */
TEST(xgrow_doubles)
{
	int *v = NULL;
	size_t cap = 0, caps[8] = { 0 }, ncaps = 0;

	for (size_t len = 0; len < 100; len++) {
		size_t before = cap;

		v = xgrow(v, &cap, len, sizeof(*v));
		if (cap != before && ncaps < 8)
			caps[ncaps++] = cap;
		CHECK(len < cap);
		v[len] = (int)len * 3;
	}
	/* 100 elements: 16, 32, 64, 128 and no more */
	CHECK_INT(ncaps, 4);
	CHECK_INT(caps[0], 16);
	CHECK_INT(caps[3], 128);
	CHECK_INT(v[0], 0);
	CHECK_INT(v[99], 297);
	free(v);
}

TEST_MAIN(CASE(units_table), CASE(wkey_canonical), CASE(csv_reader),
	  CASE(csv_limits_and_numbers), CASE(sha256_vectors), CASE(safe_text),
	  CASE(xgrow_doubles))
