/* What `graphmend fix` keeps of a file it rewrites: mode, symlinks, hard links, read-only files
 * refused; and on a full disk (a file size limit stands in for one) the file as it was and no
 * temp file left, both for the atomic replace and for the in-place rewrite of a hard link. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "server/cli/file_rewrite.h"
#include "server/workspace/file_reader.h"

static char root[] = "/tmp/gm-file-rewrite-XXXXXX";

static const char *in_root(const char *name) {
    static char paths[4][512];
    static int turn;
    char *path = paths[turn++ % 4];
    snprintf(path, 512, "%s/%s", root, name);
    return path;
}

static void make(const char *name, const char *text, mode_t mode) {
    FILE *f = fopen(in_root(name), "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    CHECK_EQ_INT(chmod(in_root(name), mode), 0);
}

static char *content(const char *name) {
    size_t len;
    return gm_read_file(in_root(name), &len);
}

static int entries_in_root(void) {
    DIR *dir = opendir(root);
    int n = 0;
    for (struct dirent *e; dir && (e = readdir(dir)) != NULL;) {
        n += e->d_name[0] != '.';
    }
    if (dir) {
        closedir(dir);
    }
    return n;
}

static void check_content(const char *name, const char *expected) {
    char *text = content(name);
    CHECK_EQ_STR(text, expected);
    free(text);
}

static void keeps_mode_and_links(void) {
    const char *why = NULL;
    make("script.py", "old\n", 0750);
    CHECK_EQ_INT(gm_rewrite_file(in_root("script.py"), "new\n", 4, &why), 0);
    struct stat info;
    CHECK(stat(in_root("script.py"), &info) == 0 && (info.st_mode & 07777) == 0750);
    check_content("script.py", "new\n");

    CHECK_EQ_INT(symlink("script.py", in_root("link.py")), 0);
    CHECK_EQ_INT(gm_rewrite_file(in_root("link.py"), "newer\n", 6, &why), 0);
    CHECK(lstat(in_root("link.py"), &info) == 0 && S_ISLNK(info.st_mode));
    check_content("script.py", "newer\n");

    CHECK_EQ_INT(link(in_root("script.py"), in_root("hard.py")), 0);
    CHECK_EQ_INT(gm_rewrite_file(in_root("script.py"), "in place\n", 9, &why), 0);
    check_content("hard.py", "in place\n");
    CHECK(stat(in_root("hard.py"), &info) == 0 && info.st_nlink == 2);
    CHECK_EQ_INT(entries_in_root(), 3);

    make("frozen.py", "keep\n", 0444);
    CHECK_EQ_INT(gm_rewrite_file(in_root("frozen.py"), "lost\n", 5, &why), -1);
    CHECK(why && strstr(why, "read-only") != NULL);
    check_content("frozen.py", "keep\n");
    CHECK_EQ_INT(entries_in_root(), 4);
}

/* With RLIMIT_FSIZE below the new text's size, every write past it fails (EFBIG), as on a full
 * disk. */
static void full_disk_keeps_the_file(void) {
    const char *why = NULL;
    char big[8192];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    make("single.py", "old\n", 0644);
    make("linked.py", "old\n", 0644);
    CHECK_EQ_INT(link(in_root("linked.py"), in_root("other.py")), 0);
    int before = entries_in_root();
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit saved, limit = {4096, 4096};
    getrlimit(RLIMIT_FSIZE, &saved);
    limit.rlim_max = saved.rlim_max;
    CHECK_EQ_INT(setrlimit(RLIMIT_FSIZE, &limit), 0);
    int single = gm_rewrite_file(in_root("single.py"), big, sizeof big - 1, &why);
    int linked = gm_rewrite_file(in_root("linked.py"), big, sizeof big - 1, &why);
    setrlimit(RLIMIT_FSIZE, &saved);
    CHECK_EQ_INT(single, -1);
    CHECK_EQ_INT(linked, -1);
    check_content("single.py", "old\n");
    check_content("other.py", "old\n");
    CHECK_EQ_INT(entries_in_root(), before);
}

int main(void) {
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    keeps_mode_and_links();
    full_disk_keeps_the_file();
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", root);
    if (system(command) != 0) {
        fprintf(stderr, "could not remove %s\n", root);
    }
    return check_exit_code("server/cli/file_rewrite");
}
