/* The .gitignore files met on a directory walk, as ruff's respect-gitignore reads them: a
 * pattern applies below the directory of its file; `/` at the start anchors it there, a `/`
 * inside matches against the path from there, `/` at the end matches directories only, `!`
 * re-includes, and the last matching pattern decides. */
#ifndef GM_SERVER_WORKSPACE_IGNORE_RULES_H
#define GM_SERVER_WORKSPACE_IGNORE_RULES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *base;    /* the directory of the .gitignore */
    char *pattern; /* without its `!`, leading and trailing `/` */
    bool negated, directories_only, by_path;
} gm_ignore_rule;

typedef struct {
    gm_ignore_rule *rules;
    size_t count, capacity;
} gm_ignore_rules;

/* Adds the patterns of dir/.gitignore, when it is a regular file. 0, or -1 on OOM. */
int gm_ignore_rules_load(gm_ignore_rules *rules, const char *dir);

/* Whether path (below the directories of the loaded files; a directory when is_directory) is
 * ignored. */
bool gm_ignore_rules_match(const gm_ignore_rules *rules, const char *path, bool is_directory);

void gm_ignore_rules_free(gm_ignore_rules *rules);

#endif
