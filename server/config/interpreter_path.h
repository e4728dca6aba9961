/* The interpreter a setting or an option names (`python`, `--python`), as the children that run
 * it need it: they start in another directory (package queries in `/`, profile jobs in the
 * file's), so a relative path is made absolute here. */
#ifndef GM_SERVER_CONFIG_INTERPRETER_PATH_H
#define GM_SERVER_CONFIG_INTERPRETER_PATH_H

/* A relative path with a slash ("venv/bin/python") joined to the current directory; a bare name
 * (looked up on PATH) or an absolute path copied as it is. Not through realpath: a virtual
 * environment's python is a symlink whose own path selects the environment. Returns a malloc'd
 * string (NULL for NULL, or on OOM). */
char *gm_interpreter_path(const char *python);

#endif
