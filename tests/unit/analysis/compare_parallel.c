/* Not a test: `compare_parallel FILE...` analyses each file with its statements one after the
 * other and on two threads (gm_analyzer_set_parallel, every run through the runner: threshold
 * 0, jobs handed out last first), opened and after its first `import torch` line is renamed
 * `import torchx` and back (which analyses again what mentions torch), and prints each file
 * whose findings differ, then a summary. Exits 1 when one differs. The check behind the README's
 * "results byte-identical" claim, over a whole library: see issue 17. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#include "analysis_test.h"
#include "thread_runner.h"

static char *read_file(const char *path, uint32_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size >= 0 && size < (1L << 30) ? malloc((size_t)size + 1) : NULL;
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    fclose(f);
    if (text) {
        text[size] = '\0';
        *len = (uint32_t)size;
    }
    return text;
}

static TSPoint point_at(const char *text, uint32_t byte) {
    TSPoint p = {0, 0};
    for (uint32_t i = 0; i < byte; i++) {
        if (text[i] == '\n') {
            p.row++;
            p.column = 0;
        } else {
            p.column++;
        }
    }
    return p;
}

/* Inserts (insert) or removes (!insert) one 'x' at byte at; reparses; tells both analyzers. */
static TSTree *edit_x(char **text, uint32_t *len, uint32_t at, bool insert, TSParser *parser,
                      TSTree *tree, gm_analyzer *a, gm_analyzer *b) {
    TSInputEdit e = {.start_byte = at, .old_end_byte = insert ? at : at + 1,
                     .new_end_byte = insert ? at + 1 : at};
    e.start_point = point_at(*text, at);
    e.old_end_point = point_at(*text, e.old_end_byte);
    char *t = malloc(*len + 2);
    memcpy(t, *text, at);
    if (insert) {
        t[at] = 'x';
        memcpy(t + at + 1, *text + at, *len - at);
        (*len)++;
    } else {
        memcpy(t + at, *text + at + 1, *len - at - 1);
        (*len)--;
    }
    t[*len] = '\0';
    free(*text);
    *text = t;
    e.new_end_point = point_at(*text, e.new_end_byte);
    ts_tree_edit(tree, &e);
    TSTree *next = gm_python_parse(parser, tree, *text, *len);
    gm_tree_delete(tree);
    gm_analyzer_note_edit(a, &e);
    gm_analyzer_note_edit(b, &e);
    return next;
}

static bool same_run(const char *path, const char *step, const char *text, uint32_t len,
                     TSTree *tree, gm_analyzer *sequential, gm_analyzer *parallel) {
    const gm_finding_list *want = gm_analyzer_run(sequential, tree, text, len, NULL);
    const gm_finding_list *got = gm_analyzer_run(parallel, tree, text, len, NULL);
    long at = at_lists_differ_at(want, got);
    if (at >= 0)
        printf("%s: %s: findings differ from number %ld (%zu one after the other, %zu on "
               "threads)\n",
               path, step, at, want->count, got->count);
    return at < 0;
}

int main(int argc, char **argv) {
    long files = 0, differing = 0, unreadable = 0, edited = 0, through_runner = 0;
    tr_runner runner = {.threads = 2, .reversed = true};
    TSParser *parser = gm_python_parser_new(0);
    for (int i = 1; i < argc; i++) {
        uint32_t len;
        char *text = read_file(argv[i], &len);
        TSTree *tree = text ? gm_python_parse(parser, NULL, text, len) : NULL;
        if (!tree) {
            unreadable++;
            free(text);
            continue;
        }
        files++;
        gm_analyzer *sequential = gm_analyzer_new(), *parallel = gm_analyzer_new();
        gm_analyzer_set_parallel(parallel, tr_run_each, &runner);
        gm_analyzer_set_parallel_min_bytes(parallel, 0);
        size_t calls = runner.calls;
        bool same = same_run(argv[i], "opened", text, len, tree, sequential, parallel);
        const char *import = strstr(text, "\nimport torch\n");
        if (import) {
            uint32_t at = (uint32_t)(import - text) + (uint32_t)strlen("\nimport torch");
            edited++;
            tree = edit_x(&text, &len, at, true, parser, tree, sequential, parallel);
            same &= same_run(argv[i], "import torchx", text, len, tree, sequential, parallel);
            tree = edit_x(&text, &len, at, false, parser, tree, sequential, parallel);
            same &= same_run(argv[i], "import torch", text, len, tree, sequential, parallel);
        }
        through_runner += runner.calls > calls;
        differing += !same;
        gm_analyzer_free(sequential);
        gm_analyzer_free(parallel);
        gm_tree_delete(tree);
        free(text);
    }
    ts_parser_delete(parser);
    printf("compare_parallel: %ld files (%ld with an import torch edit, %ld through the runner), "
           "%ld differ, %ld unreadable; %zu runner calls, %zu jobs\n",
           files, edited, through_runner, differing, unreadable, runner.calls, runner.jobs);
    (void)check_exit_code;
    return differing ? 1 : 0;
}
