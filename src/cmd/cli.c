/* Option parsing and shared command helpers (see cli.h). */
#include "src/cmd/cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/error.h"
#include "base/util.h"

static const char *db_path_opt;
static void (*help_hook)(const struct cli_cmd *cmd, void *ctx);
static void *help_hook_ctx;

void cli_set_help_hook(void (*hook)(const struct cli_cmd *cmd, void *ctx),
		       void *ctx)
{
	help_hook = hook;
	help_hook_ctx = ctx;
}

const char *cli_db_path(void)
{
	const char *env = getenv("PERFCORR_DB");

	if (db_path_opt)
		return db_path_opt;
	return env && *env ? env : "perfcorr.db";
}

void cli_set_db_path(const char *path)
{
	db_path_opt = path;
}

int cli_open_db(struct db **out, int flags)
{
	if (db_open(out, cli_db_path(), flags) < 0) {
		fprintf(stderr, "perfcorr: ");
		util_fputs_safe(pc_error_last(), stderr);
		fputc('\n', stderr);
		return CLI_FAIL;
	}
	return 0;
}

/* The options behind a tagged refusal (enum pc_cause), named the way
 * the user gave them. */
static const char *cause_text(enum pc_cause cause)
{
	switch (cause) {
	case PC_CAUSE_FILTERS:
		return " (after the --metric/--op/--workload/--where filters)";
	case PC_CAUSE_STRICT_MAP:
		return " (--strict-map)";
	case PC_CAUSE_PLATFORM:
		return ": choose one with --platform P (both sides), "
		       "--model-platform P or --ref-platform P";
	case PC_CAUSE_ROOFLINE:
		return ": choose one with --roofline SOURCE";
	case PC_CAUSE_NONE:
		break;
	}
	return "";
}

void cli_error(const char *cmd)
{
	fprintf(stderr, "perfcorr %s: ", cmd);
	util_fputs_safe(pc_error_last(), stderr);
	fputs(cause_text(pc_error_last_cause()), stderr);
	fputc('\n', stderr);
}

static int vreport(const char *cmd, int code, const char *fmt, va_list ap)
{
	char msg[2048];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "perfcorr %s: ", cmd);
	util_fputs_safe(msg, stderr);
	fputc('\n', stderr);
	if (code == CLI_USAGE)
		fprintf(stderr, "try 'perfcorr %s --help'\n", cmd);
	return code;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreport(cmd, CLI_USAGE, fmt, ap);
	va_end(ap);
	return rc;
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreport(cmd, CLI_FAIL, fmt, ap);
	va_end(ap);
	return rc;
}

int cli_exit_for(int rc)
{
	return rc == PC_EUSAGE ? CLI_USAGE : rc < 0 ? CLI_FAIL : CLI_OK;
}

void cli_list_free(struct cli_list *l)
{
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

static void list_add(struct cli_list *l, const char *s)
{
	l->items = xrealloc(l->items, (l->n + 2) * sizeof(*l->items));
	l->items[l->n++] = s;
	l->items[l->n] = NULL;
}

void cli_help(const struct cli_cmd *cmd, FILE *fp)
{
	const struct cli_opt *o;

	fprintf(fp, "usage: perfcorr [--db PATH] %s %s\n\n%s\n", cmd->name,
		cmd->usage, cmd->summary);
	if (cmd->details)
		fprintf(fp, "\n%s\n", cmd->details);
	fprintf(fp, "\noptions:\n");
	for (o = cmd->opts; o && o->name; o++) {
		char left[64], sh[8] = "    ";

		if (o->shortname)
			snprintf(sh, sizeof(sh), "-%c, ", o->shortname);
		snprintf(left, sizeof(left), "%s--%s%s%s", sh, o->name,
			 o->metavar ? " " : "", o->metavar ? o->metavar : "");
		fprintf(fp, "  %-30s %s%s\n", left, o->help,
			o->type == CLI_LIST && !strstr(o->help, "repeatable") ?
			" (repeatable)" : "");
	}
	fprintf(fp, "  %-30s %s\n", "-h, --help", "show this help");
	if (cmd->extra_title && cmd->extra)
		fprintf(fp, "\n%s\n%s", cmd->extra_title, cmd->extra);
}

static const struct cli_opt *find_long(const struct cli_opt *opts,
				       const char *name, size_t len)
{
	for (; opts && opts->name; opts++)
		if (strlen(opts->name) == len && !strncmp(opts->name, name, len))
			return opts;
	return NULL;
}

static const struct cli_opt *find_short(const struct cli_opt *opts, char c)
{
	for (; opts && opts->name; opts++)
		if (opts->shortname == c)
			return opts;
	return NULL;
}

static int set_value(const struct cli_cmd *cmd, const struct cli_opt *o,
		     const char *val)
{
	char *end;

	switch (o->type) {
	case CLI_FLAG:
		*(int *)o->target = 1;
		return 0;
	case CLI_STR:
		*(const char **)o->target = val;
		return 0;
	case CLI_LIST:
		list_add(o->target, val);
		return 0;
	case CLI_INT: {
		long v = strtol(val, &end, 10);

		if (!*val || *end)
			return cli_usage_error(cmd->name, "--%s: '%s' is not an "
					       "integer", o->name, val);
		*(int *)o->target = (int)v;
		return 0;
	}
	case CLI_DOUBLE: {
		double v;

		if (util_parse_double(val, &v))
			return cli_usage_error(cmd->name, "--%s: '%s' is not a "
					       "number", o->name, val);
		*(double *)o->target = v;
		return 0;
	}
	}
	return 0;
}

/* "unknown option '--polcy': did you mean '--policy'?" (issue 35 item
 * 10), the long options of cmd and --help the candidates. */
static int unknown_option(const struct cli_cmd *cmd, const char *a)
{
	const char **names;
	const struct cli_opt *o;
	const char *best = NULL;
	size_t n = 0, len;
	char *want;
	int rc;

	if (a[1] != '-')
		return cli_usage_error(cmd->name, "unknown option '%s'", a);
	len = strcspn(a + 2, "=");
	want = xasprintf("%.*s", (int)len, a + 2);
	for (o = cmd->opts; o && o->name; o++)
		n++;
	names = xcalloc(n + 2, sizeof(*names));
	n = 0;
	for (o = cmd->opts; o && o->name; o++)
		names[n++] = o->name;
	names[n++] = "help";
	if (*want)
		best = util_did_you_mean(want, names, n);
	if (best)
		rc = cli_usage_error(cmd->name, "unknown option '--%s': did you "
				     "mean '--%s'?", want, best);
	else
		rc = cli_usage_error(cmd->name, "unknown option '%s'", a);
	free(names);
	free(want);
	return rc;
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      struct cli_list *pos)
{
	int i, only_pos = 0;

	pos->items = NULL;
	pos->n = 0;
	list_add(pos, NULL);	/* keep items non-NULL */
	pos->n = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct cli_opt *o = NULL;
		const char *val = NULL;

		if (only_pos || a[0] != '-' || !strcmp(a, "-")) {
			list_add(pos, a);
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			if (help_hook)
				help_hook(cmd, help_hook_ctx);
			else
				cli_help(cmd, stdout);
			cli_list_free(pos);
			return 1;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);

			o = find_long(cmd->opts, a + 2, len);
			if (eq)
				val = eq + 1;
		} else if (!a[2]) {
			o = find_short(cmd->opts, a[1]);
		}
		if (!o) {
			cli_list_free(pos);
			return unknown_option(cmd, a);
		}
		if (o->type == CLI_FLAG) {
			if (val) {
				cli_list_free(pos);
				return cli_usage_error(cmd->name, "--%s takes no "
						       "value", o->name);
			}
		} else if (!val) {
			if (i + 1 >= argc) {
				cli_list_free(pos);
				return cli_usage_error(cmd->name, "--%s needs a "
					"value (%s)", o->name,
					o->metavar ? o->metavar : "VALUE");
			}
			val = argv[++i];
		}
		if (set_value(cmd, o, val)) {
			cli_list_free(pos);
			return CLI_USAGE;
		}
	}
	if ((int)pos->n < cmd->min_args ||
	    (cmd->max_args >= 0 && (int)pos->n > cmd->max_args)) {
		cli_list_free(pos);
		return cli_usage_error(cmd->name, "%s arguments (usage: "
				       "perfcorr %s %s)", (int)pos->n <
				       cmd->min_args ? "missing" : "too many",
				       cmd->name, cmd->usage);
	}
	return 0;
}
