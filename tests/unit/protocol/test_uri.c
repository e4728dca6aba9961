/* Unit tests for protocol/uri: decoding, encoding, round trips and rejections. */
#include "check.h"
#include "protocol/uri.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_to_path(const char *uri, const char *expected) {
    char *p = gm_uri_to_path(uri);
    if (expected) {
        CHECK_EQ_STR(p, expected);
    } else {
        CHECK(p == NULL);
        if (p)
            fprintf(stderr, "  %s -> \"%s\", expected rejection\n", uri, p);
    }
    free(p);
}

static void check_to_uri(const char *path, const char *expected) {
    char *u = gm_path_to_uri(path);
    if (expected)
        CHECK_EQ_STR(u, expected);
    else
        CHECK(u == NULL);
    free(u);
}

static void test_decode(void) {
    check_to_path("file:///home/a%20b/x.py", "/home/a b/x.py");
    check_to_path("file:///home/user/model.py", "/home/user/model.py");
    check_to_path("file:///", "/");
    check_to_path("file:///c%3A/x", "/c:/x");
    check_to_path("file:///c%3a/x", "/c:/x");
    check_to_path("file:///%C3%A9t%c3%a9/%E2%82%AC.py", "/\xC3\xA9t\xC3\xA9/\xE2\x82\xAC.py");
    check_to_path("file:///already/\xC3\xA9/raw", "/already/\xC3\xA9/raw");
    check_to_path("file:///a%2Fb", "/a/b");
    check_to_path("file:///100%25", "/100%");
    check_to_path("file:///a+b", "/a+b"); /* '+' is not a space in a path */
    check_to_path("file://localhost/etc/x.py", "/etc/x.py");
    check_to_path("file://LOCALHOST/etc/x.py", "/etc/x.py");
    check_to_path("FILE:///etc/x.py", "/etc/x.py");
    check_to_path("file:/etc/x.py", "/etc/x.py");
    check_to_path("file:///x.py?query=1", "/x.py");
    check_to_path("file:///x.py#L10", "/x.py");
    check_to_path("file:///x%23y.py", "/x#y.py");
}

static void test_reject(void) {
    check_to_path(NULL, NULL);
    check_to_path("", NULL);
    check_to_path("http://example.com/x.py", NULL);
    check_to_path("untitled:Untitled-1", NULL);
    check_to_path("vscode-notebook-cell:/a.ipynb#X1", NULL);
    check_to_path("fil:///x", NULL);
    check_to_path("/home/x.py", NULL);
    check_to_path("file://", NULL);
    check_to_path("file:relative/x.py", NULL);
    check_to_path("file://server/share/x.py", NULL); /* a remote host */
    check_to_path("file://localhostx/x.py", NULL);
    check_to_path("file:///a%", NULL);
    check_to_path("file:///a%2", NULL);
    check_to_path("file:///a%2G", NULL);
    check_to_path("file:///a%G2", NULL);
    check_to_path("file:///a%%20", NULL);
    check_to_path("file:///a%00b", NULL);
    check_to_path("file:///a%2?x", NULL); /* the escape may not borrow from the query */
}

static void test_encode(void) {
    check_to_uri("/home/a b/x.py", "file:///home/a%20b/x.py");
    check_to_uri("/", "file:///");
    check_to_uri("/c:/x", "file:///c%3A/x");
    check_to_uri("/A-Za-z0-9-._~/", "file:///A-Za-z0-9-._~/");
    check_to_uri("/\xC3\xA9\xE2\x82\xAC", "file:///%C3%A9%E2%82%AC");
    check_to_uri("/a#b?c%d+e@f=g&h;i,j'k(l)",
                 "file:///a%23b%3Fc%25d%2Be%40f%3Dg%26h%3Bi%2Cj%27k%28l%29");
    check_to_uri("/tab\there", "file:///tab%09here");
    check_to_uri("/\x7F\xFF", "file:///%7F%FF");
    check_to_uri("relative/x.py", NULL);
    check_to_uri("", NULL);
    check_to_uri(NULL, NULL);
}

static uint64_t rng_next(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

/* Every byte except NUL survives path -> URI -> path; URIs contain only safe characters. */
static void test_round_trip(void) {
    uint64_t seed = 77;
    int failures = 0;
    for (int iter = 0; iter < 5000; iter++) {
        char path[80];
        size_t n = 1 + rng_next(&seed) % 70;
        path[0] = '/';
        for (size_t i = 1; i < n; i++) {
            uint64_t x = rng_next(&seed);
            /* Bias towards ordinary characters, but cover all 255 non-NUL bytes. */
            path[i] = x % 3 == 0 ? (char)(1 + (x >> 8) % 255) : "abc/._-~ %:#?"[(x >> 8) % 13];
        }
        path[n] = '\0';
        char *uri = gm_path_to_uri(path);
        char *back = uri ? gm_uri_to_path(uri) : NULL;
        if (!uri || !back || strcmp(back, path) != 0)
            failures++;
        if (uri) {
            for (const char *c = uri + 7; *c; c++) {
                if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/%",
                            *c))
                    failures++;
            }
            /* URI -> path -> URI is the identity on canonical URIs. */
            char *again = back ? gm_path_to_uri(back) : NULL;
            if (!again || strcmp(again, uri) != 0)
                failures++;
            free(again);
        }
        free(uri);
        free(back);
    }
    CHECK_EQ_INT(failures, 0);
}

/* A NUL, raw or percent-encoded, makes a URI name nothing (and would cut a C string short). */
static void test_has_nul(void) {
    static const char raw[] = "file:///tmp/a.py\0.txt";
    CHECK(gm_uri_has_nul(raw, sizeof raw - 1));
    CHECK(!gm_uri_has_nul(raw, strlen(raw)));
    CHECK(gm_uri_has_nul("file:///tmp/a.py%00.txt", 23));
    CHECK(gm_uri_has_nul("file:///tmp/a.py?q=%00", 22));
    CHECK(!gm_uri_has_nul("file:///tmp/a%20b%0A.py", 23));
    CHECK(!gm_uri_has_nul("file:///tmp/a%0", 15));
    CHECK(!gm_uri_has_nul("", 0));
}

int main(void) {
    test_decode();
    test_has_nul();
    test_reject();
    test_encode();
    test_round_trip();
    return check_exit_code("test_uri");
}
