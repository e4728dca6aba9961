/* graphmend: the language server and its command line. */
#include <stdio.h>
#include <string.h>

#include "cli_commands.h"
#include "stdio_transport.h"

static void print_help(FILE *out) {
    fprintf(out,
            "graphmend %s: predict and mend torch.compile graph breaks\n"
            "\n"
            "usage:\n"
            "  graphmend serve [--stdio]            run the language server on stdin/stdout\n"
            "  graphmend check [--output-format text|json|sarif] PATHS...\n"
            "                                       report predicted graph breaks\n"
            "  graphmend fix [--unsafe-fixes] [--diff] PATHS...\n"
            "                                       apply safe mends in place (--diff: print,\n"
            "                                       write nothing)\n"
            "  graphmend --help | --version\n"
            "\n"
            "check and fix also take --select IDS and --ignore IDS (comma-separated rule ids or\n"
            "prefixes such as GM4); settings come from [tool.graphmend] in the nearest\n"
            "pyproject.toml.\n"
            "\n"
            "Directories are searched for *.py files. Exit status: 0 nothing found, 1 graph\n"
            "breaks found (or remaining after fix), 2 error.\n",
            GM_VERSION);
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
    if (strcmp(command, "serve") == 0) {
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--stdio") != 0) { /* vscode-languageclient appends --stdio */
                fprintf(stderr, "graphmend serve: unknown option '%s'\n", argv[i]);
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
    fprintf(stderr, "graphmend: unknown command '%s'\n\n", command);
    print_help(stderr);
    return 2;
}
