/* REQUIRES: importers/imp_regex_log.c */
/*
 * Fuzz the regex-log rules file (importers/imp_regex_log.c): the input is
 * the rules JSON, written to a temporary file (mkstemp, POSIX) and
 * applied to a small fixed log. Rule regexes are compiled with glibc's
 * regcomp, so this also guards the util_regex_too_big() limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "importers/importer.h"
#include "base/error.h"

static int emit(struct imp_sink *s, const struct imp_record *r)
{
	(void)s;
	return r->metric && r->metric[0] == '\0' ? -1 : 0;
}

static int meta(struct imp_sink *s, const char *key, const char *value)
{
	(void)s;
	(void)key;
	(void)value;
	return 0;
}

static void warn(struct imp_sink *s, const char *fmt, ...)
{
	(void)s;
	(void)fmt;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char log[] = "test gemm_0 passed in 12.5 us\n"
		"cycles: 1234\nTOTAL time 3 ms op=attn\n";
	const struct importer *imp = importer_find("regex-log");
	struct imp_sink sink = { .emit = emit, .meta = meta, .warn = warn,
				 .ctx = NULL };
	struct imp_input in;
	char path[] = "/tmp/perfcorr-fuzz-rules-XXXXXX";
	char opt[sizeof(path) + 8];
	const char *opts[2] = { opt, NULL };
	FILE *fp;
	ssize_t written;
	int fd;

	if (!imp || size > 65536)
		return 0;
	fd = mkstemp(path);
	if (fd < 0)
		return 0;
	written = write(fd, data, size);
	if (close(fd) != 0 || written != (ssize_t)size) {
		unlink(path);
		return 0;
	}
	snprintf(opt, sizeof(opt), "rules=%s", path);
	fp = fmemopen((void *)log, sizeof(log) - 1, "rb");
	if (fp) {
		memset(&in, 0, sizeof(in));
		in.fp = fp;
		in.path = "fuzz.log";
		in.size = (long long)sizeof(log) - 1;
		in.opts = opts;
		(void)imp->import(&in, &sink);
		fclose(fp);
	}
	unlink(path);
	pc_error_clear();
	return 0;
}
