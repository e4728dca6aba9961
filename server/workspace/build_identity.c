#define _GNU_SOURCE /* dl_iterate_phdr */
#include "server/workspace/build_identity.h"

#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <string.h>

#include "analysis/module_facts/symbols.h"

typedef struct {
    uint64_t digest;
    bool found;
} build_id_search;

static size_t align4(size_t n) {
    return (n + 3) & ~(size_t)3;
}

/* The first object dl_iterate_phdr reports is the program itself. */
static int scan_program(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    build_id_search *search = data;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const unsigned char *at = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = at + ph->p_memsz;
        while ((size_t)(end - at) >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)(const void *)at;
            const unsigned char *name = at + sizeof *note;
            const unsigned char *desc = name + align4(note->n_namesz);
            if (desc > end || (size_t)(end - desc) < note->n_descsz)
                break;
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                memcmp(name, "GNU", 4) == 0) {
                search->digest = gm_hash_bytes(search->digest, desc, note->n_descsz);
                search->found = true;
                return 1;
            }
            at = desc + align4(note->n_descsz);
        }
    }
    return 1;
}

uint64_t gm_build_identity(void) {
    static const char version[] = "graphmend " GM_VERSION;
    build_id_search search = {gm_hash_bytes(GM_HASH_INIT, version, sizeof version), false};
    dl_iterate_phdr(scan_program, &search);
    return search.digest;
}
