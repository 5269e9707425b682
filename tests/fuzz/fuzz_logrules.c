/* REQUIRES: importers/imp_regex_log.c */
/*
 * Fuzz the regex-log rules file (importers/imp_regex_log.c): the input is
 * the rules JSON, handed over as /proc/self/fd/N of a memfd, applied to
 * a small fixed log. Rule regexes are compiled with glibc's regcomp, so
 * this also guards the util_regex_too_big() limit.
 */
#define _GNU_SOURCE	/* memfd_create */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "importers/importer.h"
#include "src/base/error.h"

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
	struct imp_sink sink = { emit, meta, warn, NULL };
	struct imp_input in;
	char opt[64];
	const char *opts[2] = { opt, NULL };
	FILE *fp;
	int fd;

	if (!imp || size > 65536)
		return 0;
	fd = memfd_create("rules", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(opt, sizeof(opt), "rules=/proc/self/fd/%d", fd);
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
	close(fd);
	pc_error_clear();
	return 0;
}
