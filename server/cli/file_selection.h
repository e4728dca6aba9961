/* The files `check` and `fix` work on: the paths of the command line, directories walked. */
#ifndef GM_SERVER_CLI_FILE_SELECTION_H
#define GM_SERVER_CLI_FILE_SELECTION_H

#include "server/cli/cli_options.h"
#include "server/workspace/path_list.h"

/* Appends the files of options' paths to files. Returns 0, or -1 when some path could not be
 * walked (the reason printed; the other paths' files are still there). */
int gm_cli_select_files(const gm_cli_options *options, gm_path_list *files);

#endif
