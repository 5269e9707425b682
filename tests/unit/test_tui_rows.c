/* The discrepancy list's logic without a terminal: filter, sort, search. */
#include "check.h"

#include <ctype.h>

#include "db/annot.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "tui/rows.h"

#define NP 6

static struct pidx_key keys[NP];
static struct pidx_val vals[NP];
static unsigned char status[NP], category[NP];
static struct rows_src src;
static const char *names[PIDX_NAME_PARTS][8];	/* [part][id] */

static const char *name_of(void *arg, enum pidx_name_part part, int64_t id)
{
	(void)arg;
	return id >= 0 && id < 8 && names[part][id] ? names[part][id] : "";
}

/* The same names as one lowercased buffer a part (pidx_names_lower's
 * shape), so filters can take the bulk substring path. */
static char lower_buf[PIDX_NAME_PARTS][512];
static uint32_t lower_off[PIDX_NAME_PARTS][9];

static int names_lower(void *arg, enum pidx_name_part part,
		       const char **chars, const uint32_t **off,
		       uint64_t *count)
{
	size_t at = 0;

	(void)arg;
	for (int id = 0; id < 8; id++) {
		const char *v = name_of(NULL, part, id);

		lower_off[part][id] = (uint32_t)at;
		for (size_t i = 0; i <= strlen(v); i++)
			lower_buf[part][at++] = (char)tolower((unsigned char)v[i]);
	}
	lower_off[part][8] = (uint32_t)at;
	*chars = lower_buf[part];
	*off = lower_off[part];
	*count = 8;
	return 0;
}

static void setup(void)
{
	static const struct {
		const char *w, *op, *cls, *m;
		int64_t wid, oid, mid;
		double model, ref;
		unsigned flags;
		unsigned char st;
	} d[NP] = {
		/* sorted by |err| descending, as the core delivers */
		{ "llama/decode", "gemm_qkv", "gemm", "time", 1, 1, 1, 0.6, 1.0,
		  0, 0 },
		{ "llama/prefill", "flash_attn", "attention", "time", 2, 2, 1,
		  1.3, 1.0, CORR_SOL_VIOLATION, 3 },
		{ "mixtral/decode", "e2e", "e2e", "ttft", 3, 3, 2, 0.85, 1.0, 0,
		  1 },
		{ "llama/decode", "gemm_mlp", "gemm", "time", 1, 4, 1, 1.08, 1.0,
		  0, 0 },
		{ "Mixtral/prefill", "gemm_moe", "gemm", "time", 4, 5, 1, 0.95,
		  1.0, CORR_WITHIN_NOISE, 2 },
		{ "llama/prefill", "e2e", "e2e", "ttft", 2, 3, 2, 1.01, 1.0, 0,
		  0 },
	};

	for (int i = 0; i < NP; i++) {
		names[PIDX_NAME_WORKLOAD][d[i].wid] = d[i].w;
		names[PIDX_NAME_OP][d[i].oid] = d[i].op;
		names[PIDX_NAME_OP_CLASS][d[i].oid] = d[i].cls;
		names[PIDX_NAME_METRIC][d[i].mid] = d[i].m;
		keys[i] = (struct pidx_key){ .w = (int32_t)d[i].wid,
			.o = (int32_t)d[i].oid, .m = (int32_t)d[i].mid,
			.flags = d[i].flags,
			.err = (d[i].model - d[i].ref) / d[i].ref };
		vals[i] = (struct pidx_val){ .model = d[i].model,
			.ref = d[i].ref };
		status[i] = d[i].st;
		category[i] = d[i].st ? 1 : 0;
	}
	src.keys = keys;
	src.vals = vals;
	src.name = name_of;
	src.order = NULL;
	src.n = NP;
	src.status = status;
	src.category = category;
	src.max_id[0] = 4;
	src.max_id[1] = 5;
	src.max_id[2] = 2;
}

/* The visible rows as point indices "0,3,..." for compact checks. */
static const char *order(const struct rows *r)
{
	static char buf[64];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->n; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%u",
					 i ? "," : "", r->idx[i]);
	return buf;
}

/* Filter twice (the second pass answers from the memos): both agree,
 * and rows_filter_match agrees with rows_filter_select row by row; and once more
 * with the bulk substring path (names_lower), which must agree too. */
static const char *filtered_one(const char *text);

static const char *filtered(const char *text)
{
	static char plain[64];
	const char *bulk;

	src.names_lower = NULL;
	snprintf(plain, sizeof(plain), "%s", filtered_one(text));
	src.names_lower = names_lower;
	bulk = filtered_one(text);
	src.names_lower = NULL;
	return strcmp(plain, bulk) ? "bulk substring path disagrees" : plain;
}

static const char *filtered_one(const char *text)
{
	static char out[64], again[64];
	struct filter f;
	struct rows r;
	size_t k = 0, rn;

	if (rows_filter_parse(&f, text) < 0)
		return "error";
	rows_init(&r, &src);
	rows_apply(&r, &f);
	snprintf(out, sizeof(out), "%s", order(&r));
	rows_apply(&r, &f);	/* memoised the second time */
	snprintf(again, sizeof(again), "%s", order(&r));
	for (size_t i = 0; i < NP; i++)
		if (rows_filter_match(&f, &src, i) &&
		    (k >= r.n || r.idx[k++] != i))
			k = NP + 1;
	rn = r.n;
	rows_release(&r);
	rows_filter_release(&f);
	if (k != rn)
		return "rows_filter_match disagrees";
	return strcmp(out, again) ? "memoised pass disagrees" : out;
}

TEST(filter_fields)
{
	setup();
	CHECK_STR(filtered(""), "0,1,2,3,4,5");
	CHECK_STR(filtered("metric=ttft"), "2,5");
	CHECK_STR(filtered("op~GEMM"), "0,3,4");
	CHECK_STR(filtered("op~gemm metric=time err>0"), "3");
	CHECK_STR(filtered("class=gemm"), "0,3,4");
	CHECK_STR(filtered("op=gemm_*"), "0,3,4");
	CHECK_STR(filtered("op!=e2e"), "0,1,3,4");
	CHECK_STR(filtered("workload!~llama"), "2,4");
	CHECK_STR(filtered("err>0.1"), "1");
	CHECK_STR(filtered("err<-10%"), "0,2");
	CHECK_STR(filtered("|err|>=15%"), "0,1,2");
	CHECK_STR(filtered("flag=sol"), "1");
	CHECK_STR(filtered("flag!=noise"), "0,1,2,3,5");
	CHECK_STR(filtered("prefill"), "1,4,5");
	CHECK_STR(filtered("model>1 ref=1"), "1,3,5");
	CHECK_STR(filtered("err>0.05"), "1,3");
}

TEST(filter_status)
{
	setup();
	/* status 1 = open, 2 = investigating, 3 = explained; none is open */
	CHECK_STR(filtered("status=open"), "0,2,3,5");
	CHECK_STR(filtered("status=none"), "0,3,5");
	CHECK_STR(filtered("status=explained"), "1");
	CHECK_STR(filtered("status!=open"), "1,4");
	CHECK_STR(filtered("category=modeling-error"), "1,2,4");
}

TEST(filter_errors)
{
	struct filter f = { 0 };

	setup();
	CHECK_INT(rows_filter_parse(&f, "speed>3"), PC_EINVALID);
	CHECK(strstr(pc_error_last(), "unknown field") != NULL);
	CHECK_INT(rows_filter_parse(&f, "err>abc"), PC_EINVALID);
	CHECK(strstr(pc_error_last(), "'err>abc'") != NULL);
	CHECK_INT(rows_filter_parse(&f, "op>3"), PC_EINVALID);
	CHECK_INT(rows_filter_parse(&f, "err~1"), PC_EINVALID);
	CHECK_INT(rows_filter_parse(&f, "flag=fast"), PC_EINVALID);
	CHECK_INT(rows_filter_parse(&f, "metric="), 0);	/* matches nothing */
	CHECK_INT((long)f.n, 1);
	rows_filter_release(&f);
	CHECK_STR(filtered("metric="), "");
}

TEST(sort_columns)
{
	struct rows r;

	setup();
	rows_init(&r, &src);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "0,1,2,3,4,5");
	rows_sort(&r, RC_WORKLOAD, 0);
	rows_apply(&r, NULL);
	/* strcmp order; ties keep |err| order */
	CHECK_STR(order(&r), "4,0,3,1,5,2");
	rows_sort(&r, RC_WORKLOAD, 1);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "2,1,5,0,3,4");
	rows_sort(&r, RC_MODEL, 0);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "0,2,4,5,3,1");
	rows_sort(&r, RC_ERR, 0);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "5,4,3,2,1,0");
	rows_sort(&r, RC_STATUS, 1);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "1,4,2,0,3,5");
	rows_sort(&r, RC_METRIC, 0);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "0,1,3,4,2,5");
	rows_release(&r);
}

/* An index's cached ascending order for the workload column, by hand:
 * strcmp order with ties in index order, values starting at 0, 1, 3, 5. */
static int given_calls;

static int given_order(void *arg, int col, const uint32_t **perm,
		       const unsigned char **starts)
{
	static const uint32_t asc[NP] = { 4, 0, 3, 1, 5, 2 };
	static const unsigned char bits[1] = { 0x2b };

	(void)arg;
	if (col != RC_WORKLOAD)
		return -1;
	given_calls++;
	*perm = asc;
	*starts = bits;
	return 0;
}

TEST(sort_flags_and_given_orders)
{
	struct rows r;

	setup();
	rows_init(&r, &src);
	/* flags: a counting sort, stable both ways */
	rows_sort(&r, RC_FLAGS, 0);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "0,2,3,5,4,1");
	rows_sort(&r, RC_FLAGS, 1);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "1,4,0,2,3,5");
	rows_release(&r);
	/* a borrowed order: descending rebuilt from the starts, the same
	 * as the computed one ("2,1,5,0,3,4" in sort_columns) */
	src.order = given_order;
	given_calls = 0;
	rows_init(&r, &src);
	rows_sort(&r, RC_WORKLOAD, 1);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "2,1,5,0,3,4");
	rows_sort(&r, RC_WORKLOAD, 0);
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "4,0,3,1,5,2");
	CHECK_INT(given_calls > 0, 1);
	rows_sort(&r, RC_MODEL, 0);	/* not given: computed */
	rows_apply(&r, NULL);
	CHECK_STR(order(&r), "0,2,4,5,3,1");
	rows_release(&r);
	src.order = NULL;
}

TEST(sort_then_filter)
{
	struct rows r;
	struct filter f;

	setup();
	CHECK_INT(rows_filter_parse(&f, "op~gemm"), 0);
	rows_init(&r, &src);
	rows_sort(&r, RC_OP, 0);
	rows_apply(&r, &f);
	CHECK_STR(order(&r), "3,4,0");
	rows_release(&r);
	rows_filter_release(&f);
}

TEST(search)
{
	struct rows r;

	setup();
	rows_init(&r, &src);
	rows_apply(&r, NULL);
	CHECK_INT(rows_search(&r, "mixtral", 0, 1), 2);
	CHECK_INT(rows_search(&r, "mixtral", 2, 1), 4);	/* case folds */
	CHECK_INT(rows_search(&r, "mixtral", 4, 1), 2);	/* wraps */
	CHECK_INT(rows_search(&r, "mixtral", 2, -1), 4);	/* backwards */
	CHECK_INT(rows_search(&r, "ttft", 5, 1), 2);
	CHECK_INT(rows_search(&r, "nothing", 0, 1), -1);
	CHECK_INT(rows_find(&r, 2, 3, 2), 5);
	CHECK_INT(rows_find(&r, 9, 9, 9), -1);
	rows_release(&r);
}

TEST(contains)
{
	CHECK(rows_contains("Flash_Attn", "attn"));
	CHECK(rows_contains("abc", ""));
	CHECK(!rows_contains("abc", "abcd"));
}

TEST_MAIN(CASE(filter_fields), CASE(filter_status), CASE(filter_errors),
	  CASE(sort_columns), CASE(sort_flags_and_given_orders),
	  CASE(sort_then_filter), CASE(search),
	  CASE(contains))
