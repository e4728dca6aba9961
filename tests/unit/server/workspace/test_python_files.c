/* The reader (regular files only, never blocking, capped) and the walk (each directory and file
 * once through symlink loops, caps, the same result in small steps as in one go), on real
 * directory trees in a temporary directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "server/workspace/file_reader.h"
#include "server/workspace/python_files.h"
#include "server/workspace/python_walk.h"

static char root[] = "/tmp/gm-python-files-XXXXXX";

static void make(const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void link_to(const char *target, const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, name);
    CHECK_EQ_INT(symlink(target, path), 0);
}

static const char *in_root(const char *name) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", root, name);
    return path;
}

static void reads_only_regular_files(void) {
    make("plain.py", "x = 1\n");
    size_t len = 0;
    char *text = gm_read_file(in_root("plain.py"), &len);
    CHECK_EQ_STR(text, "x = 1\n");
    CHECK_EQ_INT(len, 6);
    free(text);

    CHECK_EQ_INT(mkfifo(in_root("fifo.py"), 0600), 0);
    errno = 0;
    CHECK(gm_read_file(in_root("fifo.py"), &len) == NULL); /* returns at once: no writer waits */
    CHECK_EQ_INT(errno, EINVAL);
    CHECK(strstr(gm_read_file_error(EINVAL), "not a regular file") != NULL);
    CHECK(gm_read_file("/dev/zero", &len) == NULL);
    CHECK_EQ_INT(errno, EINVAL);
    CHECK(gm_read_file(root, &len) == NULL);
    CHECK_EQ_INT(errno, EISDIR);
    CHECK(gm_read_file(in_root("missing.py"), &len) == NULL);
    CHECK_EQ_INT(errno, ENOENT);

    int fd = open(in_root("big.py"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && ftruncate(fd, GM_READ_FILE_MAX_BYTES + 1) == 0);
    close(fd);
    CHECK(gm_read_file(in_root("big.py"), &len) == NULL);
    CHECK_EQ_INT(errno, EFBIG);
    unlink(in_root("big.py"));
    unlink(in_root("fifo.py"));
    unlink(in_root("plain.py"));
}

static size_t count_of(const gm_path_list *list, const char *suffix) {
    size_t n = 0, k = strlen(suffix);
    for (size_t i = 0; i < list->count; i++) {
        size_t m = strlen(list->paths[i]);
        n += m >= k && strcmp(list->paths[i] + m - k, suffix) == 0;
    }
    return n;
}

static void walks_symlink_loops_once(void) {
    CHECK_EQ_INT(mkdir(in_root("tree"), 0700), 0);
    CHECK_EQ_INT(mkdir(in_root("tree/sub"), 0700), 0);
    make("tree/a.py", "a = 1\n");
    make("tree/sub/b.py", "b = 1\n");
    link_to(".", "tree/l1");
    link_to(".", "tree/l2");
    link_to("..", "tree/sub/up");
    link_to("a.py", "tree/alias.py");
    link_to("missing", "tree/dangling.py");
    CHECK_EQ_INT(mkfifo(in_root("tree/fifo.py"), 0600), 0);

    gm_path_list whole = {0};
    bool truncated = true;
    CHECK_EQ_INT(gm_find_python_files(in_root("tree"), &whole, 100, &truncated), 0);
    CHECK(!truncated);
    CHECK_EQ_INT(whole.count, 2);
    CHECK_EQ_INT(count_of(&whole, "/a.py") + count_of(&whole, "/alias.py"), 1);
    CHECK_EQ_INT(count_of(&whole, "/b.py"), 1);

    /* One entry per step: the same files in the same order. */
    gm_path_list stepped = {0};
    gm_python_walk *walk = gm_python_walk_new(in_root("tree"), 100, true);
    size_t steps = 0;
    while (gm_python_walk_step(walk, &stepped, 1)) {
        steps++;
    }
    CHECK(steps > 3);
    CHECK(!gm_python_walk_truncated(walk) && !gm_python_walk_failed(walk));
    gm_python_walk_free(walk);
    CHECK_EQ_INT(stepped.count, whole.count);
    for (size_t i = 0; i < stepped.count && i < whole.count; i++) {
        CHECK_EQ_STR(stepped.paths[i], whole.paths[i]);
    }
    gm_path_list_free(&stepped);
    gm_path_list_free(&whole);
}

static void stops_at_the_file_cap(void) {
    CHECK_EQ_INT(mkdir(in_root("many"), 0700), 0);
    for (int i = 0; i < 5; i++) {
        char name[32];
        snprintf(name, sizeof name, "many/m%d.py", i);
        make(name, "");
    }
    gm_path_list list = {0};
    bool truncated = false;
    gm_find_python_files(in_root("many"), &list, 3, &truncated);
    CHECK(truncated);
    CHECK_EQ_INT(list.count, 3);
    gm_path_list_free(&list);
    truncated = true;
    gm_find_python_files(in_root("many"), &list, 5, &truncated);
    CHECK(!truncated);
    CHECK_EQ_INT(list.count, 5);
    gm_path_list_free(&list);
}

/* .gitignore files are honoured as ruff's respect-gitignore does: basename and anchored
 * patterns, directories only, `!` re-includes, nested files apply below their directory. */
static void honours_gitignore(void) {
    CHECK_EQ_INT(mkdir(in_root("repo"), 0700), 0);
    CHECK_EQ_INT(mkdir(in_root("repo/build-x"), 0700), 0);
    CHECK_EQ_INT(mkdir(in_root("repo/src"), 0700), 0);
    CHECK_EQ_INT(mkdir(in_root("repo/src/build-x"), 0700), 0);
    CHECK_EQ_INT(mkdir(in_root("repo/src/gen"), 0700), 0);
    make("repo/.gitignore", "# comment\n/build*/\n*_pb2.py\n!keep_pb2.py\n");
    make("repo/build-x/a.py", "");
    make("repo/src/build-x/b.py", ""); /* `/build*` is anchored at repo/ */
    make("repo/src/m_pb2.py", "");
    make("repo/src/keep_pb2.py", "");
    make("repo/src/main.py", "");
    make("repo/src/gen/.gitignore", "*.py\r\n");
    make("repo/src/gen/g.py", "");
    gm_path_list list = {0};
    bool truncated = true;
    CHECK_EQ_INT(gm_find_python_files(in_root("repo"), &list, 100, &truncated), 0);
    CHECK_EQ_INT(list.count, 3);
    CHECK_EQ_INT(count_of(&list, "/src/build-x/b.py"), 1);
    CHECK_EQ_INT(count_of(&list, "/keep_pb2.py"), 1);
    CHECK_EQ_INT(count_of(&list, "/main.py"), 1);
    gm_path_list_free(&list);
}

int main(void) {
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    reads_only_regular_files();
    walks_symlink_loops_once();
    stops_at_the_file_cap();
    honours_gitignore();
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", root);
    if (system(command) != 0) {
        fprintf(stderr, "could not remove %s\n", root);
    }
    return check_exit_code("server/workspace/python_files");
}
