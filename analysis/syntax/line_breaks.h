/* Where lines of Python source end: at "\n", "\r\n" or a lone "\r", as CPython and LSP count
 * them. */
#ifndef GM_ANALYSIS_SYNTAX_LINE_BREAKS_H
#define GM_ANALYSIS_SYNTAX_LINE_BREAKS_H

#include <stdbool.h>
#include <stdint.h>

/* Whether text[at] ends a line: a "\n" (alone or after "\r") or a "\r" no "\n" follows. */
static inline bool gm_ends_line(const char *text, uint32_t len, uint32_t at) {
    return text[at] == '\n' || (text[at] == '\r' && (at + 1 >= len || text[at + 1] != '\n'));
}

/* The line break that starts at text[at] ("\r\n", "\r" or "\n"); "\n" at the end of text. */
static inline const char *gm_line_break_at(const char *text, uint32_t len, uint32_t at) {
    if (at < len && text[at] == '\r')
        return at + 1 < len && text[at + 1] == '\n' ? "\r\n" : "\r";
    return "\n";
}

#endif
