/* The files and directories a walk has seen, by (device, inode): a symlink loop or a second
 * link to the same file is recognised whatever path reaches it. */
#ifndef GM_SERVER_WORKSPACE_INODE_SET_H
#define GM_SERVER_WORKSPACE_INODE_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
    dev_t dev;
    ino_t ino;
    bool used;
} gm_inode;

typedef struct {
    gm_inode *slots;
    size_t size, count;
} gm_inode_set;

/* Adds (dev, ino). Returns 1 when it was new, 0 when already there, -1 on OOM. */
int gm_inode_set_add(gm_inode_set *set, dev_t dev, ino_t ino);
void gm_inode_set_free(gm_inode_set *set);

#endif
