/* Screen dumps (:save-screen) and key timing (PERFCORR_TIMING). */
#include "tui/record.h"

#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/error.h"
#include "base/util.h"
#include "tui/keys.h"

int record_screen(const char *path)
{
	FILE *fp = fopen(path, "w");
	wchar_t *wbuf = xmalloc(((size_t)COLS + 1) * sizeof(*wbuf));
	char *line = xmalloc(((size_t)COLS + 1) * MB_LEN_MAX + 1);

	if (!fp) {
		free(wbuf);
		free(line);
		return pc_error_set(PC_EIO, "cannot write '%s'", path);
	}
	for (int y = 0; y < LINES; y++) {
		size_t len = 0;
		mbstate_t st;

		memset(&st, 0, sizeof(st));
		if (mvinnwstr(y, 0, wbuf, COLS) == ERR)
			wbuf[0] = L'\0';
		for (int i = 0; wbuf[i]; i++) {
			size_t n = wcrtomb(line + len, wbuf[i], &st);

			if (n == (size_t)-1)
				line[len++] = '?';
			else
				len += n;
		}
		while (len > 0 && line[len - 1] == ' ')
			len--;
		line[len] = '\0';
		fprintf(fp, "%s\n", line);
	}
	free(wbuf);
	free(line);
	if (fclose(fp) != 0)
		return pc_error_set(PC_EIO, "cannot write '%s'", path);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Key timing for the benchmark: PERFCORR_TIMING=FILE. */
void record_key(struct record *r, int key, double ms, double cpu)
{
	char name[32];

	if (!r->timing)
		return;
	if (key >= ACT_BASE)
		snprintf(name, sizeof(name), ":%s", keys_action_name(key));
	else
		keys_name(key, name, sizeof(name));
	r->lat = xrealloc(r->lat, (r->nlat + 1) * sizeof(*r->lat));
	r->latc = xrealloc(r->latc, (r->nlat + 1) * sizeof(*r->latc));
	r->latc[r->nlat] = cpu;
	r->lat[r->nlat++] = ms;
	fprintf(r->timing, "key %s %.3f cpu %.3f\n", name, ms, cpu);
}

static void timing_summary(FILE *fp, const char *what, const double *v,
			   size_t n)
{
	double *s = xmalloc(n * sizeof(*s));

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	fprintf(fp, "%s keys %zu p50_ms %.3f p95_ms %.3f max_ms %.3f\n", what,
		n, s[n / 2], s[(size_t)((double)(n - 1) * 0.95)], s[n - 1]);
	free(s);
}

void record_done(struct record *r)
{
	if (!r->timing)
		return;
	if (r->nlat) {
		timing_summary(r->timing, "cpu", r->latc, r->nlat);
		timing_summary(r->timing, "wall", r->lat, r->nlat);
	}
	fclose(r->timing);
	r->timing = NULL;
	free(r->lat);
	free(r->latc);
}

