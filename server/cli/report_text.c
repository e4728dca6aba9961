/* The text formats of the report: ruff's concise line and its full code frame. */
#include <string.h>

#include "server/cli/fixability.h"
#include "server/cli/report.h"
#include "server/cli/terminal_style.h"

/* Lines of context around a finding's first line, as ruff shows (blank ones at the edges left
 * out). */
#define CONTEXT_LINES 2

/* Code points in text[from, to). */
static size_t characters(const char *text, size_t from, size_t to) {
    size_t n = 0;
    for (size_t i = from; i < to; i++) {
        n += ((unsigned char)text[i] & 0xC0) != 0x80;
    }
    return n;
}

static const char *fixable_marker(const gm_file_report *file, const gm_finding *finding) {
    return gm_finding_fixability(finding, file->unsafe_fixes) == GM_FIXABLE ? "[*] " : "";
}

void gm_print_concise(FILE *out, const gm_file_report *file, const gm_finding *finding,
                      bool color) {
    uint32_t row, column;
    gm_report_location(file, finding->span.start_byte, &row, &column);
    fprintf(out, "%s%s%s:%u:%u: %s%s%s %s%s%s%s\n", gm_style_on(color, GM_STYLE_PATH), file->path,
            gm_style_off(color), row, column, gm_style_on(color, GM_STYLE_CODE),
            finding->rule->id, gm_style_off(color), gm_style_on(color, GM_STYLE_FIXABLE),
            fixable_marker(file, finding), gm_style_off(color), finding->message);
}

static bool blank_line(const gm_file_report *file, size_t line) {
    size_t start = file->lines.starts[line];
    size_t end = gm_line_index_line_end(&file->lines, file->text, file->len, line);
    for (size_t i = start; i < end; i++) {
        if (file->text[i] != ' ' && file->text[i] != '\t' && file->text[i] != '\f') {
            return false;
        }
    }
    return true;
}

static int digits(size_t n) {
    int d = 1;
    while (n >= 10) {
        n /= 10;
        d++;
    }
    return d;
}

/* One source line after its number in the gutter, tabs as four spaces (as ruff shows them). */
static void print_source_line(FILE *out, const gm_file_report *file, size_t line, int width,
                              bool color) {
    size_t start = file->lines.starts[line];
    size_t end = gm_line_index_line_end(&file->lines, file->text, file->len, line);
    fprintf(out, "%s%*zu |%s", gm_style_on(color, GM_STYLE_DIM), width, line + 1,
            gm_style_off(color));
    if (end > start) {
        fputc(' ', out);
    }
    for (size_t i = start; i < end; i++) {
        if (file->text[i] == '\t') {
            fputs("    ", out);
        } else {
            fputc(file->text[i], out);
        }
    }
    fputc('\n', out);
}

/* Display columns of text[from, to): characters, a tab four. */
static size_t display_width(const char *text, size_t from, size_t to) {
    size_t tabs = 0;
    for (size_t i = from; i < to; i++) {
        tabs += text[i] == '\t';
    }
    return characters(text, from, to) + 3 * tabs;
}

static void print_gutter(FILE *out, int width, bool color) {
    fprintf(out, "%s%*s |%s", gm_style_on(color, GM_STYLE_DIM), width, "", gm_style_off(color));
}

void gm_print_full(FILE *out, const gm_file_report *file, const gm_finding *finding, bool color) {
    uint32_t row, column;
    gm_report_location(file, finding->span.start_byte, &row, &column);
    fprintf(out, "%s%s%s %s%s%s%s%s%s\n", gm_style_on(color, GM_STYLE_CODE), finding->rule->id,
            gm_style_off(color), gm_style_on(color, GM_STYLE_FIXABLE),
            fixable_marker(file, finding), gm_style_off(color), gm_style_on(color, GM_STYLE_BOLD),
            finding->message, gm_style_off(color));
    size_t line = row - 1;
    size_t first = line >= CONTEXT_LINES ? line - CONTEXT_LINES : 0;
    size_t last = line + CONTEXT_LINES < file->lines.count ? line + CONTEXT_LINES
                                                            : file->lines.count - 1;
    if (last == file->lines.count - 1 && last > line && file->lines.starts[last] >= file->len) {
        last--; /* the empty "line" after a final newline */
    }
    while (first < line && blank_line(file, first)) {
        first++;
    }
    while (last > line && blank_line(file, last)) {
        last--;
    }
    int width = digits(last + 1);
    fprintf(out, "%*s%s-->%s %s:%u:%u\n", width, "", gm_style_on(color, GM_STYLE_DIM),
            gm_style_off(color), file->path, row, column);
    print_gutter(out, width, color);
    fputc('\n', out);
    size_t line_start = file->lines.starts[line];
    size_t line_end = gm_line_index_line_end(&file->lines, file->text, file->len, line);
    size_t span_end = finding->span.end_byte < line_end ? finding->span.end_byte : line_end;
    size_t span_start = finding->span.start_byte < span_end ? finding->span.start_byte : span_end;
    for (size_t i = first; i <= last; i++) {
        print_source_line(out, file, i, width, color);
        if (i != line) {
            continue;
        }
        size_t carets = display_width(file->text, span_start, span_end);
        print_gutter(out, width, color);
        fprintf(out, " %*s%s", (int)display_width(file->text, line_start, span_start), "",
                gm_style_on(color, GM_STYLE_CARET));
        for (size_t c = 0; c < (carets ? carets : 1); c++) {
            fputc('^', out);
        }
        fprintf(out, "%s\n", gm_style_off(color));
    }
    print_gutter(out, width, color);
    fputc('\n', out);
    const gm_fix *fix = gm_report_primary_fix(finding);
    if (fix) {
        fprintf(out, "%shelp:%s %s\n", gm_style_on(color, GM_STYLE_HELP), gm_style_off(color),
                fix->title);
        if (fix->applicability == GM_FIX_UNSAFE) {
            fprintf(out, "%snote:%s This is an unsafe fix and may change runtime behavior\n",
                    gm_style_on(color, GM_STYLE_HELP), gm_style_off(color));
        }
    }
    fputc('\n', out);
}
