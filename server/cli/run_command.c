#include "server/cli/run_command.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/cli/mended_packages.h"

static void print_usage(FILE *out) {
    fprintf(out,
            "usage: graphmend run --packages NAMES [--unsafe-fixes] [--python PYTHON] [--verbose]\n"
            "                     [--] [python [PYTHON-OPTIONS]] (SCRIPT | -m MODULE | -c CODE) "
            "[ARGS...]\n"
            "\n"
            "Runs a Python program with the modules of the installed packages NAMES (comma-\n"
            "separated import names, e.g. transformers,diffusers) mended as they are imported.\n"
            "The installed files are never written: graphmend mends copies into its cache\n"
            "($XDG_CACHE_HOME/graphmend or ~/.cache/graphmend), keyed by their content, its\n"
            "version and the settings, so a later run mends nothing again. Tracebacks name the\n"
            "installed files; where a mend changed a file's line count, a note after the\n"
            "traceback says so. A module graphmend cannot mend runs unchanged (--verbose says\n"
            "which). The program runs under the interpreter it starts with (python, python3,\n"
            "a path to one), else --python, else $GRAPHMEND_PYTHON, else python3; that\n"
            "interpreter also says where the packages are. Exit status: the program's; 2 when\n"
            "graphmend cannot start it.\n"
            "\n"
            "options:\n"
            "  --packages NAMES  the installed packages to mend (comma-separated import names)\n"
            "  --unsafe-fixes    apply the unsafe mends too\n"
            "  --python PYTHON   the interpreter, when the program does not start with one\n"
            "  -v, --verbose     report the mending on stderr (which modules it could not mend)\n"
            "  --                the end of graphmend's options: the program follows\n"
            "  -h, --help        this help\n");
}

typedef struct {
    gm_package_names packages;
    bool unsafe_fixes, verbose;
    const char *python;
    int program; /* index in argv of the program's first word */
} run_options;

/* Whether word names a Python interpreter: python, python3, python3.12, /usr/bin/python3. */
static bool is_interpreter(const char *word) {
    const char *base = strrchr(word, '/');
    base = base ? base + 1 : word;
    if (strncmp(base, "python", 6) != 0) {
        return false;
    }
    for (const char *c = base + 6; *c; c++) {
        if ((*c < '0' || *c > '9') && *c != '.') {
            return false;
        }
    }
    return true;
}

static int parse_options(int argc, char **argv, run_options *options) {
    memset(options, 0, sizeof *options);
    const char *python = getenv("GRAPHMEND_PYTHON");
    options->python = python && python[0] ? python : "python3";
    int i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (arg[0] != '-' || arg[1] == '\0') {
            break;
        }
        if (strcmp(arg, "--packages") == 0 || strcmp(arg, "--python") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "graphmend run: %s needs a value\n", arg);
                return 2;
            }
            if (strcmp(arg, "--python") == 0) {
                options->python = argv[++i];
            } else if (gm_cli_add_package_names("graphmend run", argv[++i], &options->packages) !=
                       0) {
                return 2;
            }
        } else if (strcmp(arg, "--unsafe-fixes") == 0) {
            options->unsafe_fixes = true;
        } else if (strcmp(arg, "--verbose") == 0 || strcmp(arg, "-v") == 0) {
            options->verbose = true;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            print_usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "graphmend run: unknown option '%s' (the program comes after --)\n",
                    arg);
            print_usage(stderr);
            return 2;
        }
    }
    options->program = i;
    if (i >= argc) {
        fprintf(stderr, "graphmend run: no program to run\n");
        print_usage(stderr);
        return 2;
    }
    if (options->packages.count == 0) {
        fprintf(stderr, "graphmend run: name the packages to mend with --packages "
                        "(e.g. --packages transformers)\n");
        return 2;
    }
    return 0;
}

/* -m MODULE or -c CODE, also written -mMODULE, -cCODE: the program, not an interpreter option. */
static bool starts_program(const char *word) {
    return word[0] == '-' && (word[1] == 'm' || word[1] == 'c');
}

/* Python's options that take a value as the next word. */
static bool takes_value(const char *option) {
    return strcmp(option, "-X") == 0 || strcmp(option, "-W") == 0 ||
           strcmp(option, "--check-hash-based-pycs") == 0;
}

int gm_cli_run(int argc, char **argv) {
    run_options options;
    int status = parse_options(argc, argv, &options);
    if (status != 0) {
        gm_package_names_free(&options.packages);
        return status;
    }
    /* "python [OPTIONS] SCRIPT ...": that interpreter runs it, with those options; the script
     * (or -m/-c) and its arguments go to the launcher */
    int word = options.program;
    int interpreter_options = 0, interpreter_options_at = word + 1;
    if (is_interpreter(argv[word])) {
        options.python = argv[word++];
        while (word < argc && argv[word][0] == '-' && argv[word][1] != '\0' &&
               !starts_program(argv[word])) {
            int width = takes_value(argv[word]) && word + 1 < argc ? 2 : 1;
            if (strcmp(argv[word], "--") == 0) {
                word++;
                break;
            }
            interpreter_options += width;
            word += width;
        }
        if (word >= argc) {
            fprintf(stderr, "graphmend run: no script, -m MODULE or -c CODE after %s\n",
                    options.python);
            gm_package_names_free(&options.packages);
            return 2;
        }
    }
    const char *script = starts_program(argv[word]) ? NULL : argv[word];
    gm_mended_packages *mended = calloc(1, sizeof *mended);
    if (!mended) {
        fprintf(stderr, "graphmend run: out of memory\n");
        gm_package_names_free(&options.packages);
        return 2;
    }
    status = gm_cli_mend_packages("graphmend run", options.python, &options.packages, script,
                                  options.unsafe_fixes, !options.verbose, mended);
    gm_package_names_free(&options.packages);
    if (status != 0) {
        free(mended);
        return status;
    }
    /* python [OPTIONS] LAUNCHER --map MAP [--verbose] -- PROGRAM ARGS... */
    char **args = calloc((size_t)argc + 8, sizeof *args);
    if (!args) {
        fprintf(stderr, "graphmend run: out of memory\n");
        free(mended);
        return 2;
    }
    size_t n = 0;
    args[n++] = (char *)options.python;
    for (int k = 0; k < interpreter_options; k++) {
        args[n++] = argv[interpreter_options_at + k];
    }
    args[n++] = mended->launcher;
    args[n++] = "--map";
    args[n++] = mended->map;
    if (options.verbose) {
        args[n++] = "--verbose";
    }
    args[n++] = "--";
    if (starts_program(argv[word]) && argv[word][2] != '\0') { /* -mMODULE: -m MODULE */
        args[n++] = argv[word][1] == 'm' ? "-m" : "-c";
        args[n++] = argv[word++] + 2;
    }
    for (int k = word; k < argc; k++) {
        args[n++] = argv[k];
    }
    args[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    execvp(options.python, args);
    fprintf(stderr,
            "graphmend run: cannot start the Python interpreter '%s': %s (choose one with "
            "--python or $GRAPHMEND_PYTHON)\n",
            options.python, strerror(errno));
    free(args);
    free(mended);
    return 2;
}
