/* Run fuzz inputs (files, or every file of a directory) once each. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!fp) {
		fprintf(stderr, "replay: cannot open '%s'\n", path);
		return 1;
	}
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		fprintf(stderr, "replay: cannot read '%s'\n", path);
		fclose(fp);
		free(buf);
		return 1;
	}
	fclose(fp);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

static int run_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int bad = 0;

	if (!d) {
		fprintf(stderr, "replay: cannot open '%s'\n", dir);
		return 1;
	}
	while ((e = readdir(d))) {
		char path[4096];
		struct stat sb;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
			continue;
		bad |= run_file(path);
		(*count)++;
	}
	closedir(d);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0, count = 0;

	for (int i = 1; i < argc; i++) {
		struct stat sb;

		if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			bad |= run_dir(argv[i], &count);
		} else {
			bad |= run_file(argv[i]);
			count++;
		}
	}
	printf("replayed %d inputs\n", count);
	return bad || count == 0;
}
