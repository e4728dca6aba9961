/* graphmend: the language server and its command line. */
#include <stdio.h>
#include <string.h>

#include "analysis/options/closest_name.h"
#include "server/cli/commands.h"
#include "server/cli/confirm_command.h"
#include "server/cli/profile_command.h"
#include "server/cli/rule_command.h"
#include "server/cli/run_command.h"
#include "server/config/settings.h"
#include "server/transport/stdio_transport.h"

static void print_help(FILE *out) {
    fprintf(out,
            "graphmend %s: predict and mend torch.compile graph breaks\n"
            "\n"
            "usage:\n"
            "  graphmend serve [--stdio]            run the language server on stdin/stdout\n"
            "                                       (`graphmend server` is the same)\n"
            "  graphmend check [--output-format FORMAT] [--statistics] [--show-fixes]\n"
            "                  [--exit-zero] [--stdin-filename NAME] [PATHS...]\n"
            "                                       report predicted graph breaks (no PATHS: .);\n"
            "                                       FORMAT: full, concise, json, sarif, github,\n"
            "                                       gitlab\n"
            "  graphmend fix [--unsafe-fixes|--no-unsafe-fixes] [--diff] [PATHS...]\n"
            "                                       apply safe mends in place (--diff: print,\n"
            "                                       write nothing)\n"
            "  graphmend rule ID | --all             explain a rule (markdown)\n"
            "  graphmend profile PATH [--entry NAME] [--device auto|cuda|cpu] [--python PYTHON]\n"
            "                    [--output-format text|json] [--unsafe-fixes] [--timeout SECONDS]\n"
            "                                       profile the mended model against the original\n"
            "                                       (runs PATH's code; see profile --help)\n"
            "  graphmend confirm PATH [--entry NAME] [--python PYTHON]\n"
            "                    [--output-format text|json] [--timeout SECONDS]\n"
            "                                       judge the predictions for PATH against real\n"
            "                                       dynamo on one run (runs PATH's code)\n"
            "  graphmend run --packages NAMES [--unsafe-fixes] [--python PYTHON] [--verbose]\n"
            "                [--] [python] SCRIPT [ARGS...]\n"
            "                                       run a program with those installed packages\n"
            "                                       mended as imported (see run --help)\n"
            "  graphmend settings --defaults        print the editor settings' defaults as JSON\n"
            "  graphmend --help | --version\n"
            "\n"
            "check and fix also take --select IDS and --ignore IDS (comma-separated rule ids or\n"
            "prefixes such as GM4), --color auto|always|never and --force-exclude; settings come\n"
            "from [tool.graphmend] in the nearest pyproject.toml.\n"
            "\n"
            "Directories are searched for *.py files. Exit status: 0 nothing found, 1 graph\n"
            "breaks found (or remaining after fix), 2 error.\n"
            "\n"
            "`graphmend COMMAND --help` describes each option of a command; `graphmend rule ID`\n"
            "explains a rule (also docs/rules/ID.md).\n",
            GM_VERSION);
}

/* `graphmend settings --defaults`: the defaults of the "graphmend" settings section, for
 * editor clients that check their own defaults against the server's. */
static int print_settings_defaults(int argc, char **argv) {
    if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        printf("usage: graphmend settings --defaults\n"
               "\n"
               "Prints the defaults of the editor settings (the \"graphmend\" section a client\n"
               "sends with workspace/configuration) as JSON.\n"
               "\n"
               "options:\n"
               "  --defaults  print them (the only form)\n"
               "  -h, --help  this help\n");
        return 0;
    }
    if (argc != 3 || strcmp(argv[2], "--defaults") != 0) {
        fprintf(stderr, "usage: graphmend settings --defaults\n");
        return 2;
    }
    json_t *defaults = gm_settings_defaults_json();
    int status = defaults ? json_dumpf(defaults, stdout, JSON_INDENT(2) | JSON_SORT_KEYS) : -1;
    json_decref(defaults);
    if (status != 0) {
        return 2;
    }
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        print_help(stderr);
        return 2;
    }
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
        strcmp(command, "help") == 0) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(command, "--version") == 0 || strcmp(command, "-V") == 0) {
        printf("graphmend %s\n", GM_VERSION);
        return 0;
    }
    /* `server` as ruff users type it */
    if (strcmp(command, "serve") == 0 || strcmp(command, "server") == 0) {
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
                printf("usage: graphmend serve [--stdio]\n"
                       "\n"
                       "Runs the language server over stdin and stdout (JSON-RPC, LSP 3.17), for\n"
                       "an editor to start: diagnostics for predicted graph breaks, hovers that\n"
                       "explain them, code actions that mend them. `graphmend server` is the same.\n"
                       "\n"
                       "options:\n"
                       "  --stdio     the transport (the only one, and the default; editors'\n"
                       "              clients pass it)\n"
                       "  -h, --help  this help\n"
                       "\n"
                       "Settings come from the editor (the \"graphmend\" section: see\n"
                       "`graphmend settings --defaults`) and from [tool.graphmend] in each file's\n"
                       "nearest pyproject.toml.\n");
                return 0;
            }
            if (strcmp(argv[i], "--stdio") != 0) { /* vscode-languageclient appends --stdio */
                fprintf(stderr, "graphmend %s: unknown option '%s' (options: --stdio, --help)\n",
                        command, argv[i]);
                return 2;
            }
        }
        return gm_stdio_serve();
    }
    if (strcmp(command, "check") == 0) {
        return gm_cli_check(argc - 1, argv + 1);
    }
    if (strcmp(command, "fix") == 0) {
        return gm_cli_fix(argc - 1, argv + 1);
    }
    if (strcmp(command, "rule") == 0) {
        return gm_cli_rule(argc - 1, argv + 1);
    }
    if (strcmp(command, "profile") == 0) {
        return gm_cli_profile(argc - 1, argv + 1);
    }
    if (strcmp(command, "confirm") == 0) {
        return gm_cli_confirm(argc - 1, argv + 1);
    }
    if (strcmp(command, "run") == 0) {
        return gm_cli_run(argc - 1, argv + 1);
    }
    if (strcmp(command, "settings") == 0) {
        return print_settings_defaults(argc, argv);
    }
    static const char *const commands[] = {"serve",   "server", "check", "fix",      "rule",
                                           "profile", "confirm", "run",  "settings", "help",
                                           NULL};
    const char *near = gm_closest_name(command, commands, sizeof commands / sizeof *commands);
    fprintf(stderr, "graphmend: unknown command '%s'", command);
    if (near)
        fprintf(stderr, " (did you mean '%s'?)", near);
    fprintf(stderr, "\n\n");
    print_help(stderr);
    return 2;
}
