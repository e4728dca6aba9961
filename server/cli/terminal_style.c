#include "server/cli/terminal_style.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int gm_color_choice_parse(const char *name, gm_color_choice *out) {
    static const char *const names[] = {"auto", "always", "never"};
    for (int i = 0; i < 3; i++) {
        if (strcmp(name, names[i]) == 0) {
            *out = (gm_color_choice)i;
            return 0;
        }
    }
    return -1;
}

bool gm_use_color(gm_color_choice choice, FILE *out) {
    if (choice != GM_COLOR_AUTO) {
        return choice == GM_COLOR_ALWAYS;
    }
    const char *no_color = getenv("NO_COLOR");
    if (no_color && *no_color) {
        return false;
    }
    return isatty(fileno(out)) == 1;
}

const char *gm_style_on(bool color, gm_style style) {
    if (!color) {
        return "";
    }
    switch (style) {
    case GM_STYLE_BOLD:
        return "\033[1m";
    case GM_STYLE_CODE:
        return "\033[1;31m";
    case GM_STYLE_PATH:
        return "\033[1m";
    case GM_STYLE_DIM:
        return "\033[1;34m";
    case GM_STYLE_CARET:
        return "\033[1;31m";
    case GM_STYLE_FIXABLE:
        return "\033[36m";
    case GM_STYLE_HELP:
        return "\033[1;36m";
    }
    return "";
}

const char *gm_style_off(bool color) {
    return color ? "\033[0m" : "";
}
