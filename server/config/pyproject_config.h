/* The [tool.graphmend] table of the nearest pyproject.toml: a small strict reader for the subset
 * it needs (string, boolean and array-of-string values); of other tables only requires-python
 * of [project] is read, and nothing there is an error. */
#ifndef GM_SERVER_CONFIG_PYPROJECT_CONFIG_H
#define GM_SERVER_CONFIG_PYPROJECT_CONFIG_H

#include <stddef.h>

#include "server/config/project_files.h"
#include "server/config/settings.h"

/* Applies the [tool.graphmend] table of text to *options and sets the GM_SET_* bits of the keys
 * it gave in *set: torch-version = "2.13" (2.0 to 2.20), python-version = "3.11" (3.9 to 3.15;
 * without it the lower bound of [project] requires-python, ">=3.10" -> 3.10, when it has one
 * this reads, moved into 3.9..3.15), capture-scalar-outputs = true,
 * capture-dynamic-output-shape-ops = true, allow-rnn = true, fullgraph = true,
 * nested-graph-breaks = true, reorderable-logging-functions = ["print", "warnings.warn"],
 * ignore-logging-functions = ["logging.Logger.info"], select = ["GM1", "GM401"],
 * ignore = [...], extend-select = [...] (added to select); exclude, extend-exclude and the
 * [tool.graphmend.per-file-ignores] table are checked here and kept by gm_pyproject_load_project.
 * Returns 0,
 * or -1 with "line N: what" in error (options and set are then left as they were). */
int gm_pyproject_parse(const char *text, size_t len, gm_analysis_options *options, unsigned *set,
                       char *error, size_t error_size);

/* gm_pyproject_parse, also filling *files (when not NULL) with the table's exclude patterns and
 * per-file-ignores (files->root left "": the caller knows where the text came from). */
int gm_pyproject_parse_project(const char *text, size_t len, gm_analysis_options *options,
                               unsigned *set, gm_project_files *files, char *error,
                               size_t error_size);

/* The nearest pyproject.toml in dir or above it, written to path. Returns 0, or -1 when none. */
int gm_pyproject_find(const char *dir, char *path, size_t path_size);

/* Finds the pyproject.toml nearest to file (a path) and applies it as gm_pyproject_parse.
 * Returns 0 (also when there is none), or -1 with "PATH: line N: what" in error. */
int gm_pyproject_load_for_file(const char *file, gm_analysis_options *options, unsigned *set,
                               char *error, size_t error_size);

/* The same, also filling *files (when not NULL) with the project's exclude patterns and
 * per-file-ignores, and the pyproject.toml's directory (files->root "" when there is none). */
int gm_pyproject_load_project(const char *file, gm_analysis_options *options, unsigned *set,
                              gm_project_files *files, char *error, size_t error_size);

#endif
