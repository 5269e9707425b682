/*
 * Fuzz every importer in the registry (importers/registry.c), so a new
 * importer is fuzzed as soon as it is registered: probe() on the head,
 * then import() into a sink that touches every string and parses the
 * workload keys the way src/import.c does. Every input goes through
 * every importer (most reject it in their first bytes), so the seeds of
 * one format also exercise the others' error paths.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "db/wkey.h"
#include "fuzz.h"
#include "importers/importer.h"
#include "base/error.h"

static size_t sink_bytes;

static void touch(const char *s)
{
	if (s)
		sink_bytes += strlen(s);
}

static int emit(struct imp_sink *s, const struct imp_record *r)
{
	struct wkey k;

	(void)s;
	touch(r->workload);
	touch(r->op);
	touch(r->raw_name);
	touch(r->metric);
	touch(r->unit);
	wkey_init(&k);
	if (r->workload)
		(void)wkey_parse(&k, r->workload);
	for (size_t i = 0; i < r->nparams; i++) {
		touch(r->params[i].name);
		touch(r->params[i].value);
		(void)wkey_set(&k, r->params[i].name, r->params[i].value);
	}
	wkey_release(&k);
	if (r->unit)
		(void)units_lookup(r->unit);
	return 0;
}

static int meta(struct imp_sink *s, const char *key, const char *value)
{
	(void)s;
	touch(key);
	touch(value);
	return 0;
}

static void warn(struct imp_sink *s, const char *fmt, ...)
{
	(void)s;
	touch(fmt);
}

static void run(const struct importer *imp, const uint8_t *data,
		size_t size)
{
	struct imp_sink sink = { .emit = emit, .meta = meta, .warn = warn,
				 .ctx = NULL };
	struct imp_input in;
	const char *opts[] = { NULL };
	FILE *fp = fmemopen((void *)data, size, "rb");

	if (!fp)
		return;
	memset(&in, 0, sizeof(in));
	in.fp = fp;
	in.path = "fuzz.in";
	in.size = (long long)size;
	in.opts = opts;
	(void)imp->import(&in, &sink);
	fclose(fp);
	pc_error_clear();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "fuzz.csv", "fuzz.json",
		"fuzz.log", "fuzz.txt", "fuzz.jsonl", "fuzz.xml",
		"fuzz.stats.txt", "COMPUTE_REPORT.csv" };
	const struct importer *detected;
	char *head;
	size_t hlen;

	if (size == 0)
		return 0;
	hlen = size < 8192 ? size : 8192;	/* as src/import.c */
	head = malloc(hlen + 1);
	memcpy(head, data, hlen);
	head[hlen] = '\0';
	for (size_t i = 0; importers[i]; i++)
		(void)importers[i]->probe(head, hlen, names[(i + size) % 8]);
	(void)importer_detect(&detected, head, hlen, "fuzz.in");
	free(head);
	pc_error_clear();
	for (size_t i = 0; importers[i]; i++)
		run(importers[i], data, size);
	return 0;
}
