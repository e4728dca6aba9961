#include "server/libraries/class_definition.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "server/workspace/file_reader.h"
#include "server/workspace/python_files.h"

static bool is_name_char(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether text has a top-level statement `<keyword>name` (at the start of a line): keyword is
 * "class ", "def " or "async def ". */
static bool defines(const char *text, size_t len, const char *keyword, const char *name) {
    size_t n = strlen(name), k = strlen(keyword);
    for (const char *p = text; p && p < text + len;) {
        const char *hit = strstr(p, keyword);
        if (!hit)
            return false;
        const char *after = hit + k;
        if ((hit == text || hit[-1] == '\n') && strncmp(after, name, n) == 0 &&
            !is_name_char(after[n]))
            return true;
        p = after;
    }
    return false;
}

/* Whether the file at path defines name at its top level: a class, or with functions a
 * function too. */
static bool file_defines(const char *path, const char *name, bool functions) {
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    if (!text)
        return false;
    bool found = defines(text, len, "class ", name) ||
                 (functions && (defines(text, len, "def ", name) ||
                                defines(text, len, "async def ", name)));
    free(text);
    return found;
}

/* Whether the __init__.py beside path mentions path's module stem (imports it). */
static bool package_imports_file(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        return false;
    char init[PATH_MAX];
    if (snprintf(init, sizeof init, "%.*s/__init__.py", (int)(slash - path), path) >=
        (int)sizeof init)
        return false;
    char stem[256];
    const char *file = slash + 1;
    size_t n = strlen(file);
    if (n < 4 || n - 3 >= sizeof stem)
        return false;
    memcpy(stem, file, n - 3);
    stem[n - 3] = '\0';
    size_t len = 0;
    char *text = gm_read_file(init, &len);
    if (!text)
        return false;
    bool found = false;
    for (const char *p = strstr(text, stem); p && !found; p = strstr(p + 1, stem))
        found = (p == text || !is_name_char(p[-1])) && !is_name_char(p[n - 3]);
    free(text);
    return found;
}

/* The module the dotted name's prefix names, as a file under package_dir. */
static bool named_module_file(const char *package_dir, const char *dotted, char *path,
                              size_t cap) {
    const char *first_dot = strchr(dotted, '.');
    const char *last_dot = strrchr(dotted, '.');
    if (!first_dot || first_dot == last_dot)
        return false; /* "pkg.Cls": the package's __init__, searched like any file */
    int n = snprintf(path, cap, "%s/%.*s", package_dir, (int)(last_dot - first_dot - 1),
                     first_dot + 1);
    if (n < 0 || (size_t)n + 13 >= cap)
        return false;
    for (char *p = path + strlen(package_dir) + 1; *p; p++)
        if (*p == '.')
            *p = '/';
    struct stat info;
    strcpy(path + n, ".py");
    if (stat(path, &info) == 0 && S_ISREG(info.st_mode))
        return true;
    strcpy(path + n, "/__init__.py");
    return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}

static int find_definition(const char *package_dir, const char *dotted, bool functions,
                           char *path, size_t cap) {
    const char *cls = strrchr(dotted, '.');
    cls = cls ? cls + 1 : dotted;
    if (!cls[0])
        return -1;
    if (named_module_file(package_dir, dotted, path, cap) && file_defines(path, cls, functions))
        return 0;
    gm_path_list files = {0};
    bool truncated = false;
    gm_find_python_files(package_dir, &files, GM_CLASS_SEARCH_MAX_FILES, &truncated);
    const char *fallback = NULL, *chosen = NULL;
    for (size_t i = 0; i < files.count && !chosen; i++) {
        if (!file_defines(files.paths[i], cls, functions))
            continue;
        if (package_imports_file(files.paths[i]))
            chosen = files.paths[i];
        else if (!fallback)
            fallback = files.paths[i];
    }
    if (!chosen)
        chosen = fallback;
    int rc = -1;
    if (chosen && strlen(chosen) + 1 <= cap) {
        strcpy(path, chosen);
        rc = 0;
    }
    gm_path_list_free(&files);
    return rc;
}

int gm_find_class_definition(const char *package_dir, const char *dotted, char *path, size_t cap) {
    return find_definition(package_dir, dotted, false, path, cap);
}

int gm_find_definition(const char *package_dir, const char *dotted, char *path, size_t cap) {
    return find_definition(package_dir, dotted, true, path, cap);
}
