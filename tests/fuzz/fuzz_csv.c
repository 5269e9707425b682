/* Fuzz the shared CSV reader (importers/csv.c) and its number parsing. */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "base/csv.h"
#include "base/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char seps[] = ",;\t|";
	struct csv c;
	FILE *fp;
	double d;

	if (size < 2)
		return 0;
	/* byte 0 picks the dialect: separator, trimming, a small limit */
	fp = fmemopen((void *)(data + 1), size - 1, "rb");
	if (!fp)
		return 0;
	csv_init(&c, fp, "fuzz.csv");
	c.sep = seps[data[0] & 3];
	c.trim_space = (data[0] >> 2) & 1;
	if (data[0] & 8)
		c.max_record = 64;
	while (csv_read(&c) > 0) {
		(void)csv_blank(&c);
		(void)csv_col(&c, "value");
		(void)csv_offset(&c);
		for (size_t i = 0; i < c.nfields; i++) {
			(void)csv_is_missing(c.fields[i]);
			(void)csv_number(c.fields[i], &d);
		}
	}
	csv_release(&c);
	fclose(fp);
	pc_error_clear();
	return 0;
}
