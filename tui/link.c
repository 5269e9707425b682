/* Open or print an annotation's link (see link.h). */
#include "tui/link.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui/status.h"

static int has_display(void)
{
	const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");

	return (x && *x) || (w && *w);
}

/* fork twice so xdg-open is nobody's child to wait for: the TUI never
 * blocks on a browser. 0 when it started. */
static int spawn(const char *link)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		if (fork() == 0) {
			execlp("xdg-open", "xdg-open", link, (char *)NULL);
			_exit(127);
		}
		_exit(0);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0 ? 0 : -1;
}

void link_open(const char *link)
{
	int web = link && (!strncmp(link, "http://", 7) ||
			   !strncmp(link, "https://", 8));

	if (!link || !*link) {
		status_report("no link in this row's annotation");
		return;
	}
	if (!web) {
		status_report("link (not http/https, not opened): %s", link);
		return;
	}
	if (!has_display()) {
		status_report("link (no display to open it): %s", link);
		return;
	}
	if (spawn(link) < 0)
		status_error("could not start xdg-open; link: %s", link);
	else
		status_report("opening %s (xdg-open)", link);
}
