/* libFuzzer target: bytes -> a small directory tree (directories, files, FIFOs, symlinks that may
 * loop, hard links) in a scratch directory -> the walk for Python files and the reader. The walk
 * must end, report each real file at most once, keep to its file cap, find the same files in
 * small steps as in one go; the reader must never block (a FIFO) and read regular files whole. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/workspace/file_reader.h"
#include "server/workspace/inode_set.h"
#include "server/workspace/python_files.h"
#include "server/workspace/python_walk.h"

#define MAX_NODES 48

static char scratch[] = "/tmp/gm-fuzz-walk-XXXXXX";
static char tree[64];

static const char *const names[] = {"a",  "b.py",      "c.py",        "pkg",      "__init__.py",
                                    "l1", ".hidden.py", "__pycache__", "pyvenv.cfg", "d.py"};

/* Every node made for this input, in creation order: removed in reverse, children first. */
static char nodes[MAX_NODES][1024];
static bool is_dir[MAX_NODES];
static size_t node_count;

static void add_node(const char *path, bool dir) {
    snprintf(nodes[node_count], sizeof nodes[node_count], "%s", path);
    is_dir[node_count++] = dir;
}

/* A directory made so far (the tree's root counts as one), chosen by byte. */
static const char *pick_dir(uint8_t byte) {
    size_t dirs = 1;
    for (size_t i = 0; i < node_count; i++)
        dirs += is_dir[i];
    size_t want = byte % dirs;
    if (want == 0)
        return tree;
    for (size_t i = 0; i < node_count; i++)
        if (is_dir[i] && --want == 0)
            return nodes[i];
    return tree;
}

static const char *pick_node(uint8_t byte) {
    return node_count == 0 || byte % (node_count + 1) == node_count ? tree
                                                                    : nodes[byte % (node_count + 1)];
}

static void build(const uint8_t *data, size_t size) {
    node_count = 0;
    mkdir(tree, 0700);
    for (size_t at = 0; at + 3 <= size && node_count < MAX_NODES; at += 3) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", pick_dir(data[at + 1]),
                 names[data[at + 2] % (sizeof names / sizeof *names)]);
        bool made = false, dir = false;
        switch (data[at] % 5) {
        case 0:
            made = mkdir(path, 0700) == 0;
            dir = made;
            break;
        case 1: {
            int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
            if (fd >= 0) {
                size_t n = size - at < 16 ? size - at : 16;
                made = true; /* made even if the write fails: an empty file */
                if (write(fd, data + at, n) < 0)
                    made = true;
                close(fd);
            }
            break;
        }
        case 2: /* absolute, always inside the tree: loops, never the whole file system */
            made = symlink(pick_node(data[at + 1] ^ data[at + 2]), path) == 0;
            break;
        case 3:
            made = mkfifo(path, 0600) == 0;
            break;
        default:
            made = link(pick_node(data[at + 2]), path) == 0;
            break;
        }
        if (made)
            add_node(path, dir);
    }
}

static void tear_down(void) {
    while (node_count > 0) {
        node_count--;
        if (is_dir[node_count])
            rmdir(nodes[node_count]);
        else
            unlink(nodes[node_count]);
    }
    rmdir(tree);
}

static void check_walk(size_t cap) {
    gm_path_list whole = {0}, stepped = {0};
    bool truncated = false;
    gm_find_python_files(tree, &whole, cap, &truncated);
    if (whole.count > cap)
        abort();
    gm_inode_set seen = {0};
    for (size_t i = 0; i < whole.count; i++) {
        struct stat info;
        if (stat(whole.paths[i], &info) != 0 || !S_ISREG(info.st_mode) ||
            gm_inode_set_add(&seen, info.st_dev, info.st_ino) != 1)
            abort(); /* not a file, or a file reported twice */
        size_t len = 0;
        char *text = gm_read_file(whole.paths[i], &len);
        if (!text || len != (size_t)info.st_size)
            abort();
        free(text);
    }
    gm_inode_set_free(&seen);
    gm_python_walk *walk = gm_python_walk_new(tree, cap, true);
    if (!walk)
        abort();
    while (gm_python_walk_step(walk, &stepped, 1)) {
    }
    if (gm_python_walk_truncated(walk) != truncated || stepped.count != whole.count)
        abort();
    for (size_t i = 0; i < whole.count; i++)
        if (strcmp(whole.paths[i], stepped.paths[i]) != 0)
            abort();
    gm_python_walk_free(walk);
    gm_path_list_free(&whole);
    gm_path_list_free(&stepped);
}

static void remove_scratch(void) {
    rmdir(scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!tree[0]) {
        if (!mkdtemp(scratch))
            abort();
        snprintf(tree, sizeof tree, "%s/t", scratch);
        atexit(remove_scratch);
    }
    if (size == 0)
        return 0;
    build(data + 1, size - 1);
    check_walk(data[0] % 8);
    /* The reader on every node: FIFOs and links to them must be refused at once. */
    for (size_t i = 0; i < node_count; i++) {
        size_t len;
        free(gm_read_file(nodes[i], &len));
    }
    tear_down();
    return 0;
}
