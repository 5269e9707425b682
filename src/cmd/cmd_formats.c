/* perfcorr formats: the importer registry, one line each. */
#include <stdio.h>
#include <string.h>

#include "importers/importer.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"

static const struct cli_opt opts[] = { CLI_OPT_END };

static const struct cli_cmd cmd = {
	.name = "formats", .usage = "", .opts = opts,
	.summary = "List the import formats: name, usual source kind, what "
		   "it reads. 'import --format auto' (the default) detects "
		   "them from the content.",
	.min_args = 0, .max_args = 0,
};

int cmd_formats(int argc, char **argv)
{
	struct cli_list pos;
	int rc, w = 0;

	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	/* the name column as wide as the longest name (a fixed 20 ran
	 * 'inference-perf-requests' into its kind) */
	for (int i = 0; importers[i]; i++)
		w = (int)strlen(importers[i]->name) > w ?
		    (int)strlen(importers[i]->name) : w;
	for (int i = 0; importers[i]; i++)
		printf("%-*s %-9s %s\n", w, importers[i]->name,
		       importers[i]->kind ? importers[i]->kind : "any",
		       importers[i]->desc);
	return CLI_OK;
}
