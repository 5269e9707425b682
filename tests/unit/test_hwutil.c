/* Unit tests: hardware importer helpers (header units, trapezoid series,
 * line reader, JSON document streams, ncu names) and kernel mapping. */
#include "check.h"

#include <cjson/cJSON.h>

#include "importers/hwutil.h"
#include "importers/ncu.h"
#include "base/error.h"
#include "base/units.h"
#include "src/import/kmap.h"

TEST(split_unit)
{
	char n[64], u[16];

	hwutil_split_unit(" Avg (ns) ", n, sizeof(n), u, sizeof(u));
	CHECK_STR(n, "Avg");
	CHECK_STR(u, "ns");
	hwutil_split_unit("power.draw [W]", n, sizeof(n), u, sizeof(u));
	CHECK_STR(n, "power.draw");
	CHECK_STR(u, "W");
	hwutil_split_unit("Average", n, sizeof(n), u, sizeof(u));
	CHECK_STR(n, "Average");
	CHECK_STR(u, "");
	hwutil_split_unit("Time(%)", n, sizeof(n), u, sizeof(u));
	CHECK_STR(n, "Time");
	CHECK_STR(u, "%");
}

TEST(series_trapezoid)
{
	struct hwutil_series s;

	/* 100, 200, 300 W one second apart: 150 + 250 = 400 J */
	hwutil_series_init(&s);
	hwutil_series_add(&s, 10, 100);
	hwutil_series_add(&s, 11, 200);
	hwutil_series_add(&s, 12, 300);
	CHECK_NEAR(s.integral, 400, 1e-12);
	CHECK_NEAR(hwutil_series_mean(&s), 200, 1e-12);
	CHECK_NEAR(hwutil_series_stddev(&s), 100, 1e-12);
	CHECK_NEAR(s.max, 300, 0);
	CHECK_INT(s.nint, 2);
	/* uneven steps: (1+3)/2*0.5 + (3+3)/2*1.5 = 1 + 4.5 */
	hwutil_series_init(&s);
	hwutil_series_add(&s, 0, 1);
	hwutil_series_add(&s, 0.5, 3);
	hwutil_series_add(&s, 2, 3);
	CHECK_NEAR(s.integral, 5.5, 1e-12);
}

static int count_doc(struct cJSON *doc, long line, void *ctx)
{
	long *lines = ctx;

	lines[lines[0]++ + 1] = line;
	return cJSON_IsObject(doc) ? 0 : -1;
}

TEST(json_docs)
{
	const char *text = "\xef\xbb\xbf{\"a\": Infinity, \"b\": NaN}\n"
			   "{\"s\": \"Infinity NaN\"}\n\n{\"c\": -Infinity}";
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	long lines[8] = { 0 };

	CHECK_INT(hwutil_json_docs(fp, "t.jsonl", count_doc, lines), 3);
	CHECK_INT(lines[1], 1);
	CHECK_INT(lines[2], 2);
	CHECK_INT(lines[3], 4);
	fclose(fp);
	fp = fmemopen((void *)"{\"a\": 1}\n{\"b\": ", 15, "r");
	lines[0] = 0;
	CHECK(hwutil_json_docs(fp, "t.jsonl", count_doc, lines) < 0);
	CHECK(strstr(pc_error_last(), "t.jsonl:2:") != NULL);
	fclose(fp);
	/* whitespace only: no document is an error every importer shares */
	fp = fmemopen((void *)" \n\n ", 4, "r");
	lines[0] = 0;
	CHECK(hwutil_json_docs(fp, "e.json", count_doc, lines) < 0);
	CHECK(strstr(pc_error_last(), "e.json: no JSON document") != NULL);
	fclose(fp);
}

TEST(ncu_names)
{
	char b[64];
	double f;

	CHECK_STR(ncu_metric("Duration", b, sizeof(b)), "time");
	CHECK_STR(ncu_metric("gpu__time_duration.sum", b, sizeof(b)), "time");
	CHECK_STR(ncu_metric("Elapsed Cycles", b, sizeof(b)), "cycles");
	CHECK_STR(ncu_metric("L1/TEX Cache Throughput", b, sizeof(b)),
		  "l1_tex_cache_throughput");
	CHECK_STR(ncu_unit("nsecond", &f), "nsecond");
	CHECK_STR(ncu_unit("cycle/nsecond", &f), "Hz");
	CHECK_NEAR(f, 1e9, 0);
	/* units without a dimension keep their name (issue 16) */
	CHECK_STR(ncu_unit("register/thread", &f), "register/thread");
	CHECK_STR(ncu_unit("Kbyte/block", &f), "Kbyte/block");
	CHECK_NEAR(f, 1, 0);	/* the writer scales by the unit */
	CHECK_STR(units_resolve("Kbyte/block")->si, "B/block");
	CHECK_NEAR(units_resolve("Kbyte/block")->factor, 1000, 0);
	CHECK_STR(units_resolve("byte/block")->si, "B/block");
	CHECK_STR(ncu_unit("warp", &f), "warp");
	CHECK_STR(units_resolve("warp")->dim, "count");
	CHECK(units_resolve("Kbyte/block/x") == NULL);
	CHECK(units_resolve("3x/y") == NULL);
}

TEST(kmap_rules)
{
	struct kmap *m = NULL;
	char path[512];
	const char *fx = check_fixtures();

	CHECK_INT(kmap_parse(&m, "[{\"match\": \"GEMM\", \"op\": \"gemm\", "
			     "\"icase\": true}, {\"match\": \"^x\", \"op\": "
			     "\"x\"}]", "r.json"), 0);
	CHECK_STR(kmap_lookup(m, "sm90_xmma_gemm_bf16"), "gemm");
	CHECK(kmap_lookup(m, "ax") == NULL);
	kmap_free(m);
	CHECK(kmap_parse(&m, "[{\"match\": \"a\", \"op\": \"b\", \"icase\": 1}]",
			 "r.json") < 0);
	/* the shipped CUDA rules: attention before GEMM, norms before
	 * elementwise */
	snprintf(path, sizeof(path), "%s/map/cuda_kernels.json",
		 fx);
	CHECK_INT(kmap_load(&m, path), 0);
	CHECK_STR(kmap_lookup(m, "void flash::flash_fwd_kernel<Flash_fwd_"
			      "kernel_traits<128, cutlass::bfloat16_t>>"),
		  "flash_attn");
	CHECK_STR(kmap_lookup(m, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"),
		  "allreduce");
	CHECK_STR(kmap_lookup(m, "ncclDevKernel_AllGather_RING_LL"),
		  "nccl_other");
	CHECK_STR(kmap_lookup(m, "cutlass3x_sm100_tensorop_gemm_bf16"), "gemm");
	CHECK_STR(kmap_lookup(m, "nvjet_tst_128x128_64x6_1x2_h_bz_coopA_TNT"),
		  "gemm");
	CHECK_STR(kmap_lookup(m, "triton_red_fused_add_mean_mul_pow_rsqrt_1"),
		  "rmsnorm");
	CHECK_STR(kmap_lookup(m, "void at::native::vectorized_layer_norm_"
			      "kernel<c10::BFloat16, float>"), "layernorm");
	CHECK_STR(kmap_lookup(m, "softmax_warp_forward"), "softmax");
	CHECK_STR(kmap_lookup(m, "triton_poi_fused_mul_silu_2"), "elementwise");
	CHECK(kmap_lookup(m, "my_custom_kernel") == NULL);
	kmap_free(m);
}

TEST_MAIN(CASE(split_unit), CASE(series_trapezoid), CASE(json_docs),
	  CASE(ncu_names), CASE(kmap_rules))
