/* The one last-error buffer (see error.h). */
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char last[4096];
static enum pc_cause last_cause;

int pc_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	last_cause = PC_CAUSE_NONE;
	va_start(ap, fmt);
	vsnprintf(last, sizeof(last), fmt, ap);
	va_end(ap);
	return code;
}

void pc_error_prefix(const char *fmt, ...)
{
	char buf[sizeof(last)];
	size_t used;
	int n;
	va_list ap;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 2, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	used = (size_t)n < sizeof(buf) - 2 ? (size_t)n : sizeof(buf) - 3;
	buf[used++] = ':';
	buf[used++] = ' ';
	for (size_t i = 0; last[i] && used < sizeof(buf) - 1; i++)
		buf[used++] = last[i];
	buf[used] = '\0';
	memcpy(last, buf, used + 1);
}

const char *pc_error_last(void)
{
	return last;
}

void pc_error_clear(void)
{
	last[0] = '\0';
	last_cause = PC_CAUSE_NONE;
}

void pc_error_cause(enum pc_cause cause)
{
	last_cause = cause;
}

enum pc_cause pc_error_last_cause(void)
{
	return last_cause;
}
