/* The options of `graphmend check` and `graphmend fix`, as the command line gives them. */
#ifndef GM_SERVER_CLI_CLI_OPTIONS_H
#define GM_SERVER_CLI_CLI_OPTIONS_H

#include <stdbool.h>

#include "analysis/options/analysis_options.h"
#include "server/cli/report.h"
#include "server/cli/terminal_style.h"
#include "server/config/settings.h"
#include "server/workspace/path_list.h"

typedef struct {
    gm_output_format format;
    bool diff;
    bool exit_zero;
    bool statistics;
    bool show_fixes;
    bool force_exclude;
    gm_color_choice color;
    const char *stdin_filename; /* read the source from stdin and report it under this name */
    const char *python; /* check: the interpreter whose installed packages GM902 looks into, or
                           NULL for the default ($GRAPHMEND_PYTHON, then python3) */
    bool no_cache;         /* --no-cache: no summary cache read or written */
    const char *cache_dir; /* --cache-dir, or NULL: the cache-dir setting, else the project's */
    const char **paths;         /* as given (pointers into argv); "." when none were */
    int path_count;
    gm_analysis_options rules; /* --select / --ignore / --unsafe-fixes, as rules_set says */
    unsigned rules_set;
} gm_cli_options;

/* Parses argv (argv[0] is "check" or "fix"). Returns 0, or 2 after printing the problem; --help
 * prints the usage and exits. */
int gm_cli_parse_options(int argc, char **argv, bool fix, gm_cli_options *options);
void gm_cli_options_free(gm_cli_options *options);

#endif
