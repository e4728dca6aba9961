#include "server/cli/cli_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/options/closest_name.h"

static const char *const FORMAT_NAMES = "full, concise, json, sarif, github, gitlab";

/* Every option of check and fix, for "did you mean". */
static const char *const OPTION_NAMES[] = {
    "--output-format", "--select",      "--ignore",    "--unsafe-fixes", "--no-unsafe-fixes",
    "--statistics",    "--show-fixes",  "--exit-zero", "--color",        "--force-exclude",
    "--python",        "--stdin-filename", "--diff",   "--help",         "--no-cache",
    "--cache-dir",     NULL};

/* What each option does, after the usage line of `--help`. */
static void print_option_help(FILE *out, bool fix) {
    fprintf(out,
            "\n"
            "options:\n"
            "  --output-format FORMAT  how findings are printed: full (default: the source\n"
            "                          around each), concise (one line each), json, sarif,\n"
            "                          github, gitlab\n"
            "  --select IDS            only these rules (comma-separated ids or prefixes: GM4)\n"
            "  --ignore IDS            not these rules\n"
            "  --unsafe-fixes          %s\n"
            "  --no-unsafe-fixes       the opposite (beats unsafe-fixes in pyproject.toml)\n",
            fix ? "also apply the mends that may change runtime behaviour"
                : "show the unsafe mends as fixes too");
    if (fix)
        fprintf(out, "  --diff                  print the changes as a unified diff; write nothing\n");
    else
        fprintf(out,
                "  --statistics            one line per rule: how many findings\n"
                "  --python PATH           the interpreter whose version the analysis assumes\n");
    fprintf(out,
            "  --show-fixes            list the fixes %s\n"
            "  --exit-zero             exit 0 even when graph breaks are found\n"
            "  --color WHEN            auto (default), always, never\n"
            "  --force-exclude         apply exclude to paths given on the command line too\n"
            "  --stdin-filename NAME   read the source from stdin, reported as NAME\n"
            "  --no-cache              neither read nor write the cache of module summaries\n"
            "  --cache-dir DIR         keep that cache in DIR (default: .graphmend_cache in\n"
            "                          the project)\n"
            "  -h, --help              this help\n"
            "\n"
            "Settings come from [tool.graphmend] in the nearest pyproject.toml; command-line\n"
            "options beat them. Exit status: 0 nothing found, 1 graph breaks found%s, 2 error.\n",
            fix ? "applied" : "`graphmend fix` would apply", fix ? " (or remaining)" : "");
}

static void print_usage(FILE *out, const char *command) {
    if (strcmp(command, "check") == 0) {
        fprintf(out,
                "usage: graphmend check [--output-format full|concise|json|sarif|github|gitlab]\n"
                "                       [--select IDS] [--ignore IDS] [--unsafe-fixes]\n"
                "                       [--statistics] [--show-fixes] [--exit-zero]\n"
                "                       [--color auto|always|never] [--force-exclude]\n"
                "                       [--python PATH] [--stdin-filename NAME]\n"
                "                       [--no-cache] [--cache-dir DIR] [PATHS...]\n");
    } else {
        fprintf(out,
                "usage: graphmend fix [--unsafe-fixes|--no-unsafe-fixes] [--diff] [--select IDS]\n"
                "                     [--ignore IDS] [--output-format FORMAT] [--show-fixes]\n"
                "                     [--exit-zero] [--color auto|always|never] [--force-exclude]\n"
                "                     [--stdin-filename NAME] [--no-cache] [--cache-dir DIR]\n"
                "                     [PATHS...]\n");
    }
}

/* --select/--ignore value: comma-separated rule ids or prefixes. Returns 0, or 2. */
static int parse_selectors(const char *flag, const char *list, gm_rule_selectors *target) {
    char copy[512];
    const char *ids[GM_MAX_RULE_SELECTORS];
    size_t count = 0;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *id = strtok_r(copy, ", ", &save); id;
         id = strtok_r(NULL, ", ", &save)) {
        if (count == GM_MAX_RULE_SELECTORS) {
            fprintf(stderr, "graphmend: too many rule selectors in %s\n", flag);
            return 2;
        }
        ids[count++] = id;
    }
    char error[128];
    if (gm_rule_selectors_set(target, ids, count, error, sizeof error) != 0) {
        fprintf(stderr, "graphmend: %s: %s\n", flag, error);
        return 2;
    }
    return 0;
}

/* The value of an option given as "--name VALUE" or "--name=VALUE", or NULL when arg is not that
 * option. Advances *i past a separate value; *missing tells that none followed. */
static const char *option_value(const char *name, int argc, char **argv, int *i, bool *missing) {
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) {
        return NULL;
    }
    if (arg[n] == '=') {
        return arg + n + 1;
    }
    if (arg[n] != '\0') {
        return NULL;
    }
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

static bool is_flag(const char *arg, const char *name) {
    return strcmp(arg, name) == 0;
}

int gm_cli_parse_options(int argc, char **argv, bool fix, gm_cli_options *options) {
    memset(options, 0, sizeof *options);
    gm_analysis_options_default(&options->rules);
    options->format = GM_OUTPUT_FULL;
    options->paths = calloc((size_t)argc + 1, sizeof *options->paths);
    if (!options->paths) {
        fprintf(stderr, "graphmend: out of memory\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        bool missing = false;
        if ((value = option_value("--output-format", argc, argv, &i, &missing))) {
            if (gm_output_format_parse(value, &options->format) != 0) {
                fprintf(stderr, "graphmend: unknown output format '%s' (%s)\n", value,
                        FORMAT_NAMES);
                return 2;
            }
        } else if ((value = option_value("--select", argc, argv, &i, &missing)) ||
                   (value = option_value("--ignore", argc, argv, &i, &missing))) {
            bool select = arg[2] == 's';
            if (parse_selectors(select ? "--select" : "--ignore", value,
                                select ? &options->rules.select : &options->rules.ignore) != 0) {
                return 2;
            }
            options->rules_set |= select ? GM_SET_SELECT : GM_SET_IGNORE;
        } else if ((value = option_value("--color", argc, argv, &i, &missing))) {
            if (gm_color_choice_parse(value, &options->color) != 0) {
                fprintf(stderr, "graphmend: unknown --color '%s' (auto, always, never)\n", value);
                return 2;
            }
        } else if (!fix && (value = option_value("--python", argc, argv, &i, &missing))) {
            if (!value[0]) {
                fprintf(stderr, "graphmend check: --python needs an interpreter\n");
                return 2;
            }
            options->python = value;
        } else if ((value = option_value("--stdin-filename", argc, argv, &i, &missing))) {
            options->stdin_filename = value;
        } else if ((value = option_value("--cache-dir", argc, argv, &i, &missing))) {
            if (!value[0]) {
                fprintf(stderr, "graphmend %s: --cache-dir needs a directory\n", argv[0]);
                return 2;
            }
            options->cache_dir = value;
        } else if (is_flag(arg, "--no-cache")) {
            options->no_cache = true;
        } else if (is_flag(arg, "--unsafe-fixes") || is_flag(arg, "--no-unsafe-fixes")) {
            /* beats unsafe-fixes in pyproject.toml, like the rule selectors */
            options->rules.unsafe_fixes = arg[2] == 'u';
            options->rules_set |= GM_SET_UNSAFE_FIXES;
        } else if (fix && is_flag(arg, "--diff")) {
            options->diff = true;
        } else if (is_flag(arg, "--exit-zero")) {
            options->exit_zero = true;
        } else if (!fix && is_flag(arg, "--statistics")) {
            options->statistics = true;
        } else if (is_flag(arg, "--show-fixes")) {
            options->show_fixes = true;
        } else if (is_flag(arg, "--force-exclude")) {
            options->force_exclude = true;
        } else if (is_flag(arg, "--help") || is_flag(arg, "-h")) {
            print_usage(stdout, argv[0]);
            print_option_help(stdout, fix);
            exit(0);
        } else if (missing) {
            fprintf(stderr, "graphmend %s: %s needs a value\n", argv[0], arg);
            return 2;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
            const char *near = gm_closest_name(name, OPTION_NAMES,
                                               sizeof OPTION_NAMES / sizeof *OPTION_NAMES);
            fprintf(stderr, "graphmend %s: unknown option '%s'", argv[0], arg);
            if (near)
                fprintf(stderr, " (did you mean '%s'?)", near);
            fprintf(stderr, "\n");
            print_usage(stderr, argv[0]);
            return 2;
        } else {
            options->paths[options->path_count++] = arg;
        }
    }
    if (options->path_count == 0) { /* as ruff: the current directory */
        options->paths[options->path_count++] = ".";
    }
    return 0;
}

void gm_cli_options_free(gm_cli_options *options) {
    free(options->paths);
    options->paths = NULL;
}
