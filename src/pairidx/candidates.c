/* Candidate source pairs (see candidates.h). */
#include "src/pairidx/candidates.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/query.h"
#include "base/error.h"
#include "src/pairidx/pairidx.h"
#include "base/util.h"

/* Which kind is the model for which reference, most useful first. */
static const char *const pair_order[][2] = {
	{ "perfsim", "silicon" }, { "roofline", "silicon" },
	{ "rtl", "silicon" }, { "emulation", "silicon" },
	{ "perfsim", "emulation" }, { "rtl", "emulation" },
	{ "perfsim", "rtl" }, { "roofline", "emulation" },
	{ "roofline", "rtl" }, { "roofline", "perfsim" },
};

struct source {
	char *name, *kind;
	int64_t results;
};

static int list_sources(struct db *db, struct source **out, size_t *n)
{
	struct db_cursor *c;
	struct source *v = NULL;
	size_t len = 0;
	int rc, cname = 0, ckind = 1, cres = -1;

	if ((rc = db_list_open(&c, db, DB_LIST_SOURCES, NULL)) < 0)
		return rc;
	for (int i = 0; i < db_cursor_ncols(c); i++) {
		if (!strcmp(db_cursor_name(c, i), "source"))
			cname = i;
		else if (!strcmp(db_cursor_name(c, i), "kind"))
			ckind = i;
		else if (!strcmp(db_cursor_name(c, i), "results"))
			cres = i;
	}
	while ((rc = db_cursor_next(c)) > 0) {
		v = xrealloc(v, (len + 1) * sizeof(*v));
		v[len].name = xstrdup(db_cursor_text(c, cname));
		v[len].results = cres < 0 ? 0 : db_cursor_int(c, cres);
		v[len++].kind = xstrdup(db_cursor_text(c, ckind));
	}
	db_cursor_close(c);
	*out = v;
	*n = len;
	return rc < 0 ? rc : 0;
}

static void add_pair(struct candidate **v, size_t *n, const char *model,
		     const char *mk, const char *ref, const char *rk)
{
	struct candidate *p;

	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	p = &(*v)[(*n)++];
	p->model = xstrdup(model);
	p->ref = xstrdup(ref);
	p->model_kind = xstrdup(mk);
	p->ref_kind = xstrdup(rk);
}

static int side_source_is(const char *spec, const char *name)
{
	size_t len = strcspn(spec, "@");

	return strlen(name) == len && !strncmp(spec, name, len);
}

static const struct source *find_source(const struct source *s, size_t ns,
					const char *spec)
{
	for (size_t i = 0; i < ns; i++)
		if (side_source_is(spec, s[i].name))
			return &s[i];
	return NULL;
}

/* The pairs of the first kind pair (what the TUI opens on), most common
 * keys first: of two silicon references for one simulator, the one
 * that measured what the simulator predicts (ties keep the order by
 * name). Only this group: counting costs a walk of one side's results,
 * about a second per million. */
static int order_first_group(struct db *db, const struct source *s,
			     size_t ns, struct candidate *v, size_t n)
{
	size_t g = 1;
	int64_t *common;
	int rc = 0;

	while (g < n && !strcmp(v[g].model_kind, v[0].model_kind) &&
	       !strcmp(v[g].ref_kind, v[0].ref_kind))
		g++;
	if (g < 2)
		return 0;
	common = xcalloc(g, sizeof(*common));
	for (size_t i = 0; i < g && rc == 0; i++) {
		const struct source *a = find_source(s, ns, v[i].model);
		const struct source *b = find_source(s, ns, v[i].ref);

		if (!a || !b)
			continue;
		if (a->results > b->results) {
			const struct source *t = a;

			a = b;
			b = t;
		}
		rc = db_source_overlap(db, a->name, b->name, &common[i]);
	}
	/* insertion sort: stable, and g is small */
	for (size_t i = 1; i < g && rc == 0; i++)
		for (size_t j = i; j > 0 && common[j] > common[j - 1]; j--) {
			struct candidate t = v[j];
			int64_t c = common[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
			common[j] = common[j - 1];
			common[j - 1] = c;
		}
	free(common);
	return rc;
}

int candidates_list(struct db *db, const char *model, const char *ref,
		    struct candidate **out, size_t *n)
{
	struct source *s = NULL;
	size_t ns = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = list_sources(db, &s, &ns)) < 0)
		return rc;
	for (size_t o = 0; o < sizeof(pair_order) / sizeof(pair_order[0]); o++)
		for (size_t i = 0; i < ns; i++)
			for (size_t j = 0; j < ns; j++) {
				if (strcmp(s[i].kind, pair_order[o][0]) ||
				    strcmp(s[j].kind, pair_order[o][1]))
					continue;
				if ((model && !side_source_is(model, s[i].name)) ||
				    (ref && !side_source_is(ref, s[j].name)))
					continue;
				add_pair(out, n, model ? model : s[i].name,
					 s[i].kind, ref ? ref : s[j].name,
					 s[j].kind);
			}
	if (!*n && model && ref)
		add_pair(out, n, model, "?", ref, "?");
	else if (*n > 1)
		rc = order_first_group(db, s, ns, *out, *n);
	for (size_t i = 0; i < ns; i++) {
		free(s[i].name);
		free(s[i].kind);
	}
	free(s);
	if (rc < 0) {
		candidates_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

void candidates_free(struct candidate *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].model);
		free(v[i].ref);
		free(v[i].model_kind);
		free(v[i].ref_kind);
	}
	free(v);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int candidates_index(struct db *db, const char *model, const char *ref,
		     void (*cb)(void *arg, const struct pidx *x,
				double seconds),
		     void (*fail)(void *arg, const struct candidate *p,
				  const char *why),
		     void *arg)
{
	struct candidate *p = NULL;
	size_t n = 0;
	int rc, done = 0;

	if ((rc = candidates_list(db, model, ref, &p, &n)) < 0)
		return rc;
	for (size_t i = 0; i < n && rc >= 0; i++) {
		struct corr_query q = CORR_QUERY_INIT;
		struct pidx *x;
		double t0 = now_s();

		q.model = p[i].model;
		q.ref = p[i].ref;
		if ((rc = pidx_open(&x, db, &q, 0)) < 0) {
			/* one pair that cannot pair (nothing matches, cycles
			 * without a clock) does not stop the others; a
			 * database error does */
			if (rc != PC_EDB && rc != PC_EIO) {
				if (rc != PC_ENOTFOUND && fail)
					fail(arg, &p[i], pc_error_last());
				pc_error_clear();
				rc = 0;
			}
			continue;
		}
		if (cb)
			cb(arg, x, now_s() - t0);
		pidx_free(x);
		done++;
	}
	candidates_free(p, n);
	return rc < 0 ? rc : done;
}
