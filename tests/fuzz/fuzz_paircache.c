/*
 * Fuzz the pair-cache reader (src/pairidx*.c). A valid index is built
 * once from a small in-memory database; each input is a list of damages
 * to its part blobs (8-byte records: part, operation, offset, value:
 * flip a byte, overwrite 4 or 8 bytes, truncate, extend, drop a part),
 * then the parts are opened as an open from the cache opens them
 * (pidx_open_mem: the same validation) and every reader the views use
 * runs, including the loops to meta's max_id. A damaged part must be
 * refused (PC_EINVALID) or read within bounds: never a crash, a read out
 * of bounds, a huge allocation or an endless loop.
 */
#include "fuzz.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "base/error.h"
#include "base/util.h"
#include "src/corr/correlate.h"
#include "src/corr/corrgroup.h"
#include "src/import/import.h"
#include "src/corr/wabbr.h"
#include "src/pairidx/pairidx_int.h"

static const char ref_csv[] =
	"workload,op,metric,value,unit,param.tp\n"
	"llama/decode/bs=1,gemm,time,10,us,1\n"
	"llama/decode/bs=1,attention,time,20,us,1\n"
	"llama/decode/bs=8,gemm,time,40,us,2\n"
	"llama/decode/bs=8,softmax,time,5,us,2\n"
	"llama/prefill/bs=1,gemm,time,80,us,1\n"
	"llama/prefill/bs=1,gemm,dram_bytes,1000000,B,1\n"
	"mixtral/decode/bs=1,moe,time,30,us,4\n";
static const char model_csv[] =
	"workload,op,metric,value,unit,param.tp\n"
	"llama/decode/bs=1,gemm,time,11,us,1\n"
	"llama/decode/bs=1,attention,time,18,us,1\n"
	"llama/decode/bs=8,gemm,time,44,us,2\n"
	"llama/decode/bs=8,softmax,time,0,us,2\n"
	"llama/prefill/bs=1,gemm,time,70,us,1\n"
	"llama/prefill/bs=1,gemm,dram_bytes,1200000,B,1\n"
	"mixtral/decode/bs=1,moe,time,33,us,4\n";

static struct pidx_parts pristine;

static void import_text(struct db *db, const char *text, const char *source,
			const char *kind)
{
	struct import_opts o;
	struct import_result r;
	FILE *fp = fmemopen((void *)text, strlen(text), "rb");

	memset(&o, 0, sizeof(o));
	o.source = source;
	o.kind = kind;
	o.format = "perfcorr-csv";
	o.clock_hz = NAN;
	o.in = fp;
	if (!fp || import_file(db, source, &o, &r) < 0) {
		fprintf(stderr, "fuzz_paircache: setup: %s\n", pc_error_last());
		abort();
	}
	fclose(fp);
}

static void setup(void)
{
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *set;
	struct db *db;
	const char *tmp = getenv("TMPDIR");
	char *path = xasprintf("%s/pc-fuzz-paircache-XXXXXX",
			       tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(path);

	if (fd < 0)
		abort();
	close(fd);
	if (db_open(&db, path, DB_CREATE) < 0) {
		fprintf(stderr, "fuzz_paircache: setup: %s\n", pc_error_last());
		abort();
	}
	import_text(db, ref_csv, "lab", "silicon");
	import_text(db, model_csv, "sim", "perfsim");
	q.model = "sim";
	q.ref = "lab";
	if (corr_load(&set, db, &q) < 0 || pidx_build(set, 1, &pristine) < 0) {
		fprintf(stderr, "fuzz_paircache: setup: %s\n", pc_error_last());
		abort();
	}
	corr_set_free(set);
	db_close(db);
	unlink(path);
	free(path);
}

static void copy_parts(struct pidx_parts *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < pristine.n; i++) {
		void *d = xmalloc(pristine.v[i].len + 1);

		memcpy(d, pristine.v[i].data, pristine.v[i].len);
		pidx_parts_add(out, pristine.v[i].name, d, pristine.v[i].len);
	}
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void damage(struct pidx_parts *ps, const uint8_t *r)
{
	struct pidx_part *p;
	size_t off = (size_t)r[2] | (size_t)r[3] << 8;
	uint32_t val = le32(r + 4);
	uint64_t v64;

	if (!ps->n)
		return;
	p = &ps->v[r[0] % ps->n];
	switch (r[1] % 6) {
	case 0:		/* flip bits of one byte */
		if (p->len)
			((uint8_t *)p->data)[off % p->len] ^= (uint8_t)(val | 1);
		break;
	case 1:		/* overwrite 4 bytes (a count, an offset, an id) */
		if (p->len >= 4)
			memcpy((char *)p->data + off % (p->len - 3), &val, 4);
		break;
	case 2:		/* overwrite 8 bytes: huge, negative or small */
		v64 = val & 1 ? ((uint64_t)val << 32) | val :
		      (uint64_t)(int64_t)(int32_t)val;
		if (p->len >= 8)
			memcpy((char *)p->data + off % (p->len - 7), &v64, 8);
		break;
	case 3:		/* truncate */
		p->len = off % (p->len + 1);
		break;
	case 4:		/* extend with junk */
		p->data = xrealloc(p->data, p->len + (val % 64) + 1);
		memset((char *)p->data + p->len, (int)(val >> 8), val % 64);
		p->len += val % 64;
		break;
	default:	/* drop the part */
		free(p->name);
		free(p->data);
		*p = ps->v[--ps->n];
		break;
	}
}

static void exercise(struct pidx *x)
{
	struct corr_point pt;
	struct stats_summary sum;
	const uint32_t *perm, *off;
	const unsigned char *starts;
	const struct corrgroup *g;
	const char *chars;
	uint64_t count;
	size_t len = 0;

	for (size_t i = 0; i < x->n; i++) {
		pidx_point(x, i, &pt, 1);
		len += strlen(pt.workload) + strlen(pt.op) + strlen(pt.metric);
		pidx_find(x, x->keys[i].w, x->keys[i].o, x->keys[i].m);
	}
	for (int c = 0; c < PIDX_NORDERS; c++)
		if (pidx_order(x, c, &perm, &starts) == 0)
			for (size_t i = 0; i < x->n; i++)
				len += perm[i] + (starts[i / 8] & 1);
	for (size_t k = 0; k < x->ngroup_keys; k++)
		if (pidx_groups(x, x->group_keys[k], &g) == 0)
			for (size_t i = 0; i < g->n; i++)
				len += strlen(g->values[i]);
	pidx_scatter(x);
	for (int d = 0; d < PIDX_NAME_PARTS; d++)
		pidx_names_lower(x, (enum pidx_name_part)d, &chars, &off,
				 &count);
	pidx_basic(x, NULL, &sum);
	/* the workload column's abbreviation (part "wabbr"), applied */
	{
		struct wabbr wa;
		char buf[256];

		pidx_wabbr(x, &wa);
		for (size_t i = 0; i < x->n && i < 64; i++)
			len += strlen(wabbr_apply2(&wa, pidx_workload(x,
					x->keys[i].w), 20, buf, sizeof(buf)));
		wabbr_release(&wa);
	}
	/* what tui/view_discrep.c does with meta's max_id */
	for (int64_t id = 0; id <= x->max_id[1]; id++)
		len += strlen(pidx_op(x, id));
	for (int64_t id = 0; id <= x->max_id[2]; id++)
		len += strlen(pidx_metric(x, id));
	if (len == (size_t)-1)
		abort();	/* keeps the reads */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pidx_parts ps;
	struct pidx *x;

	if (!pristine.n)
		setup();
	copy_parts(&ps);
	for (size_t i = 0; i + 8 <= size && i < 8 * 64; i += 8)
		damage(&ps, data + i);
	if (pidx_open_mem(&x, &ps) == 0) {
		exercise(x);
		pidx_free(x);
	} else if (size < 8) {
		/* undamaged: the harness itself is broken */
		fprintf(stderr, "fuzz_paircache: %s\n", pc_error_last());
		abort();
	}
	pidx_parts_release(&ps);
	pc_error_clear();
	return 0;
}
