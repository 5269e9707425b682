/*
 * Fuzz every importer in the registry (importers/registry.c), so a new
 * importer is fuzzed as soon as it is registered: probe() on the head,
 * then import() into a sink that touches every string and parses the
 * workload keys the way src/import.c does. Byte 0 picks the importer
 * (modulo the registry size) so each input exercises one importer deeply;
 * the probes all run on every input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/units.h"
#include "db/wkey.h"
#include "fuzz.h"
#include "importers/importer.h"
#include "src/error.h"

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

static size_t n_importers(void)
{
	size_t n = 0;

	while (importers[n])
		n++;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "fuzz.csv", "fuzz.json",
		"fuzz.log", "fuzz.txt", "fuzz.jsonl", "fuzz.xml",
		"fuzz.stats.txt", "COMPUTE_REPORT.csv" };
	const struct importer *imp, *detected;
	struct imp_sink sink = { emit, meta, warn, NULL };
	struct imp_input in;
	const char *opts[] = { NULL };
	char *head;
	size_t n = n_importers();
	FILE *fp;

	if (size < 2 || n == 0)
		return 0;
	imp = importers[data[0] % n];
	data++;
	size--;
	head = malloc(size + 1);
	memcpy(head, data, size);
	head[size] = '\0';
	for (size_t i = 0; i < n; i++)
		(void)importers[i]->probe(head, size,
					  names[(i + size) % 8]);
	(void)importer_detect(&detected, head, size, "fuzz.in");
	free(head);
	fp = fmemopen((void *)data, size, "rb");
	if (!fp)
		return 0;
	memset(&in, 0, sizeof(in));
	in.fp = fp;
	in.path = "fuzz.in";
	in.size = (long long)size;
	in.opts = opts;
	(void)imp->import(&in, &sink);
	fclose(fp);
	pc_error_clear();
	return 0;
}
