/* Unit tests: recorded reviews and run provenance (db/review, db/runinfo). */
#include "check.h"

#include <unistd.h>

#include "db/db.h"
#include "db/review.h"
#include "db/runinfo.h"
#include "base/error.h"
#include "src/import/import.h"
#include "base/util.h"


static struct db *open_tmp(const char *name)
{
	struct db *db = NULL;
	char *path;

	path = check_tmp_path(name);

	CHECK_INT(db_open(&db, path, DB_CREATE), 0);
	free(path);
	return db;
}

static struct review_item item(const char *w, const char *op, double e)
{
	struct review_item it = { .workload = (char *)w, .op = (char *)op,
		.metric = (char *)"time", .model = 1 + e, .ref = 1, .err = e };

	return it;
}

TEST(review_roundtrip)
{
	struct db *db = open_tmp("r.db");
	struct review r = { .id = 0, .created_at = NULL, .author = NULL,
		.model_source = "sim", .model_version = "1.0",
		.ref_source = "lab", .ref_version = "A", .runs = "[1,2]",
		.limit = 0.1 }, last;
	struct review_item a[] = { item("w2", "gemm", 0.3),
		item("w1", "attn", -0.2) };
	struct review_item *it = NULL;
	size_t n = 0;
	int64_t id1 = 0, id2 = 0;
	long cnt = -1;

	CHECK_INT(db_review_last(db, "sim", "lab", &last, &it, &n),
		  PC_ENOTFOUND);
	CHECK_INT(db_review_add(db, &r, a, 2, &id1), 0);
	r.model_version = "1.1";
	r.created_at = "2026-01-08T10:00:00Z";
	CHECK_INT(db_review_add(db, &r, a, 1, &id2), 0);
	CHECK(id2 > id1);
	CHECK_INT(db_review_last(db, "sim", "lab", &last, &it, &n), 0);
	CHECK_INT(last.id, id2);
	CHECK_STR(last.model_version, "1.1");
	CHECK_STR(last.created_at, "2026-01-08T10:00:00Z");
	CHECK_STR(last.runs, "[1,2]");
	CHECK_NEAR(last.limit, 0.1, 0);
	CHECK_INT(n, 1);
	CHECK_STR(it[0].workload, "w2");
	CHECK_NEAR(it[0].err, 0.3, 0);
	db_review_release(&last);
	db_review_items_free(it, n);
	CHECK_INT(db_review_count(db, "sim", "lab", &cnt), 0);
	CHECK_INT(cnt, 2);
	CHECK_INT(db_review_count(db, "sim", "other", &cnt), 0);
	CHECK_INT(cnt, 0);
	/* a duplicate key rolls the whole review back */
	a[1] = a[0];
	CHECK_INT(db_review_add(db, &r, a, 2, NULL), PC_EINVALID);
	CHECK(strstr(pc_error_last(), "twice") != NULL);
	CHECK_INT(db_review_count(db, "sim", "lab", &cnt), 0);
	CHECK_INT(cnt, 2);
	db_close(db);
}

TEST(runinfo)
{
	struct db *db = open_tmp("p.db");
	struct import_opts o = { .source = "lab", .kind = "silicon",
		.version = "A", .clock_hz = NAN };
	struct import_result res;
	struct runinfo *ri = NULL;
	char *csv = check_tmp_path("lab.csv");
	FILE *fp = fopen(csv, "w");
	int64_t ids[2];

	fputs("workload,op,metric,value,unit\nw1,e2e,time,2,ms\n", fp);
	fclose(fp);
	CHECK_INT(import_file(db, csv, &o, &res), 0);
	ids[0] = res.run_id;
	CHECK_INT(db_runinfo_get(db, ids, 1, &ri), 0);
	CHECK_STR(ri[0].source, "lab");
	CHECK_STR(ri[0].kind, "silicon");
	CHECK_STR(ri[0].version, "A");
	CHECK(strstr(ri[0].file_name, "lab.csv") != NULL);
	CHECK_INT(strlen(ri[0].sha256), 64);
	CHECK_INT(ri[0].n_results, 1);
	CHECK(ri[0].imported_at && strlen(ri[0].imported_at) >= 19);
	db_runinfo_free(ri, 1);
	ids[1] = 999;
	CHECK_INT(db_runinfo_get(db, ids, 2, &ri), PC_ENOTFOUND);
	CHECK(strstr(pc_error_last(), "999") != NULL);
	free(csv);
	db_close(db);
}

TEST_MAIN(CASE(review_roundtrip), CASE(runinfo))
