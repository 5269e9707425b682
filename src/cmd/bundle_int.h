#ifndef PC_SRC_CMD_BUNDLE_INT_H
#define PC_SRC_CMD_BUNDLE_INT_H
/*
 * Private to perfcorr bundle (cmd_bundle.c, bundle_write.c): the runs
 * being bundled and what is written. The bundle owns everything but opt
 * and policy.
 */
#include <stddef.h>

#include "base/strbuf.h"
#include "src/cmd/bundle.h"
#include "src/cmd/cli.h"

struct cJSON;
struct db;
struct corr_set;
struct policy;
struct runinfo;

struct cmd_bundle_opts {
	const char *model, *ref, *metric, *policy;
	struct cli_list group_by, inputs, allow;
	int no_inputs, no_verify;
};

struct brun {
	const struct runinfo *ri;
	struct cJSON *meta;		/* the run's metadata, parsed */
	struct bundle_file *file;	/* its input (roofline: the ops) */
	struct bundle_file *spec;	/* roofline: the hardware spec */
	struct bundle_file *extra[3];	/* --map, --topology, --rules */
};

struct bundle {
	const struct cmd_bundle_opts *opt;
	const struct policy *policy;
	const char *out;		/* the directory asked for */
	char *tmp, *in;			/* OUT.partial, OUT.partial/inputs */
	struct corr_set *set;		/* the pairing (slim) */
	struct runinfo *ri;
	struct brun *runs;		/* ascending ids: the fresh database
					   gives them ids 1, 2, ... */
	size_t nruns, nplaced;
	struct bundle_finder find;
	struct strbuf missing;		/* inputs not found, one a line */
	struct strbuf marks;		/* the mark commands */
	struct cli_list table;		/* compare's argv (owned) */
	const char *unverified;		/* why commands.sh was not run, or
					   NULL (static) */
};

/* s single-quoted for sh onto sb. */
void bundle_sq(struct strbuf *sb, const char *s);
/* compare's argv for the table: the pair at its resolved versions. */
void bundle_table_argv(struct bundle *b);
/* The calibration marks that apply to the pairing, as mark commands with
 * the fresh database's run ids. */
int bundle_marks(struct bundle *b, struct db *db);
/* runs.sha256, sources.txt, policy.json, commands.sh, README.md. */
int bundle_write(struct bundle *b);
/* Remove what was written into b->tmp (a failed bundle). */
void bundle_remove(struct bundle *b);

#endif
