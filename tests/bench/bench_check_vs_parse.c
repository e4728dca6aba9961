/* Benchmark (not a test): what the analysis adds to parsing, over a real source tree.
 *
 *   bench_check_vs_parse [--reps N] [--cli GRAPHMEND] [--cli-reps N] [--no-header] DIR
 *
 * Reads every *.py under DIR (hidden directories, __pycache__ and node_modules skipped, as
 * `graphmend check` does) into memory, then, N times (default 5): (a) parses each file with
 * tree-sitter-python and deletes the tree; (b) parses each file and runs a fresh analyzer on it
 * (gm_analyzer_new + gm_analyzer_run + gm_analyzer_free: a cold, whole-file analysis, as the CLI
 * does). (a) and (b) alternate file by file and are timed in this thread's CPU time, so the load
 * of other processes on a shared machine enters neither. Prints a table with the medians (of
 * the per-repetition sums) and the ratio (b)/(a); the target is <= 1.5. File reading is outside
 * both timings. With --cli, also times `GRAPHMEND check --output-format json
 * DIR` end to end (process start, reading, any workspace indexing, JSON written to /dev/null),
 * median of --cli-reps runs (default N), and prints its ratio to the same parse time. With
 * --walks, also times one walk over every named node of each tree, by index
 * (ts_node_named_child) and with one cursor, as a yardstick: what any pass of the analysis that
 * looks at every node costs at least, next to the parse. */
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "analysis/analyzer.h"
#include "analysis/syntax/python_parser.h"
#include "bench_files.h"

typedef struct {
    char *path;
    char *text;
    size_t len;
} source_file;

typedef struct {
    source_file *items;
    size_t count;
    size_t cap;
} file_list;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The CPU time of this thread: on a shared machine other processes' load does not enter it
 * (wall time under a load of 4 on 2 cores moves the ratio by 0.4). */
static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned long walk_sink; /* keeps the walks from being optimised away */

static void walk_by_index(TSNode n, int depth) {
    walk_sink += ts_node_symbol(n);
    uint32_t count = depth < 1000 ? ts_node_named_child_count(n) : 0;
    for (uint32_t i = 0; i < count; i++)
        walk_by_index(ts_node_named_child(n, i), depth + 1);
}

static void walk_by_cursor(TSNode root) {
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cursor);
        if (ts_node_is_named(n))
            walk_sink += ts_node_symbol(n);
        if (ts_tree_cursor_goto_first_child(&cursor))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&cursor))
            if (!ts_tree_cursor_goto_parent(&cursor)) {
                ts_tree_cursor_delete(&cursor);
                return;
            }
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_file(const void *a, const void *b) {
    return strcmp(((const source_file *)a)->path, ((const source_file *)b)->path);
}


static int ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void walk(const char *dir, file_list *files) {
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (name[0] == '.' || strcmp(name, "__pycache__") == 0 || strcmp(name, "node_modules") == 0)
            continue;
        size_t n = strlen(dir) + strlen(name) + 2;
        char *path = malloc(n);
        snprintf(path, n, "%s/%s", dir, name);
        struct stat st;
        if (stat(path, &st) != 0) {
            free(path);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            walk(path, files);
            free(path);
        } else if (S_ISREG(st.st_mode) && ends_with(name, ".py")) {
            size_t len = 0;
            char *text = bench_read_file(path, &len);
            if (!text) {
                free(path);
                continue;
            }
            if (files->count == files->cap) {
                files->cap = files->cap ? files->cap * 2 : 256;
                files->items = realloc(files->items, files->cap * sizeof *files->items);
            }
            files->items[files->count++] = (source_file){path, text, len};
        } else {
            free(path);
        }
    }
    closedir(d);
}

extern char **environ;

/* Runs argv with stdout and stderr on /dev/null; returns its wall time, or -1 (and its exit
 * status in *status) when it could not run. `graphmend check` exits 1 when it found breaks. */
static double time_command(char *const argv[], int *status) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    double t0 = now_s();
    int rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        *status = -1;
        return -1;
    }
    int wstatus = 0;
    if (waitpid(pid, &wstatus, 0) < 0) {
        *status = -1;
        return -1;
    }
    double elapsed = now_s() - t0;
    *status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    return (*status == 0 || *status == 1) ? elapsed : -1;
}

int main(int argc, char **argv) {
    int reps = 5;
    int header = 1;
    const char *dir = NULL;
    const char *cli = NULL;
    int cli_reps = 0;
    int walks = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--cli-reps") == 0 && i + 1 < argc) {
            cli_reps = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--cli") == 0 && i + 1 < argc) {
            cli = argv[++i];
        } else if (strcmp(argv[i], "--no-header") == 0) {
            header = 0;
        } else if (strcmp(argv[i], "--walks") == 0) {
            walks = 1;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench_check_vs_parse [--reps N] [--cli GRAPHMEND] [--cli-reps "
                            "N] [--no-header] [--walks] DIR\n");
            return 2;
        } else {
            dir = argv[i];
        }
    }
    if (!dir || reps < 1) {
        fprintf(stderr, "usage: bench_check_vs_parse [--reps N] [--cli GRAPHMEND] [--cli-reps N] "
                        "[--no-header] [--walks] DIR\n");
        return 2;
    }
    file_list files = {0};
    walk(dir, &files);
    if (files.count == 0) {
        fprintf(stderr, "bench_check_vs_parse: no .py files under %s\n", dir);
        return 1;
    }
    qsort(files.items, files.count, sizeof *files.items, cmp_file);
    size_t bytes = 0, lines = 0;
    for (size_t i = 0; i < files.count; i++) {
        bytes += files.items[i].len;
        for (size_t j = 0; j < files.items[i].len; j++)
            lines += files.items[i].text[j] == '\n';
    }

    TSParser *parser = gm_python_parser_new(0);
    if (!parser) {
        fprintf(stderr, "bench_check_vs_parse: cannot create the Python parser\n");
        return 1;
    }
    double *parse_s = calloc((size_t)reps, sizeof *parse_s);
    double *both_s = calloc((size_t)reps, sizeof *both_s);
    size_t findings = 0, failed = 0;
    for (int r = 0; r < reps; r++) {
        size_t found = 0;
        double parse_sum = 0, both_sum = 0;
        failed = 0;
        for (size_t i = 0; i < files.count; i++) {
            /* the two passes over a file alternate which goes first, so neither always finds
             * the text in cache */
            for (int pass = 0; pass < 2; pass++) {
                bool analyse = (pass == 0) == ((i + (size_t)r) % 2 == 0);
                double t0 = cpu_s();
                TSTree *tree =
                    gm_python_parse(parser, NULL, files.items[i].text, files.items[i].len);
                if (!tree) {
                    failed += analyse;
                    continue;
                }
                if (analyse) {
                    gm_analyzer *analyzer = gm_analyzer_new();
                    const gm_finding_list *list = gm_analyzer_run(
                        analyzer, tree, files.items[i].text, files.items[i].len, NULL);
                    found += list ? list->count : 0;
                    gm_analyzer_free(analyzer);
                }
                gm_tree_delete(tree);
                double spent = cpu_s() - t0;
                if (analyse)
                    both_sum += spent;
                else
                    parse_sum += spent;
            }
        }
        parse_s[r] = parse_sum;
        both_s[r] = both_sum;
        findings = found;
    }
    qsort(parse_s, (size_t)reps, sizeof *parse_s, cmp_double);
    qsort(both_s, (size_t)reps, sizeof *both_s, cmp_double);
    double parse = parse_s[reps / 2], both = both_s[reps / 2];
    double ratio = parse > 0 ? both / parse : 0;

    if (header) {
        printf("tree: %s\n\n", dir);
        printf(
            "| measure | files | lines | MB | findings | parse (CPU, median of %d) | parse + analysis | "
            "analysis alone | ratio to parse | target <= 1.5 |\n",
            reps);
        printf("|---|---|---|---|---|---|---|---|---|---|\n");
    }
    printf("| in process: parse vs parse + gm_analyzer_run | %zu | %zu | %.1f | %zu | %.2f s | "
           "%.2f s | "
           "%.2f s | %.2fx | %s |\n",
           files.count, lines, (double)bytes / 1e6, findings, parse, both, both - parse, ratio,
           ratio <= 1.5 ? "PASS" : "FAIL");
    if (failed)
        fprintf(stderr, "bench_check_vs_parse: %zu files did not parse\n", failed);

    if (walks) {
        double by_index = 0, by_cursor = 0;
        size_t walked = 0;
        for (size_t i = 0; i < files.count; i++) {
            TSTree *tree = gm_python_parse(parser, NULL, files.items[i].text, files.items[i].len);
            if (!tree)
                continue;
            TSNode root = ts_tree_root_node(tree);
            double t0 = cpu_s();
            walk_by_index(root, 0);
            double t1 = cpu_s();
            walk_by_cursor(root);
            double t2 = cpu_s();
            by_index += t1 - t0;
            by_cursor += t2 - t1;
            walked++;
            gm_tree_delete(tree);
        }
        printf("| one walk over every named node, by index (ts_node_named_child) | %zu | %zu | %.1f "
               "| | | | %.2f s | %.2fx | |\n",
               walked, lines, (double)bytes / 1e6, by_index, parse > 0 ? by_index / parse : 0);
        printf("| one walk over every named node, one cursor | %zu | %zu | %.1f | | | | %.2f s | "
               "%.2fx | |\n",
               walked, lines, (double)bytes / 1e6, by_cursor, parse > 0 ? by_cursor / parse : 0);
    }

    int status = 0;
    if (cli_reps < 1)
        cli_reps = reps;
    if (cli) {
        double *cli_s = calloc((size_t)cli_reps, sizeof *cli_s);
        char *cmd[] = {(char *)cli, "check", "--output-format", "json", (char *)dir, NULL};
        for (int r = 0; r < cli_reps && status == 0; r++) {
            int code = 0;
            cli_s[r] = time_command(cmd, &code);
            if (cli_s[r] < 0) {
                fprintf(stderr, "bench_check_vs_parse: %s exited %d\n", cli, code);
                status = 1;
            }
        }
        if (status == 0) {
            qsort(cli_s, (size_t)cli_reps, sizeof *cli_s, cmp_double);
            double whole = cli_s[cli_reps / 2];
            printf("| `graphmend check --output-format json` end to end (median of %d) | %zu | %zu "
                   "| %.1f | | | %.2f s "
                   "| %.2f s | %.2fx | %s |\n",
                   cli_reps, files.count, lines, (double)bytes / 1e6, whole, whole - parse,
                   whole / parse, whole / parse <= 1.5 ? "PASS" : "FAIL");
        }
        free(cli_s);
    }

    for (size_t i = 0; i < files.count; i++) {
        free(files.items[i].path);
        free(files.items[i].text);
    }
    free(files.items);
    free(parse_s);
    free(both_s);
    ts_parser_delete(parser);
    return status;
}
