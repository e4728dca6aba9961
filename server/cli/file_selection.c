#include "server/cli/file_selection.h"

#include <string.h>

#include "server/workspace/python_files.h"

int gm_cli_select_files(const gm_cli_options *options, gm_path_list *files) {
    int status = 0;
    for (int i = 0; i < options->path_count; i++) {
        if (gm_collect_python_files(options->paths[i], files) != 0) {
            status = -1;
        }
    }
    for (size_t i = 0; i < files->count; i++) { /* "./m.py" is shown as "m.py", as ruff does */
        char *path = files->paths[i];
        if (strncmp(path, "./", 2) == 0 && path[2] != '\0') {
            memmove(path, path + 2, strlen(path + 2) + 1);
        }
    }
    return status;
}
