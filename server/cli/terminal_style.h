/* Colour on a terminal: --color auto|always|never, NO_COLOR, and the escapes the reports use. */
#ifndef GM_SERVER_CLI_TERMINAL_STYLE_H
#define GM_SERVER_CLI_TERMINAL_STYLE_H

#include <stdbool.h>
#include <stdio.h>

typedef enum { GM_COLOR_AUTO, GM_COLOR_ALWAYS, GM_COLOR_NEVER } gm_color_choice;

typedef enum {
    GM_STYLE_BOLD,
    GM_STYLE_CODE,     /* a rule id */
    GM_STYLE_PATH,     /* a file name */
    GM_STYLE_DIM,      /* line numbers and gutters */
    GM_STYLE_CARET,    /* the span under a finding */
    GM_STYLE_FIXABLE,  /* the [*] marker */
    GM_STYLE_HELP,     /* "help:" */
} gm_style;

int gm_color_choice_parse(const char *name, gm_color_choice *out); /* 0, or -1 */

/* Whether to colour what goes to out: always; never; auto: when out is a terminal and NO_COLOR
 * is unset or empty (https://no-color.org). --color always beats NO_COLOR, as in ruff. */
bool gm_use_color(gm_color_choice choice, FILE *out);

/* The escape that starts style, and the one that ends any; "" when colour is off. */
const char *gm_style_on(bool color, gm_style style);
const char *gm_style_off(bool color);

#endif
