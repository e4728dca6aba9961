#include "server/workspace/inode_set.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t slot_of(const gm_inode_set *set, dev_t dev, ino_t ino) {
    uint64_t h = ((uint64_t)ino * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)dev * 0xff51afd7ed558ccdull);
    return (size_t)(h ^ (h >> 29)) & (set->size - 1);
}

static int grow(gm_inode_set *set) {
    size_t size = set->size ? set->size * 2 : 64;
    gm_inode *slots = calloc(size, sizeof *slots);
    if (!slots) {
        return -1;
    }
    gm_inode_set old = *set;
    set->slots = slots;
    set->size = size;
    for (size_t i = 0; i < old.size; i++) {
        if (old.slots[i].used) {
            size_t at = slot_of(set, old.slots[i].dev, old.slots[i].ino);
            while (set->slots[at].used) {
                at = (at + 1) & (size - 1);
            }
            set->slots[at] = old.slots[i];
        }
    }
    free(old.slots);
    return 0;
}

int gm_inode_set_add(gm_inode_set *set, dev_t dev, ino_t ino) {
    if (2 * (set->count + 1) > set->size && grow(set) != 0) {
        return -1;
    }
    size_t at = slot_of(set, dev, ino);
    while (set->slots[at].used) {
        if (set->slots[at].ino == ino && set->slots[at].dev == dev) {
            return 0;
        }
        at = (at + 1) & (set->size - 1);
    }
    set->slots[at] = (gm_inode){dev, ino, true};
    set->count++;
    return 1;
}

void gm_inode_set_free(gm_inode_set *set) {
    free(set->slots);
    memset(set, 0, sizeof *set);
}
