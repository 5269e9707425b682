/*
 * perfcorr __complete WORD... : the shell completion engine.
 *
 * The words are the command line after "perfcorr" up to the cursor, the
 * last one being the word being completed (maybe ""). Prints the
 * candidates that start with it, one per line, or a single directive
 * line ":files" / ":dirs" asking the shell to complete a path. The
 * scripts in dist/completion/ are thin wrappers around this, so commands
 * and options come from the same tables as --help, and values from what
 * perfcorr knows: the importer registry, annotation statuses and
 * categories, the enumerations in the options' help ("table (default),
 * csv or json"), and the current database (sources, SRC@VERSION,
 * metrics, ops, workloads, parameters). Never writes; a missing or
 * unreadable database just completes nothing from it.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/db.h"
#include "db/names.h"
#include "importers/importer.h"
#include "base/util.h"
#include "src/cmd/meta.h"

struct cctx {
	const char *cur;	/* the word being completed */
	const char *emit_prefix;	/* printed before each candidate */
	struct db *db;
	int db_tried;
};

static void emit(struct cctx *x, const char *s)
{
	if (strncmp(s, x->cur, strlen(x->cur)) || strchr(s, '\n'))
		return;
	printf("%s%s\n", x->emit_prefix, s);
}

static void emit_cb(const char *s, void *ctx)
{
	emit(ctx, s);
}

static struct db *open_db(struct cctx *x)
{
	if (!x->db_tried) {
		x->db_tried = 1;
		if (db_open(&x->db, cli_db_path(), DB_READONLY) < 0)
			x->db = NULL;
	}
	return x->db;
}

static void emit_names(struct cctx *x, enum db_names_kind k, const char *arg)
{
	struct db *db = open_db(x);

	if (db)
		db_names(db, k, arg, x->cur, emit_cb, x);
}

/* "SRC" or "SRC@V" (or "SRC@A..B" when ranges are allowed). */
struct ver_ctx {
	struct cctx *x;
	const char *head;	/* "src@" or "src@a.." */
	const char *tail;	/* after the name, or NULL */
};

static void emit_version(const char *v, void *ctx)
{
	struct ver_ctx *vc = ctx;
	char *s = xasprintf("%s%s%s", vc->head, v, vc->tail ? vc->tail : "");

	emit(vc->x, s);
	free(s);
}

struct one_ctx {
	int n;
	char *name;
};

static void count_source(const char *s, void *ctx)
{
	struct one_ctx *o = ctx;

	if (!o->n++)
		o->name = xstrdup(s);
}

static void complete_source(struct cctx *x, const char *metavar)
{
	int versions = metavar && strchr(metavar, '@');
	const char *at = strchr(x->cur, '@');
	struct db *db = open_db(x);
	struct ver_ctx vc = { x, NULL, NULL };
	struct one_ctx one = { 0, NULL };

	if (!db)
		return;
	if (!versions || !at) {
		db_names(db, DB_NAMES_SOURCES, NULL, x->cur, emit_cb, x);
		if (!versions)
			return;
		/* One source left: offer its versions too, so the shell
		 * stops after the name instead of adding a space. */
		db_names(db, DB_NAMES_SOURCES, NULL, x->cur, count_source, &one);
		if (one.n == 1) {
			char *head = xasprintf("%s@", one.name);

			vc.head = head;
			db_names(db, DB_NAMES_VERSIONS, one.name, "",
				 emit_version, &vc);
			free(head);
		}
		free(one.name);
		return;
	}
	{
		char *src = xstrndup(x->cur, (size_t)(at - x->cur));
		const char *dots = strstr(at, "..");
		char *head;

		if (dots && strstr(metavar, ".."))
			head = xstrndup(x->cur, (size_t)(dots + 2 - x->cur));
		else
			head = xstrndup(x->cur, (size_t)(at + 1 - x->cur));
		vc.head = head;
		db_names(db, DB_NAMES_VERSIONS, src, x->cur + strlen(head),
			 emit_version, &vc);
		free(head);
		free(src);
	}
}

/* param.NAME=VALUE: the parameter names, then that parameter's values. */
static void complete_where(struct cctx *x)
{
	const char *eq = strchr(x->cur, '=');
	struct db *db = open_db(x);
	struct ver_ctx vc = { x, "param.", "=" };

	if (!db)
		return;
	if (!eq) {
		db_names(db, DB_NAMES_PARAMS, NULL, strncmp(x->cur, "param.",
			 6) ? "" : x->cur + 6, emit_version, &vc);
		return;
	}
	{
		char *head = xstrndup(x->cur, (size_t)(eq + 1 - x->cur));
		char *name = xstrndup(x->cur, (size_t)(eq - x->cur));

		vc.head = head;
		vc.tail = "";
		db_names(db, DB_NAMES_PARAM_VALUES, strncmp(name, "param.", 6) ?
			 name : name + 6, eq + 1, emit_version, &vc);
		free(name);
		free(head);
	}
}

/* Leading lowercase words of a help text listed as "a, b or c" (each may
 * be followed by "(default)"): an option's value set. Returns how many
 * (0 when fewer than two: "model side ..." is no list). */
static int help_enum(const char *s, char words[][32], int max)
{
	int n = 0;

	while (n < max) {
		size_t len = 0;

		while ((s[len] >= 'a' && s[len] <= 'z') ||
		       (s[len] >= '0' && s[len] <= '9') || s[len] == '-' ||
		       s[len] == '_')
			len++;
		if (!len || len >= 32)
			break;
		memcpy(words[n], s, len);
		words[n++][len] = '\0';
		s += len;
		if (!strncmp(s, " (default)", 10))
			s += 10;
		if (!strncmp(s, ", or ", 5))
			s += 5;
		else if (!strncmp(s, ", ", 2))
			s += 2;
		else if (!strncmp(s, " or ", 4))
			s += 4;
		else
			break;
	}
	return n >= 2 ? n : 0;
}

/* "--NAME a|b|c" in a usage line. */
static int usage_enum(const char *usage, const char *name, char words[][32],
		      int max)
{
	char *key = xasprintf("--%s ", name);
	const char *p = usage ? strstr(usage, key) : NULL;
	int n = 0;

	if (p) {
		p += strlen(key);
		if (p[strcspn(p, " ]|")] == '|') {
			while (n < max) {
				size_t len = strcspn(p, " ]|");

				if (!len || len >= 32)
					break;
				memcpy(words[n], p, len);
				words[n++][len] = '\0';
				if (p[len] != '|')
					break;
				p += len + 1;
			}
		}
	}
	free(key);
	return n >= 2 ? n : 0;
}

static int metavar_has(const struct cli_opt *o, const char *what)
{
	return o->metavar && strstr(o->metavar, what);
}

static void complete_value(struct cctx *x, const struct cli_cmd *spec,
			   const struct cli_opt *o)
{
	const char *n = o->name;
	char words[32][32];
	int nw;

	if (metavar_has(o, "DIR")) {
		printf(":dirs\n");
	} else if (metavar_has(o, "FILE") || metavar_has(o, "PATH") ||
		   metavar_has(o, ".json") || metavar_has(o, ".csv")) {
		printf(":files\n");
	} else if (!strcmp(n, "model") || !strcmp(n, "ref") ||
		   !strcmp(n, "source")) {
		complete_source(x, o->metavar);
	} else if (!strcmp(n, "metric")) {
		emit_names(x, DB_NAMES_METRICS, NULL);
	} else if (!strcmp(n, "op")) {
		emit_names(x, DB_NAMES_OPS, NULL);
	} else if (!strcmp(n, "workload")) {
		emit_names(x, DB_NAMES_WORKLOADS, NULL);
	} else if (!strcmp(n, "status")) {
		for (int i = 0; db_annot_statuses[i]; i++)
			emit(x, db_annot_statuses[i]);
	} else if (!strcmp(n, "category")) {
		for (int i = 0; db_annot_categories[i]; i++)
			emit(x, db_annot_categories[i]);
	} else if (!strcmp(n, "where")) {
		complete_where(x);
	} else if (o->help && strstr(o->help, "importer") &&
		   !strcmp(n, "format")) {
		emit(x, "auto");
		for (int i = 0; importers[i]; i++)
			emit(x, importers[i]->name);
	} else if (!strcmp(n, "group-by") || !strcmp(n, "features")) {
		const char *fixed[] = { "op", "op_class", "metric",
					"workload", NULL };
		struct ver_ctx vc = { x, "param.", NULL };
		struct db *db = open_db(x);

		for (int i = 0; fixed[i]; i++)
			emit(x, fixed[i]);
		if (db && !strncmp(x->cur, "param.", 6))
			db_names(db, DB_NAMES_PARAMS, NULL, x->cur + 6,
				 emit_version, &vc);
		else if (db)
			db_names(db, DB_NAMES_PARAMS, NULL, "", emit_version,
				 &vc);
	} else if ((nw = help_enum(o->help, words, 32)) ||
		   (nw = usage_enum(spec->usage, n, words, 32))) {
		for (int i = 0; i < nw; i++)
			emit(x, words[i]);
	}
}

/* Positional words: paths when the usage takes FILE or DIR, else the
 * literal lowercase words of the usage outside brackets ("results"). */
static void complete_positional(struct cctx *x, const struct cli_cmd *spec,
				int npos)
{
	const char *u = spec->usage;
	int depth = 0, after_opt = 0;

	if (spec->max_args >= 0 && npos >= spec->max_args)
		return;
	if (strstr(u, "FILE")) {
		printf(":files\n");
		return;
	}
	if (strstr(u, "DIR")) {
		printf(":dirs\n");
		return;
	}
	while (*u) {
		size_t len = strcspn(u, " []|");
		int lower = len > 0;

		for (size_t i = 0; i < len; i++)
			if (u[i] < 'a' || u[i] > 'z')
				lower = 0;
		if (lower && !depth && !after_opt) {
			char *w = xstrndup(u, len);

			emit(x, w);
			free(w);
		}
		if (len)
			after_opt = u[0] == '-';
		u += len;
		if (*u == '[')
			depth++;
		else if (*u == ']' && depth)
			depth--;
		if (*u)
			u++;
	}
}

static const struct cli_opt *find_opt(const struct cli_opt *opts,
				      const char *word, size_t len)
{
	for (; opts && opts->name; opts++) {
		if (word[1] == '-' && strlen(opts->name) == len - 2 &&
		    !strncmp(opts->name, word + 2, len - 2))
			return opts;
		if (word[1] != '-' && len == 2 && opts->shortname == word[1])
			return opts;
	}
	return NULL;
}

static void complete_command(struct cctx *x, const struct command *c,
			     char **w, int n)
{
	const struct cli_cmd *spec = meta_spec(c);
	const struct cli_opt *o;
	int only_pos = 0, npos = 0;
	char *used;

	if (!spec)
		return;
	used = xcalloc(64, 1);
	/* Walk the words before the cursor: is it an option's value? */
	for (int j = 0; j < n - 1; j++) {
		const char *a = w[j];

		if (only_pos || a[0] != '-' || !strcmp(a, "-")) {
			npos++;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		o = find_opt(spec->opts, a, strcspn(a, "="));
		if (!o)
			continue;
		if (o - spec->opts < 64)
			used[o - spec->opts] = 1;
		if (o->type != CLI_FLAG && !strchr(a, '=')) {
			if (j + 1 == n - 1) {
				complete_value(x, spec, o);
				free(used);
				return;
			}
			j++;
		}
	}
	if (!only_pos && x->cur[0] == '-') {
		const char *eq = strchr(x->cur, '=');

		if (eq && x->cur[1] == '-' &&
		    (o = find_opt(spec->opts, x->cur, (size_t)(eq - x->cur))) &&
		    o->type != CLI_FLAG) {
			char *head = xstrndup(x->cur, (size_t)(eq + 1 - x->cur));

			x->emit_prefix = head;
			x->cur = eq + 1;
			complete_value(x, spec, o);
			free(head);
		} else {
			for (o = spec->opts; o && o->name; o++) {
				char *s;

				if (o - spec->opts < 64 && used[o - spec->opts] &&
				    o->type != CLI_LIST)
					continue;
				s = xasprintf("--%s", o->name);
				emit(x, s);
				free(s);
			}
			emit(x, "--help");
		}
	} else {
		complete_positional(x, spec, npos);
	}
	free(used);
}

/* `help policy`, `help manifest`: the section-5 pages next to the binary. */
static void help_topics(struct cctx *x)
{
	const char *mandir = meta_mandir();
	char *dir;
	DIR *d;
	struct dirent *e;

	if (!mandir)
		return;
	dir = xasprintf("%s/man5", mandir);
	if ((d = opendir(dir))) {
		while ((e = readdir(d))) {
			const char *n = e->d_name;
			size_t len = strcspn(n, ".");

			if (!strncmp(n, "perfcorr-", 9) && len > 9) {
				char *topic = xstrndup(n + 9, len - 9);

				emit(x, topic);
				free(topic);
			}
		}
		closedir(d);
	}
	free(dir);
}

int complete_main(int argc, char **argv)
{
	struct cctx x = { "", "", NULL, 0 };
	char **w = argv + 1;
	int n = argc - 1, i = 0;

	if (n > 0)
		x.cur = w[n - 1];
	/* Global options before the command (--db sets the database). */
	while (i < n - 1 && w[i][0] == '-') {
		if (!strcmp(w[i], "--db") && i + 1 < n - 1) {
			cli_set_db_path(w[i + 1]);
			i += 2;
			continue;
		}
		if (!strncmp(w[i], "--db=", 5))
			cli_set_db_path(w[i] + 5);
		i++;
	}
	if (i > 0 && !strcmp(w[i - 1], "--db") && i == n - 1) {
		printf(":files\n");
		return CLI_OK;
	}
	if (i >= n - 1) {
		if (x.cur[0] == '-') {
			for (const struct cli_opt *o = meta_global_opts;
			     o->name; o++) {
				char *s = xasprintf("--%s", o->name);

				emit(&x, s);
				free(s);
			}
			emit(&x, "--help");
		} else {
			for (const struct command *c = cmd_table; c->name; c++)
				emit(&x, c->name);
			emit(&x, "help");
		}
	} else if (!strcmp(w[i], "help")) {
		if (i + 1 == n - 1) {
			for (const struct command *c = cmd_table; c->name; c++)
				emit(&x, c->name);
			help_topics(&x);
		}
	} else {
		const struct command *c = meta_find(w[i]);

		if (c)
			complete_command(&x, c, w + i + 1, n - i - 1);
	}
	if (x.db)
		db_close(x.db);
	fflush(stdout);
	return CLI_OK;
}
