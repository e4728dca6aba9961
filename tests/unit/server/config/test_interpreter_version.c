/* The Python version of the python3 on PATH: asked once, remembered (in the process and on disk,
 * per interpreter), and the options' default python_version when it answers "MAJOR.MINOR" (3.11
 * when it is missing or odd). */
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "server/config/interpreter_version.h"
#include "server/config/settings.h"

/* A directory holding a python3 that runs body (a shell script; NULL: no python3 at all). */
static void make_path_dir(char *dir, const char *body) {
    strcpy(dir, "/tmp/gm-interpreter-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    if (!body) {
        return;
    }
    char path[128];
    snprintf(path, sizeof path, "%s/python3", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fprintf(f, "#!/bin/sh\n%s\n", body);
        fclose(f);
    }
    CHECK(chmod(path, 0755) == 0);
}

static void remove_path_dir(const char *dir) {
    char path[128];
    snprintf(path, sizeof path, "%s/python3", dir);
    unlink(path);
    CHECK(rmdir(dir) == 0);
}

/* python_version of gm_analysis_options_default_with_interpreter when PATH holds only a
 * python3 running body, in a child process (the answer is remembered per process). */
static int default_python_version_with(const char *body) {
    char dir[64];
    make_path_dir(dir, body);
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        setenv("PATH", dir, 1);
        gm_analysis_options options;
        gm_analysis_options_default_with_interpreter(&options);
        _exit(options.python_version - 300); /* 309..315 fit an exit status */
    }
    int status = 0;
    CHECK(child > 0 && waitpid(child, &status, 0) == child);
    remove_path_dir(dir);
    return WIFEXITED(status) ? 300 + WEXITSTATUS(status) : -1;
}

static void reads_the_answer(void) {
    CHECK_EQ_INT(gm_query_python_version("echo 3.10"), 310);
    CHECK_EQ_INT(gm_query_python_version("printf 3.13"), 313);
    CHECK_EQ_INT(gm_query_python_version("echo 3.12; exit 1"), 312);
    CHECK_EQ_INT(gm_query_python_version("echo 'Python 3.10'"), 0);
    CHECK_EQ_INT(gm_query_python_version("echo 3"), 0);
    CHECK_EQ_INT(gm_query_python_version("echo 3.10.2"), 0);
    CHECK_EQ_INT(gm_query_python_version("echo 3.10; echo 3.11"), 0);
    CHECK_EQ_INT(gm_query_python_version("true"), 0);
    CHECK_EQ_INT(gm_query_python_version("gm-no-such-command-here 2>/dev/null"), 0);
}

static void follows_the_python3_on_path(void) {
    /* The query's own form: python3 -c "...". */
    const char *answers_310 = "[ \"$1\" = -c ] && echo 3.10";
    CHECK_EQ_INT(default_python_version_with(answers_310), 310);
    CHECK_EQ_INT(default_python_version_with("echo 3.13"), 313);
    /* Missing, failing or odd: the default stays. */
    CHECK_EQ_INT(default_python_version_with(NULL), 311);
    CHECK_EQ_INT(default_python_version_with("exit 1"), 311);
    CHECK_EQ_INT(default_python_version_with("echo Python 3.10"), 311);
    /* Outside what dynamo supports: the nearest end. */
    CHECK_EQ_INT(default_python_version_with("echo 3.8"), 309);
    CHECK_EQ_INT(default_python_version_with("echo 3.16"), 315);
}

/* The answer as the language server reads it from the child's stdout. */
static void reads_an_answer_from_output(void) {
    CHECK_EQ_INT(gm_python_version_answer("3.12\n", 5), 312);
    CHECK_EQ_INT(gm_python_version_answer("3.9", 3), 309);
    CHECK_EQ_INT(gm_python_version_answer("3.10\r\n", 6), 310);
    CHECK_EQ_INT(gm_python_version_answer("", 0), 0);
    CHECK_EQ_INT(gm_python_version_answer("\n", 1), 0);
    CHECK_EQ_INT(gm_python_version_answer("3.10\n3.11\n", 10), 0);
    CHECK_EQ_INT(gm_python_version_answer("Python 3.10\n", 12), 0);
    char long_line[300];
    memset(long_line, '3', sizeof long_line);
    CHECK_EQ_INT(gm_python_version_answer(long_line, sizeof long_line), 0);
}

static char cache_dir[64];

static void cache_file(char *out, size_t size) {
    CHECK(gm_interpreter_cache_file(out, size) == 0);
    char want[128];
    snprintf(want, sizeof want, "%s/interpreters", cache_dir);
    CHECK(strcmp(out, want) == 0);
}

/* Answers are kept per interpreter path, modification time and size. */
static void remembers_per_interpreter(void) {
    char file[128];
    cache_file(file, sizeof file);
    unlink(file);
    char dir[64];
    make_path_dir(dir, "echo 3.10");
    const char *saved = getenv("PATH");
    char *path = saved ? strdup(saved) : NULL;
    setenv("PATH", dir, 1);
    gm_interpreter_id id;
    CHECK(gm_interpreter_find(&id) == 0);
    CHECK(id.script);
    char want[128];
    snprintf(want, sizeof want, "%s/python3", dir);
    CHECK(strcmp(id.path, want) == 0);
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 0); /* no file yet */
    CHECK(gm_interpreter_cache_store(file, &id, 310) == 0);
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 310);
    CHECK(gm_interpreter_cache_store(file, &id, 312) == 0); /* replaces, does not add */
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 312);
    gm_interpreter_id changed = id;
    changed.mtime_ns++;
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &changed), 0);
    changed = id;
    changed.size++;
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &changed), 0);
    /* Other interpreters stay, the oldest go past the limit, vanished ones go. */
    gm_interpreter_id other = id;
    snprintf(other.path, sizeof other.path, "/bin/sh");
    CHECK(gm_interpreter_cache_store(file, &other, 313) == 0);
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 312);
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &other), 313);
    gm_interpreter_id gone = id;
    snprintf(gone.path, sizeof gone.path, "%s/no-such-python", dir);
    CHECK(gm_interpreter_cache_store(file, &gone, 309) == 0);
    CHECK(gm_interpreter_cache_store(file, &other, 313) == 0);
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &gone), 0);
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 312);
    for (int i = 0; i < GM_INTERPRETER_CACHE_ENTRIES; i++) {
        other.mtime_ns = i; /* the same path: one entry, replaced each time */
        CHECK(gm_interpreter_cache_store(file, &other, 313) == 0);
    }
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 312);
    /* Garbage lines are skipped, not fatal. */
    FILE *f = fopen(file, "a");
    CHECK(f != NULL);
    if (f) {
        fputs("not a line\n\n9 9\n", f);
        fclose(f);
    }
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 312);
    remove_path_dir(dir);
    if (path) {
        setenv("PATH", path, 1);
        free(path);
    }
    unlink(file);
}

/* python_version of gm_interpreter_python_version in a child process whose PATH is dir only. */
static int version_in_child(const char *dir) {
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        setenv("PATH", dir, 1);
        _exit(gm_interpreter_python_version() % 100);
    }
    int status = 0;
    CHECK(child > 0 && waitpid(child, &status, 0) == child);
    return WIFEXITED(status) ? 300 + WEXITSTATUS(status) : -1;
}

/* A remembered answer is the answer for an interpreter that is no script; a script (a pyenv
 * shim answers by its version files) is asked again, and its new answer remembered. */
static void uses_the_remembered_answer(void) {
    char file[128];
    cache_file(file, sizeof file);
    unlink(file);
    char dir[64];
    make_path_dir(dir, "echo 3.10");
    const char *saved = getenv("PATH");
    char *path = saved ? strdup(saved) : NULL;
    setenv("PATH", dir, 1);
    gm_interpreter_id id;
    CHECK(gm_interpreter_find(&id) == 0);
    if (path) {
        setenv("PATH", path, 1);
        free(path);
    }
    CHECK_EQ_INT(version_in_child(dir), 310); /* asked, then remembered */
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 310);
    CHECK(gm_interpreter_cache_store(file, &id, 313) == 0);
    CHECK_EQ_INT(version_in_child(dir), 310); /* a script: asked again */
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 310);
    remove_path_dir(dir);

    /* A binary (no "#!"): /bin/true prints nothing, so only the remembered answer gives 3.13. */
    char bin[64];
    make_path_dir(bin, NULL);
    char python[128];
    snprintf(python, sizeof python, "%s/python3", bin);
    CHECK(symlink("/bin/true", python) == 0);
    saved = getenv("PATH");
    path = saved ? strdup(saved) : NULL;
    setenv("PATH", bin, 1);
    CHECK(gm_interpreter_find(&id) == 0);
    CHECK(!id.script);
    if (path) {
        setenv("PATH", path, 1);
        free(path);
    }
    CHECK_EQ_INT(version_in_child(bin), 300); /* it answers nothing: unknown, nothing kept */
    CHECK_EQ_INT(gm_interpreter_cache_lookup(file, &id), 0);
    CHECK(gm_interpreter_cache_store(file, &id, 313) == 0);
    CHECK_EQ_INT(version_in_child(bin), 313);
    unlink(python);
    CHECK(rmdir(bin) == 0);
    unlink(file);
}

static void asks_once(void) {
    const char *saved = getenv("PATH");
    char *path = saved ? strdup(saved) : NULL;
    char dir[64];
    make_path_dir(dir, "echo 3.10");
    setenv("PATH", dir, 1);
    CHECK_EQ_INT(gm_interpreter_python_version(), 310);
    remove_path_dir(dir); /* gone now, and still the remembered answer */
    CHECK_EQ_INT(gm_interpreter_python_version(), 310);
    if (path) {
        setenv("PATH", path, 1);
        free(path);
    }
}

int main(void) {
    /* Never the user's cache: a folder of this test's own. */
    strcpy(cache_dir, "/tmp/gm-interpreter-cache-XXXXXX");
    CHECK(mkdtemp(cache_dir) != NULL);
    setenv("GRAPHMEND_CACHE_DIR", cache_dir, 1);
    reads_the_answer();
    reads_an_answer_from_output();
    remembers_per_interpreter();
    uses_the_remembered_answer();
    follows_the_python3_on_path();
    asks_once();
    char file[128];
    snprintf(file, sizeof file, "%s/interpreters", cache_dir);
    unlink(file);
    CHECK(rmdir(cache_dir) == 0);
    return check_exit_code("server/config/interpreter_version");
}
