/* The one last-error buffer (see error.h). */
#include "src/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char last[4096];

int pc_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last, sizeof(last), fmt, ap);
	va_end(ap);
	return code;
}

void pc_error_prefix(const char *fmt, ...)
{
	char prefix[1024], old[sizeof(last)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, last, sizeof(old));
	snprintf(last, sizeof(last), "%s: %s", prefix, old);
}

const char *pc_error_last(void)
{
	return last;
}

void pc_error_clear(void)
{
	last[0] = '\0';
}
