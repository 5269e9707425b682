#ifndef PC_TUI_THEME_H
#define PC_TUI_THEME_H
/*
 * The colours, in one X-macro (ncdu's UI_COLORS): for each role a
 * foreground and background for colour terminals and an attribute for
 * monochrome ones (and for NO_COLOR). Code asks for a role, never a
 * colour.
 */

/* T(ROLE, fg, bg, colour attr, monochrome attr) */
#define THEME_LIST(T) \
	T(NORMAL, -1, -1, A_NORMAL, A_NORMAL) \
	T(TITLE, COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE | A_BOLD) \
	T(HEADER, COLOR_CYAN, -1, A_BOLD, A_BOLD) \
	T(COLHEAD, COLOR_YELLOW, -1, A_BOLD, A_UNDERLINE) \
	T(COLSEL, COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_REVERSE | A_UNDERLINE) \
	T(CURSOR, COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE) \
	T(MARK, COLOR_MAGENTA, -1, A_BOLD, A_BOLD) \
	T(MATCH, COLOR_BLACK, COLOR_GREEN, A_BOLD, A_BOLD | A_UNDERLINE) \
	T(SEV_OK, COLOR_GREEN, -1, A_NORMAL, A_NORMAL) \
	T(SEV_WARN, COLOR_YELLOW, -1, A_BOLD, A_BOLD) \
	T(SEV_FAIL, COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE) \
	T(DIM, COLOR_BLUE, -1, A_NORMAL, A_DIM) \
	T(FOOTER, COLOR_WHITE, COLOR_BLUE, A_NORMAL, A_REVERSE) \
	T(FOOTER_KEY, COLOR_YELLOW, COLOR_BLUE, A_BOLD, A_REVERSE | A_BOLD) \
	T(STATUS, -1, -1, A_NORMAL, A_NORMAL) \
	T(ERROR, COLOR_RED, -1, A_BOLD, A_BOLD) \
	T(PLOT, COLOR_CYAN, -1, A_NORMAL, A_NORMAL) \
	T(PLOT_REF, COLOR_YELLOW, -1, A_NORMAL, A_DIM) \
	T(FORM, COLOR_WHITE, COLOR_BLUE, A_NORMAL, A_REVERSE) \
	T(FORM_FIELD, COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_NORMAL)

#define THEME_ENUM_(role, fg, bg, attr, mono) TH_##role,
enum theme_role {
	THEME_LIST(THEME_ENUM_)
	TH_COUNT
};

/* Set up colour pairs; monochrome when use_color is 0 or the terminal
 * has no colours. Call after initscr/newterm. */
void theme_init(int use_color);
/* 1 when colours are in use. */
int theme_has_color(void);
/* The attribute (attr_t bits, colour pair included) for a role. */
unsigned long theme_attr(enum theme_role role);

#endif
