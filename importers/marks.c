/*
 * What each importer's probe looks for in a file's first bytes, for the
 * refusal of a file no importer claims (issue 35 item 10): the three
 * formats whose marks the head holds most of, and what each misses. A
 * mark is a string the head must contain, or alternatives "A|B". The
 * probes decide; these only explain. tests/unit/test_detect.c checks
 * that every fixture of a format holds all the marks of that format.
 */
#include "importers/importer.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"

#define M(...) (const char *const[]){ __VA_ARGS__, NULL }

static const struct {
	const char *name;
	const char *const *marks;
} table[] = {
	{ "perfcorr-csv", M(",", "workload", "op", "metric") },
	{ "perfcorr-json", M("{|[", "\"results\"|\"perfcorr-json\"|"
			     "\"run_id\"") },
	{ "nsys-kern-sum", M(",", "Total Time", "Instances", "Avg|Average",
			     "Name") },
	{ "vllm", M("{", "\"model_id\"", "\"num_prompts\"|"
		    "\"request_throughput\"|_ttft_ms\"") },
	{ "llm-viewer", M(",", "layer_name,OPs,Access,arithmetic_intensity") },
	{ "llm-analysis", M("{", "\"prefill_latency|"
			    "\"prefill_num_flops_fwd_total\"") },
	{ "genz", M(",", "Latency (msec)", "Num ops (MFLOP)") },
	{ "scalesim", M(",", "LayerID,|Layer,", "Cycles| BW,") },
	{ "nsys-gpu-trace", M(",", "Start", "Duration", "CorrId", "Name") },
	{ "nvprof-gpu-trace", M(",", "\"Start\",\"Duration\"", "\"Name\"") },
	{ "gpgpusim", M("gpu_sim_cycle =|GPGPU-Sim|-gpgpu_") },
	{ "accelsim-stats", M("----------", "APPS,|CFG,") },
	{ "gem5", M("---------- Begin Simulation Statistics") },
	{ "timeloop", M("Summary Stats|GFLOPs (@1GHz)|Op per Byte|"
			"Total scalar accesses") },
	{ "ncu-details", M(",", "Kernel Name", "Metric Name",
			   "\"ID\"|Invocations") },
	{ "ncu-raw", M(",", "\"ID\"", "Kernel Name", "__") },
	{ "vllm-stdout", M("Serving Benchmark Result") },
	{ "sglang", M("{", "\"backend\"", "\"server_info\"|"
		      "_e2e_latency_ms\"|\"total_throughput\"") },
	{ "sglang-one-batch", M("{\"run_name\"", "\"batch_size\"",
				"\"prefill_latency\"") },
	{ "cocotb", M("<testsuite", "sim_time_ns=|\"sim_time_duration\"|"
		      "cocotb") },
	{ "verilator", M("- Verilator: |S i m u l a t i o n   R e p o r t: "
			 "Verilator") },
	{ "vcs", M("V C S   S i m u l a t i o n   R e p o r t") },
	{ "chipyard", M("Cycles taken:|simulation cycles") },
	{ "nvidia-smi", M(",", "power.draw|utilization.gpu|memory.used") },
	{ "dcgm-dmon", M("#Entity") },
	{ "mlperf-summary", M("MLPerf Results Summary") },
	{ "mlperf-detail", M(":::MLLOG") },
	{ "trtllm-bench", M("= PERFORMANCE OVERVIEW|= PYTORCH BACKEND|"
			    "= ENGINE DETAILS|[TensorRT-LLM][INFO]|"
			    "[TRT-LLM] [I]") },
	{ "trtllm-bench-json", M("{", "\"engine\"", "\"world_info\"|"
				 "\"request_info\"") },
	{ "trtllm-legacy-csv", M(",", "num_samples", "seq_throughput(",
				 "token_throughput(") },
	{ "perf-analyzer-csv", M(",", "Inferences/Second",
				 "Concurrency|Client Send") },
	{ "genai-perf-csv", M(",", "Metric,avg,min,max|Metric,Value",
			      "Request Latency|Time To First Token|"
			      "Request Throughput") },
	{ "genai-perf-json", M("{", "\"unit\"", "\"request_throughput\"",
			       "\"request_latency\"|"
			       "\"time_to_first_token\"") },
	{ "aiperf-json", M("{", "\"unit\"", "\"request_throughput\"") },
	{ "aiperf-csv", M(",", "Metric,avg,min,max,p1", "Request Latency|"
			  "Time to First Token") },
	{ "aiperf-jsonl", M("{\"metadata\"", "\"session_num\"",
			    "\"benchmark_phase\"", "\"metrics\"") },
	{ "genai-perf-analyze", M(",", "Config Name,", "Concurrency") },
	{ "llmperf", M("{", "\"results_", "\"num_concurrent_requests\"|"
		       "\"mean_input_tokens\"") },
	{ "optimum-benchmark", M("{", "optimum_benchmark|\"efficiency\"") },
	{ "torch-trace", M("{", "\"traceEvents\"|\"schemaVersion\"") },
	{ "torch-key-averages", M("Name", "Self CPU %", "# of Calls",
				  "----") },
	{ "inference-perf", M("{", "\"load_summary\"", "\"successes\"|"
			      "\"schedule_delay\"") },
	{ "inference-perf-requests", M("[", "\"start_time\"", "\"end_time\"",
				       "\"request\"") },
	{ "aiperf-server-metrics", M("{", "\"summary\"",
				     "\"endpoints_configured\"") },
	{ "llmd-report", M("results|metrics", "request_performance|"
			   "time_to_first_token|stack") },
	/* llmcompass reads rows of numbers, regex-log only with --rules:
	 * no words to look for */
};

const char *const *importer_marks(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(*table); i++)
		if (!strcmp(table[i].name, name))
			return table[i].marks;
	return NULL;
}

int importer_mark_found(const char *head, const char *mark)
{
	const char *p = mark;

	while (*p) {
		size_t n = strcspn(p, "|");
		char *alt = xstrndup(p, n);
		int hit = strstr(head, alt) != NULL;

		free(alt);
		if (hit)
			return 1;
		p += n + (p[n] == '|');
	}
	return 0;
}

/* "'a' or 'b'" for the alternatives of a mark; with head, only the
 * first alternative head holds. */
static void add_mark(struct strbuf *sb, const char *mark, const char *head)
{
	int shown = 0;

	for (const char *p = mark; *p;) {
		size_t n = strcspn(p, "|");
		char *alt = xstrndup(p, n);

		if (!head || strstr(head, alt)) {
			strbuf_addf(sb, "%s'%s'", shown++ ? " or " : "", alt);
			if (head) {
				free(alt);
				return;
			}
		}
		free(alt);
		p += n + (p[n] == '|');
	}
}

/* One candidate: "perfcorr-csv (found ','; missing 'workload', 'op')". */
static void explain(struct strbuf *sb, const char *name,
		    const char *const *marks, const char *head)
{
	int found = 0, missing = 0;

	strbuf_addf(sb, "%s (", name);
	for (const char *const *m = marks; *m; m++)
		if (importer_mark_found(head, *m)) {
			strbuf_addstr(sb, found++ ? ", " : "found ");
			add_mark(sb, *m, head);
		}
	for (const char *const *m = marks; *m; m++)
		if (!importer_mark_found(head, *m)) {
			strbuf_addstr(sb, missing++ ? ", " : found ?
				      "; missing " : "missing ");
			add_mark(sb, *m, NULL);
		}
	if (!missing)
		strbuf_addstr(sb, ", but not where its probe looks (e.g. on "
			      "the header line)");
	strbuf_addch(sb, ')');
}

char *importer_closest(const char *head)
{
	struct strbuf sb = STRBUF_INIT;
	const struct importer *best[3] = { NULL, NULL, NULL };
	double bs[3] = { -1, -1, -1 };

	/* most marks found first, then the registry's order (the native
	 * formats first) */
	for (int i = 0; importers[i]; i++) {
		const char *const *m = importer_marks(importers[i]->name);
		int n = 0, hit = 0;
		double s;

		for (; m && m[n]; n++)
			hit += importer_mark_found(head, m[n]);
		if (!n)
			continue;
		s = hit;
		for (int k = 0; k < 3; k++) {
			if (s <= bs[k])
				continue;
			for (int j = 2; j > k; j--) {
				best[j] = best[j - 1];
				bs[j] = bs[j - 1];
			}
			best[k] = importers[i];
			bs[k] = s;
			break;
		}
	}
	if (bs[0] <= 0) {
		strbuf_addstr(&sb, "none of the formats' marks is in its "
			      "first bytes");
		return strbuf_detach(&sb);
	}
	strbuf_addstr(&sb, "closest: ");
	for (int k = 0; k < 3 && best[k] && bs[k] > 0; k++) {
		if (k)
			strbuf_addstr(&sb, ", ");
		explain(&sb, best[k]->name, importer_marks(best[k]->name),
			head);
	}
	return strbuf_detach(&sb);
}
