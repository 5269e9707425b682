/* Colour roles -> curses attributes (see theme.h). */
#include "tui/theme.h"

#include <curses.h>

struct role {
	short fg, bg;
	attr_t color_attr, mono_attr;
};

#define THEME_ROW_(role, f, b, attr, mono) { f, b, attr, mono },
static const struct role roles[TH_COUNT] = {
	THEME_LIST(THEME_ROW_)
};

static attr_t attrs[TH_COUNT];
static int with_color;

void theme_init(int use_color)
{
	with_color = use_color && has_colors() && start_color() == OK;
	if (with_color)
		use_default_colors();
	for (int i = 0; i < TH_COUNT; i++) {
		if (!with_color || i == TH_NORMAL) {
			attrs[i] = roles[i].mono_attr;
			continue;
		}
		init_pair((short)i, roles[i].fg, roles[i].bg);
		attrs[i] = roles[i].color_attr | COLOR_PAIR(i);
	}
}

int theme_has_color(void)
{
	return with_color;
}

unsigned long theme_attr(enum theme_role role)
{
	return role < TH_COUNT ? attrs[role] : A_NORMAL;
}
