/* The command and option tables as data: --version, help, spec capture. */
#include "src/cmd/meta.h"

#include <cjson/cJSON.h>
#include <gsl/gsl_version.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/names.h"
#include "base/util.h"
#include "perfcorr_build.h"	/* generated: version, git commit, man dir */

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* Targets only: main() parses these by hand before the command. */
static const char *global_db;
static int global_version;

const struct cli_opt meta_global_opts[] = {
	{ CLI_STR, "db", 0, &global_db, "PATH", "the database (default "
	  "$PERFCORR_DB, else ./perfcorr.db)" },
	{ CLI_FLAG, "version", 0, &global_version, NULL, "print the version, "
	  "the git commit it was built from and the versions of the SQLite, "
	  "GSL and cJSON libraries it runs with" },
	CLI_OPT_END
};

const struct command *meta_find(const char *name)
{
	for (const struct command *c = cmd_table; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

struct capture {
	struct cli_cmd spec;
	int got;
};

/* Commands build their tables on their stack (the targets are fields of
 * a local options struct): keep a copy, without the targets. The strings
 * are literals. */
static void capture(const struct cli_cmd *cmd, void *ctx)
{
	struct capture *cap = ctx;
	struct cli_opt *opts;
	size_t n = 0;

	while (cmd->opts && cmd->opts[n].name)
		n++;
	opts = xcalloc(n + 1, sizeof(*opts));
	for (size_t i = 0; i < n; i++) {
		opts[i] = cmd->opts[i];
		opts[i].target = NULL;
	}
	cap->spec = *cmd;
	cap->spec.opts = opts;
	cap->got = 1;
}

const struct cli_cmd *meta_spec(const struct command *c)
{
	/* One slot per table row, filled on first use. */
	static struct capture caps[128];
	size_t i = (size_t)(c - cmd_table);
	char name[64], help[] = "--help";
	char *argv[] = { name, help, NULL };

	if (i >= sizeof(caps) / sizeof(caps[0]))
		return NULL;
	if (!caps[i].got) {
		snprintf(name, sizeof(name), "%s", c->name);
		cli_set_help_hook(capture, &caps[i]);
		c->fn(2, argv);
		cli_set_help_hook(NULL, NULL);
	}
	return caps[i].got ? &caps[i].spec : NULL;
}

void meta_version(FILE *fp)
{
	fprintf(fp, "perfcorr %s (git %s)\n", PERFCORR_VERSION, PERFCORR_GIT);
	fprintf(fp, "sqlite %s, gsl %s, cjson %s\n", db_sqlite_version(),
		gsl_version, cJSON_Version());
}

static int is_file(const char *path)
{
	return access(path, R_OK) == 0;
}

const char *meta_mandir(void)
{
	static char *dir;
	char exe[PATH_MAX], *probe;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	const char *const rel[] = { "man", PERFCORR_REL_MANDIR };

	if (dir)
		return dir;
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return NULL;
	*slash = '\0';
	/* The build tree (perfcorr next to man/), then an installed tree
	 * (BINDIR/../share/man, whatever the prefix or DESTDIR). */
	for (size_t i = 0; i < 4 && !dir; i++) {
		probe = xasprintf("%s/%s/man1/perfcorr.1%s", exe, rel[i / 2],
				  i % 2 ? ".gz" : "");
		if (is_file(probe))
			dir = xasprintf("%s/%s", exe, rel[i / 2]);
		free(probe);
	}
	return dir;
}

static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	while (path && *path) {
		size_t len = strcspn(path, ":");

		if (len && len < sizeof(buf) - strlen(prog) - 2) {
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path,
				 prog);
			if (access(buf, X_OK) == 0)
				return 1;
		}
		path += len + (path[len] == ':');
	}
	return 0;
}

int meta_help(const char *name)
{
	const struct command *c = meta_find(name);
	const char *dir = meta_mandir();
	char *page = NULL;

	/* Commands have section 1 pages; policy and manifest section 5;
	 * installed pages are gzipped. */
	for (int gz = 0; dir && !page && gz < 2 && !strchr(name, '/'); gz++) {
		page = xasprintf("%s/man%d/perfcorr-%s.%d%s", dir, c ? 1 : 5,
				 name, c ? 1 : 5, gz ? ".gz" : "");
		if (!is_file(page)) {
			free(page);
			page = NULL;
		}
	}
	if (!c && !page) {
		fprintf(stderr, "perfcorr help: no command or manual page "
			"'");
		util_fputs_safe(name, stderr);
		fprintf(stderr, "'\ntry 'perfcorr --help'\n");
		return CLI_USAGE;
	}
	if (page && on_path("man")) {
		fflush(stdout);
		execlp("man", "man", "-l", page, (char *)NULL);
		/* exec failed: fall back to the text */
	}
	if (c) {
		char argv0[64], help[] = "--help";
		char *argv[] = { argv0, help, NULL };

		free(page);
		snprintf(argv0, sizeof(argv0), "%s", c->name);
		return c->fn(2, argv);
	}
	fprintf(stderr, "perfcorr help: man(1) is not installed; the page is "
		"%s\n", page);
	free(page);
	return CLI_FAIL;
}
