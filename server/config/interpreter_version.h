/* The Python version of the interpreter a project most likely runs on: the python3 on PATH.
 * Asking it costs a process start (170-300 ms through a pyenv shim), so answers are kept on disk
 * per interpreter (its path, modification time and size): the command line asks once per
 * interpreter, and the language server never waits for the question (server/lsp/
 * interpreter_probe.c asks in the background and analyses meanwhile with the remembered answer). */
#ifndef GM_SERVER_CONFIG_INTERPRETER_VERSION_H
#define GM_SERVER_CONFIG_INTERPRETER_VERSION_H

#include <stdbool.h>
#include <stddef.h>

/* The version (major*100+minor) of the python3 found on PATH, from the disk cache or asked once
 * per process and remembered; 0 when there is none or its answer is not "MAJOR.MINOR". */
int gm_interpreter_python_version(void);

/* Runs command (a shell command line that should print "MAJOR.MINOR", as the query above does)
 * and reads its answer: major*100+minor, or 0 when it prints anything else. Not remembered. */
int gm_query_python_version(const char *command);

/* The answer of a version query (what it printed on stdout): major*100+minor for exactly one
 * "MAJOR.MINOR" line, else 0. */
int gm_python_version_answer(const char *output, size_t len);

/* The arguments after the interpreter's path that make it print "MAJOR.MINOR". */
extern const char *const gm_python_version_arguments[2];

/* Which interpreter an answer belongs to. A script (a launcher such as a pyenv shim, which starts
 * "#!") may answer differently without changing itself (pyenv's version files): its remembered
 * answer is a first guess to check, not the answer. */
typedef struct {
    char path[1024];
    long long mtime_ns;
    long long size;
    bool script;
} gm_interpreter_id;

/* The first python3 on PATH that may be executed, and what identifies it. Returns 0, or -1 when
 * there is none. */
int gm_interpreter_find(gm_interpreter_id *id);

/* The cache file: $GRAPHMEND_CACHE_DIR, $XDG_CACHE_HOME/graphmend or ~/.cache/graphmend, then
 * "interpreters". Returns 0, or -1 when none of those is set. */
int gm_interpreter_cache_file(char *out, size_t size);

/* The remembered version of id in the cache file (0 when absent, stale or unreadable). */
int gm_interpreter_cache_lookup(const char *cache_file, const gm_interpreter_id *id);

/* Remembers version for id (replacing what the file said of its path), keeping at most the
 * GM_INTERPRETER_CACHE_ENTRIES entries written last and dropping those whose interpreter is gone.
 * Written to a temporary file and renamed, so a reader never sees half a file. Returns 0, or -1
 * when it cannot be written (nothing else happens: the next start asks again). */
int gm_interpreter_cache_store(const char *cache_file, const gm_interpreter_id *id, int version);

#define GM_INTERPRETER_CACHE_ENTRIES 32

#endif
