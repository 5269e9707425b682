/*
 * Content detection over every fixture of every importer: each file is
 * claimed by exactly the importer its rule names (first matching rule
 * wins; "-" = no importer may claim it, "*" = not checked: malformed
 * files, inputs of commands other than import). A fixture that no rule
 * covers fails the test, so a new fixture must say what it is, and a new
 * probe that steals an older format's file fails here.
 * PRINT_DETECT=1 prints what each file is detected as.
 */
#include <fnmatch.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "importers/importer.h"
#include "base/error.h"

static const struct {
	const char *glob, *format;
} rules[] = {
	{ "*/bad_*", "*" },
	{ "*README.md", "*" }, { "*LICENSE*", "*" },
	{ "corr/*", "perfcorr-csv" },
	{ "sens/*.csv", "perfcorr-csv" }, { "sens/*", "*" },
	{ "slo/*.csv", "perfcorr-csv" }, { "slo/*", "*" },
	{ "tiers/*.csv", "perfcorr-csv" }, { "tiers/*", "*" },
	{ "calib/*.csv", "perfcorr-csv" }, { "calib/*", "*" },
	{ "demo/*", "*" }, { "gate/*.csv", "perfcorr-csv" }, { "gate/*", "*" },
	{ "map/*", "*" }, { "policy/*", "*" }, { "roofline/*", "*" },
	{ "report/*.csv", "perfcorr-csv" }, { "report/*", "*" },
	{ "tui/*", "perfcorr-csv" }, { "native/ok.csv", "perfcorr-csv" },
	{ "native/ok.json", "perfcorr-json" }, { "native/*", "*" },
	{ "emulation/emu.csv", "perfcorr-csv" }, { "emulation/*", "-" },
	/* measured hardware */
	{ "samples/nsys_*", "nsys-kern-sum" },
	{ "hw/nsys/kern_sum_*", "nsys-kern-sum" },
	{ "hw/nsys/stats_two_reports.csv", "nsys-kern-sum" },
	{ "hw/nsys/gpu_trace_*", "nsys-gpu-trace" },
	{ "hw/nsys/gputrace_*", "nsys-gpu-trace" },
	{ "hw/nvprof/gpu_trace_*", "nvprof-gpu-trace" },
	{ "samples/ncu_details.csv", "ncu-details" },
	{ "hw/ncu/details_*", "ncu-details" },
	{ "hw/ncu/summary_per_kernel.csv", "ncu-details" },
	{ "samples/ncu_raw.csv", "ncu-raw" }, { "hw/ncu/raw_*", "ncu-raw" },
	{ "samples/vllm_bench_stdout.txt", "vllm-stdout" },
	{ "hw/vllm/stdout_*", "vllm-stdout" },
	{ "hw/vllm/*.py", "-" },
	{ "samples/vllm_*", "vllm" }, { "hw/vllm/*", "vllm" },
	{ "hw/power/bench_for_energy.json", "vllm" },
	{ "hw/sglang/one_batch_*", "sglang-one-batch" },
	{ "hw/sglang/*.py", "*" },	/* llm-analysis claims it */
	{ "samples/sglang_*", "sglang" }, { "hw/sglang/*", "sglang" },
	{ "samples/nvidia_smi_*", "nvidia-smi" },
	{ "hw/power/smi_noheader*", "*" },
	{ "hw/power/smi_*", "nvidia-smi" },
	{ "samples/dcgmi_dmon.txt", "dcgm-dmon" },
	{ "hw/power/dmon_*", "dcgm-dmon" },
	{ "samples/mlperf_log_summary.txt", "mlperf-summary" },
	{ "hw/mlperf/summary_*", "mlperf-summary" },
	{ "samples/mlperf_log_detail.txt", "mlperf-detail" },
	{ "hw/mlperf/detail_*", "mlperf-detail" },
	/* models, simulators, RTL */
	{ "samples/llm_viewer_*", "llm-viewer" },
	{ "models/Llama-2-7b-hf_prefill.csv", "llm-viewer" },
	{ "samples/llm_analysis_*", "llm-analysis" },
	{ "models/llama2-13b-tp2-summary.json", "llm-analysis" },
	{ "samples/genz_*", "genz" }, { "models/genz_*", "genz" },
	{ "samples/llmcompass/*", "llmcompass" },
	{ "models/matmul_sim_4096.csv", "llmcompass" },
	{ "models/transformer_*", "llmcompass" },
	{ "samples/scalesim_*", "scalesim" },
	{ "sim/scalesim_*", "scalesim" }, { "sim/alexnet_cycles.csv", "scalesim" },
	{ "sim/gemm_topology.csv", "*" },
	{ "samples/gpgpusim_*", "gpgpusim" }, { "sim/gpgpusim_*", "gpgpusim" },
	{ "sim/accelsim_get_stats*", "accelsim-stats" },
	{ "samples/gem5_*", "gem5" }, { "sim/gem5_*", "gem5" },
	{ "samples/timeloop-*", "timeloop" }, { "sim/timeloop-*", "timeloop" },
	{ "samples/cocotb_*", "cocotb" }, { "rtl/cocotb_*", "cocotb" },
	{ "samples/verilator_*", "verilator" },
	{ "rtl/verilator_*", "verilator" }, { "rtl/vcs_*", "vcs" },
	{ "samples/chipyard_*", "chipyard" },
	{ "samples/gemmini_*", "chipyard" }, { "rtl/chipyard_*", "chipyard" },
	{ "rtl/gemmini_*", "chipyard" },
	{ "rtl/*.json", "*" }, { "rtl/tb_inhouse.log", "-" },
	/* serving and profiling stacks */
	{ "stacks/trtllm_bench_*.json", "trtllm-bench-json" },
	{ "stacks/trtllm_bench_*", "trtllm-bench" },
	{ "stacks/gptManagerBenchmark_*", "trtllm-legacy-csv" },
	{ "stacks/licensed/triton-server-*", "perf-analyzer-csv" },
	{ "stacks/perf_analyzer_*", "perf-analyzer-csv" },
	{ "stacks/licensed/*analyze_export*", "genai-perf-analyze" },
	{ "stacks/licensed/*profile_export_genai_perf.csv",
	  "genai-perf-csv" },
	{ "stacks/genai-perf/*.json", "genai-perf-json" },
	{ "stacks/aiperf/profile_export_aiperf*.json", "aiperf-json" },
	{ "stacks/aiperf/v2026/profile_export_aiperf.json", "aiperf-json" },
	{ "stacks/aiperf/v2026/server_metrics_export.json",
	  "aiperf-server-metrics" },
	{ "stacks/aiperf/*.py", "-" },
	{ "stacks/aiperf/profile_export_aiperf*.csv", "aiperf-csv" },
	{ "stacks/aiperf/profile_export.jsonl", "aiperf-jsonl" },
	{ "stacks/aiperf/bad_*", "*" },
	{ "stacks/genai-perf/*.csv", "genai-perf-csv" },
	{ "stacks/inference-perf/*/per_request_*", "inference-perf-requests" },
	{ "stacks/inference-perf/*/*_lifecycle_metrics.json",
	  "inference-perf" },
	{ "stacks/inference-perf/*.py", "-" },
	{ "stacks/llm-d/*/benchmark_report*", "llmd-report" },
	{ "stacks/llm-d/*.py", "-" },
	{ "stacks/licensed/*llmperf*", "llmperf" },
	{ "stacks/llmperf_*", "llmperf" },
	{ "stacks/licensed/*LLMPerf*", "llmperf" },
	{ "stacks/licensed/optimum-*", "optimum-benchmark" },
	{ "stacks/optimum_*", "optimum-benchmark" },
	{ "stacks/licensed/HTA__*", "torch-trace" },
	{ "stacks/licensed/kineto__*", "torch-trace" },
	{ "stacks/licensed/dymnmysn-*", "torch-trace" },
	{ "stacks/torch_trace_*", "torch-trace" },
	{ "stacks/licensed/DAntyNoel-*", "torch-key-averages" },
	{ "stacks/torch_table_*", "torch-key-averages" },
};

static const char *root;
static int print, checked;

static int visit(const char *path, const struct stat *sb, int type,
		 struct FTW *ftw)
{
	const char *rel = path + strlen(root) + 1, *want = NULL, *got;
	const struct importer *imp = NULL;
	char head[8193];
	size_t n;
	FILE *fp;

	(void)sb;
	(void)ftw;
	if (type != FTW_F)
		return 0;
	for (size_t i = 0; i < sizeof(rules) / sizeof(*rules) && !want; i++)
		if (!fnmatch(rules[i].glob, rel, 0))
			want = rules[i].format;
	if (!want) {
		fprintf(stderr, "%s: no detection rule: add one to "
			"tests/unit/test_detect.c\n", rel);
		CHECK(want != NULL);
		return 0;
	}
	if (!strcmp(want, "*") && !print)
		return 0;
	if (!(fp = fopen(path, "rb"))) {
		CHECK(fp != NULL);
		return 0;
	}
	n = fread(head, 1, sizeof(head) - 1, fp);
	fclose(fp);
	head[n] = '\0';
	got = importer_detect(&imp, head, n, path) == 0 ? imp->name : "-";
	pc_error_clear();
	if (print)
		printf("%-28s %s\n", got, rel);
	checked++;
	if (strcmp(want, "*") && strcmp(want, got)) {
		fprintf(stderr, "%s: detected as %s, expected %s\n", rel, got,
			want);
		CHECK_STR(got, want);
	}
	/* the marks a refusal names (importers/marks.c) are what a file of
	 * the format holds */
	for (const char *const *m = strcmp(want, "*") && strcmp(want, "-") ?
	     importer_marks(want) : NULL; m && *m; m++)
		if (!importer_mark_found(head, *m)) {
			fprintf(stderr, "%s: a %s file without its mark '%s' "
				"(importers/marks.c)\n", rel, want, *m);
			CHECK(0);
		}
	return 0;
}

/* Every format with words to look for has marks; a file none claims is
 * refused naming the closest formats and what each misses (issue 35). */
TEST(marks)
{
	const char *csv = "hello,world\n1,2\n";
	char *why;

	for (int i = 0; importers[i]; i++) {
		const char *n = importers[i]->name;

		if (strcmp(n, "llmcompass") && strcmp(n, "regex-log") &&
		    !importer_marks(n)) {
			fprintf(stderr, "%s has no marks\n", n);
			CHECK(0);
		}
	}
	why = importer_closest(csv);
	CHECK_STR(why, "closest: perfcorr-csv (found ','; missing "
		  "'workload', 'op', 'metric'), nsys-kern-sum (found ','; "
		  "missing 'Total Time', 'Instances', 'Avg' or 'Average', "
		  "'Name'), llm-viewer (found ','; missing "
		  "'layer_name,OPs,Access,arithmetic_intensity')");
	free(why);
	why = importer_closest("Time (%),Total Time (ns),Instances,Avg (ns)\n");
	CHECK(strncmp(why, "closest: nsys-kern-sum (found ',', 'Total Time', "
		      "'Instances', 'Avg'; missing 'Name')", 80) == 0);
	free(why);
	why = importer_closest("zzz\n");
	CHECK_STR(why, "none of the formats' marks is in its first bytes");
	free(why);
}

TEST(every_fixture)
{
	root = check_fixtures();
	print = getenv("PRINT_DETECT") != NULL;
	CHECK_INT(nftw(root, visit, 16, FTW_PHYS), 0);
	/* the fixtures exist: old formats and the stacks */
	if (checked <= 120)
		fprintf(stderr, "only %d fixtures checked\n", checked);
	CHECK(checked > 120);
}

TEST_MAIN(CASE(every_fixture), CASE(marks))
