/* The cache of module summaries: the codec gives back what it was given and refuses every cut
 * and no corruption crashes it; the store keeps entries between opens, drops an entry whose
 * bytes changed and a file that is not its own, follows no symlink, and two stores saving
 * one file leave a whole one. On real files in a temporary directory. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/module_facts/summary_codec.h"
#include "check.h"
#include "server/workspace/summary_store.h"

static const char SOURCE[] =
    "import torch\n"
    "from torch import nn\n"
    "from .helpers import norm as n2, scale\n"
    "from .layers import *\n"
    "class Block(nn.Module):\n"
    "    def forward(self, x):\n"
    "        return n2(x) * scale(x)\n"
    "class Net(Block):\n"
    "    def score(self, x):\n"
    "        return self.forward(x).sum()\n"
    "def helper(x) -> torch.Tensor:\n"
    "    return x + 1\n"
    "def flag():\n"
    "    return False\n"
    "from .other import run, Model\n"
    "compiled = torch.compile(run)\n"
    "model = torch.compile(Model())\n";

static char root[] = "/tmp/gm-summary-store-XXXXXX";

static void summary_of(const char *text, gm_module_summary *summary) {
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    CHECK_EQ_INT(gm_module_summary_from_source(text, strlen(text), &options, summary), 0);
}

static void encoded(const gm_module_summary *summary, gm_byte_buffer *out) {
    memset(out, 0, sizeof *out);
    CHECK_EQ_INT(gm_summary_encode(summary, out), 0);
}

static void test_round_trip(void) {
    gm_module_summary summary, back;
    summary_of(SOURCE, &summary);
    const char *facts[] = {"property:Net.size:GM202:3", "stores:Net.score"};
    CHECK_EQ_INT(gm_module_summary_set_property_facts(&summary, facts, 2), 0);
    CHECK(summary.node_count > 3 && summary.import_count >= 4 && summary.class_count == 2);
    CHECK(summary.target_count >= 1);
    gm_byte_buffer first, second;
    encoded(&summary, &first);
    CHECK_EQ_INT(gm_summary_decode(first.data, first.len, &back), 0);
    CHECK(back.digest == summary.digest);
    CHECK_EQ_INT(back.node_count, summary.node_count);
    CHECK_EQ_STR(back.nodes[0].key, summary.nodes[0].key);
    CHECK_EQ_STR(back.classes[1].bases[0], summary.classes[1].bases[0]);
    CHECK_EQ_STR(back.property_facts[1], "stores:Net.score");
    CHECK(back.forward_is_compiled == summary.forward_is_compiled);
    encoded(&back, &second);
    CHECK(first.len == second.len && memcmp(first.data, second.data, first.len) == 0);
    /* every cut is refused; a corrupted byte decodes to something or nothing, never a crash
     * (under ASan a read or a free out of bounds would stop the test) */
    size_t refused = 0;
    for (size_t len = 0; len < first.len; len++) {
        gm_module_summary cut;
        if (gm_summary_decode(first.data, len, &cut) == 0)
            gm_module_summary_free(&cut);
        else
            refused++;
    }
    CHECK_EQ_INT(refused, first.len);
    for (size_t at = 0; at < first.len; at++) {
        for (unsigned flip = 1; flip < 256; flip <<= 1) {
            first.data[at] ^= (uint8_t)flip;
            gm_module_summary bad;
            if (gm_summary_decode(first.data, first.len, &bad) == 0)
                gm_module_summary_free(&bad);
            first.data[at] ^= (uint8_t)flip;
        }
    }
    gm_byte_buffer_free(&first);
    gm_byte_buffer_free(&second);
    gm_module_summary_free(&back);
    gm_module_summary_free(&summary);
}

static const char *in_root(const char *name) {
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, name);
    return path;
}

static gm_summary_store *open_store(void) {
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    return gm_summary_store_open(in_root("cache"), root, &options);
}

static bool file_exists(const char *path) {
    struct stat info;
    return lstat(path, &info) == 0;
}

/* Flips a byte inside the last entry's payload: before the file's last 12 bytes (the count of
 * file stamps, none here, and their checksum). */
static void corrupt_tail(const char *path) {
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    off_t end = lseek(fd, 0, SEEK_END);
    unsigned char byte = 0;
    CHECK(pread(fd, &byte, 1, end - 15) == 1);
    byte ^= 0x20;
    CHECK(pwrite(fd, &byte, 1, end - 15) == 1);
    close(fd);
}

static void test_store(void) {
    gm_module_summary summary, other, got;
    summary_of(SOURCE, &summary);
    summary_of("def f(x):\n    return x\n", &other);
    gm_summary_store *store = open_store();
    CHECK(store != NULL);
    if (!store)
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s", gm_summary_store_path(store));
    CHECK(file_exists(in_root("cache/.gitignore")));
    CHECK(file_exists(in_root("cache/CACHEDIR.TAG")));
    gm_summary_memo memo = gm_summary_store_memo(store);
    CHECK(!memo.lookup(memo.context, 11, &got));
    memo.store(memo.context, 11, &summary);
    memo.store(memo.context, 22, &other);
    CHECK_EQ_INT(gm_summary_store_save(store), 0);
    gm_summary_store_free(store);

    store = open_store();
    memo = gm_summary_store_memo(store);
    CHECK_EQ_INT(gm_summary_store_statistics(store).loaded, 2);
    CHECK(memo.lookup(memo.context, 11, &got));
    CHECK(got.digest == summary.digest);
    gm_module_summary_free(&got);
    CHECK(memo.lookup(memo.context, 22, &got));
    CHECK(got.digest == other.digest);
    gm_module_summary_free(&got);
    CHECK_EQ_INT(gm_summary_store_save(store), 0); /* nothing new: the file is left alone */
    gm_summary_store_free(store);

    /* a changed byte: that entry is not trusted, the other still is, and the next save
     * rewrites the file without it */
    corrupt_tail(path);
    store = open_store();
    memo = gm_summary_store_memo(store);
    int hits = 0;
    for (uint64_t key = 11; key <= 22; key += 11) {
        if (memo.lookup(memo.context, key, &got)) {
            hits++;
            gm_module_summary_free(&got);
        }
    }
    CHECK_EQ_INT(hits, 1);
    CHECK_EQ_INT(gm_summary_store_statistics(store).rejected, 1);
    memo.store(memo.context, 22, &other);
    memo.store(memo.context, 11, &summary);
    CHECK_EQ_INT(gm_summary_store_save(store), 0);
    gm_summary_store_free(store);
    store = open_store();
    memo = gm_summary_store_memo(store);
    CHECK(memo.lookup(memo.context, 11, &got) && got.digest == summary.digest);
    gm_module_summary_free(&got);
    CHECK(memo.lookup(memo.context, 22, &got) && got.digest == other.digest);
    gm_module_summary_free(&got);
    gm_summary_store_free(store);

    /* cut short, and someone else's bytes: read as far as they go, then written anew */
    CHECK_EQ_INT(truncate(path, 40), 0);
    store = open_store();
    memo = gm_summary_store_memo(store);
    CHECK(!memo.lookup(memo.context, 11, &got));
    memo.store(memo.context, 11, &summary);
    CHECK_EQ_INT(gm_summary_store_save(store), 0);
    gm_summary_store_free(store);
    FILE *junk = fopen(path, "w");
    CHECK(junk != NULL);
    if (junk) {
        fputs("not a cache at all, but long enough to have a header", junk);
        fclose(junk);
    }
    store = open_store();
    CHECK_EQ_INT(gm_summary_store_statistics(store).loaded, 0);
    memo = gm_summary_store_memo(store);
    memo.store(memo.context, 11, &summary);
    CHECK_EQ_INT(gm_summary_store_save(store), 0);
    gm_summary_store_free(store);
    store = open_store();
    CHECK_EQ_INT(gm_summary_store_statistics(store).loaded, 1);
    gm_summary_store_free(store);

    /* a symlink in the file's place is not followed: its target is neither read nor written */
    FILE *target = fopen(in_root("target"), "w");
    CHECK(target != NULL);
    if (target) {
        fputs("precious\n", target);
        fclose(target);
    }
    CHECK_EQ_INT(unlink(path), 0);
    CHECK_EQ_INT(symlink(in_root("target"), path), 0);
    store = open_store();
    CHECK_EQ_INT(gm_summary_store_statistics(store).loaded, 0);
    memo = gm_summary_store_memo(store);
    memo.store(memo.context, 22, &other);
    CHECK_EQ_INT(gm_summary_store_save(store), 0); /* renamed over the link, not through it */
    gm_summary_store_free(store);
    struct stat info;
    CHECK(lstat(path, &info) == 0 && S_ISREG(info.st_mode));
    char text[32] = "";
    target = fopen(in_root("target"), "r");
    if (target) {
        CHECK(fgets(text, sizeof text, target) != NULL);
        fclose(target);
    }
    CHECK_EQ_STR(text, "precious\n");

    /* two runs at once: each saves a whole file, the last one wins */
    gm_summary_store *a = open_store(), *b = open_store();
    gm_summary_memo ma = gm_summary_store_memo(a), mb = gm_summary_store_memo(b);
    ma.store(ma.context, 33, &summary);
    mb.store(mb.context, 44, &other);
    CHECK_EQ_INT(gm_summary_store_save(a), 0);
    CHECK_EQ_INT(gm_summary_store_save(b), 0);
    gm_summary_store_free(a);
    gm_summary_store_free(b);
    store = open_store();
    memo = gm_summary_store_memo(store);
    CHECK(memo.lookup(memo.context, 44, &got) && got.digest == other.digest);
    gm_module_summary_free(&got);
    gm_summary_store_free(store);

    /* a cache directory that is a file: no store, the run goes without */
    FILE *plain = fopen(in_root("plain"), "w");
    if (plain)
        fclose(plain);
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    CHECK(gm_summary_store_open(in_root("plain"), root, &options) == NULL);
    /* other options: another file */
    options.training = true;
    store = gm_summary_store_open(in_root("cache"), root, &options);
    CHECK(store && strcmp(gm_summary_store_path(store), path) != 0);
    gm_summary_store_free(store);

    gm_module_summary_free(&summary);
    gm_module_summary_free(&other);
}

int main(void) {
    CHECK(mkdtemp(root) != NULL);
    test_round_trip();
    test_store();
    char command[256];
    snprintf(command, sizeof command, "rm -rf '%s'", root);
    CHECK_EQ_INT(system(command), 0);
    return check_exit_code("summary_store");
}
