/* What `graphmend fix` keeps of a file it rewrites: mode, symlinks, hard links, read-only files
 * refused; and on a full disk (a file size limit stands in for one) the file as it was and no
 * temp file left, both for the atomic replace and for the in-place rewrite of a hard link; a file
 * changed since it was read is left as it is. */
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
    CHECK_EQ_INT(gm_rewrite_file(in_root("script.py"), NULL, 0, "new\n", 4, &why), 0);
    struct stat info;
    CHECK(stat(in_root("script.py"), &info) == 0 && (info.st_mode & 07777) == 0750);
    check_content("script.py", "new\n");

    CHECK_EQ_INT(symlink("script.py", in_root("link.py")), 0);
    CHECK_EQ_INT(gm_rewrite_file(in_root("link.py"), NULL, 0, "newer\n", 6, &why), 0);
    CHECK(lstat(in_root("link.py"), &info) == 0 && S_ISLNK(info.st_mode));
    check_content("script.py", "newer\n");

    CHECK_EQ_INT(link(in_root("script.py"), in_root("hard.py")), 0);
    CHECK_EQ_INT(gm_rewrite_file(in_root("script.py"), NULL, 0, "in place\n", 9, &why), 0);
    check_content("hard.py", "in place\n");
    CHECK(stat(in_root("hard.py"), &info) == 0 && info.st_nlink == 2);
    CHECK_EQ_INT(entries_in_root(), 3);

    make("frozen.py", "keep\n", 0444);
    CHECK_EQ_INT(gm_rewrite_file(in_root("frozen.py"), NULL, 0, "lost\n", 5, &why), -1);
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
    int single = gm_rewrite_file(in_root("single.py"), NULL, 0, big, sizeof big - 1, &why);
    int linked = gm_rewrite_file(in_root("linked.py"), NULL, 0, big, sizeof big - 1, &why);
    setrlimit(RLIMIT_FSIZE, &saved);
    CHECK_EQ_INT(single, -1);
    CHECK_EQ_INT(linked, -1);
    check_content("single.py", "old\n");
    check_content("other.py", "old\n");
    CHECK_EQ_INT(entries_in_root(), before);
}

/* fix read "old\n" and mended it; the user appended a line (or edited in place, same length)
 * meanwhile: the user's text stays and the call says why. */
static void changed_on_disk_is_left_alone(void) {
    const char *why = NULL;
    make("edited.py", "old\nX\n", 0644);
    CHECK_EQ_INT(gm_rewrite_file(in_root("edited.py"), "old\n", 4, "new\n", 4, &why), -1);
    CHECK(why != NULL && strstr(why, "changed on disk") != NULL);
    check_content("edited.py", "old\nX\n");
    make("same_length.py", "olD\n", 0644);
    CHECK_EQ_INT(gm_rewrite_file(in_root("same_length.py"), "old\n", 4, "new\n", 4, &why), -1);
    check_content("same_length.py", "olD\n");
    make("cut.py", "ol", 0644);
    CHECK_EQ_INT(gm_rewrite_file(in_root("cut.py"), "old\n", 4, "new\n", 4, &why), -1);
    check_content("cut.py", "ol");
    make("kept.py", "old\n", 0644);
    CHECK_EQ_INT(gm_rewrite_file(in_root("kept.py"), "old\n", 4, "new\n", 4, &why), 0);
    check_content("kept.py", "new\n");
}

int main(void) {
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    keeps_mode_and_links();
    full_disk_keeps_the_file();
    changed_on_disk_is_left_alone();
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", root);
    if (system(command) != 0) {
        fprintf(stderr, "could not remove %s\n", root);
    }
    return check_exit_code("server/cli/file_rewrite");
}
