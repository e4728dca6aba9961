/* The Python version of the python3 on PATH: asked once, remembered, and the options' default
 * python_version when it answers "MAJOR.MINOR" (3.11 when it is missing or odd). */
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
    reads_the_answer();
    follows_the_python3_on_path();
    asks_once();
    return check_exit_code("server/config/interpreter_version");
}
