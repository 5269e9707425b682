#ifndef PC_TUI_LINK_H
#define PC_TUI_LINK_H
/*
 * Open an annotation's link: with a display ($DISPLAY or
 * $WAYLAND_DISPLAY) and an http(s) link, `xdg-open LINK` runs detached
 * (no shell, its output to /dev/null); otherwise the link is printed on
 * the status line to copy. Says what it did on the status line.
 */

void link_open(const char *link);

#endif
