#ifndef PC_SRC_CMD_BUNDLE_H
#define PC_SRC_CMD_BUNDLE_H
/*
 * perfcorr bundle's files (src/cmd/bundle_files.c): finding a run's input
 * files by their sha256 under the --inputs directories, and placing them
 * in the bundle's inputs/ under unique names. A finder owns its paths.
 */
#include <stddef.h>

struct bundle_file {
	char *path;		/* where it was found */
	char hex[65];		/* its sha256 */
	char *name;		/* its name in the bundle (inputs/NAME) when
				   placed, else NULL */
};

struct bundle_finder {
	struct bundle_file *f;
	size_t n;
	char *out;		/* the bundle directory */
	unsigned long long out_dev, out_ino;	/* never walked into */
};

/* Every regular file under each directory of dirs (recursively, symbolic
 * links to files followed), hashed. PC_EIO naming a directory that cannot
 * be read. */
int bundle_find_init(struct bundle_finder *b, const char *const *dirs,
		     const char *out);
void bundle_find_release(struct bundle_finder *b);
/* The file with sha256 hex, or NULL. */
struct bundle_file *bundle_find(struct bundle_finder *b, const char *hex);
/* The file named name (base name) whose bytes after those of the file at
 * spec give sha256 hex (a roofline run hashes its spec and ops files
 * together), or NULL. */
struct bundle_file *bundle_find_pair(struct bundle_finder *b,
				     const struct bundle_file *spec,
				     const char *name, const char *hex);
/* Copy f into OUT/inputs/ under its own base name, or "N-NAME" when a
 * different file took the name; f->name set. Once per file. */
int bundle_place(struct bundle_finder *b, struct bundle_file *f);
/* Copy the file at src to dst (created, 0644). */
int bundle_copy(const char *src, const char *dst);

#endif
