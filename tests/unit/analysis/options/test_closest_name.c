/* "Did you mean": the nearest known name to a typo, and none for a word that is no typo. */
#include "check.h"

#include "analysis/options/analysis_options.h"
#include "analysis/options/closest_name.h"

static void typos_of_commands_and_keys(void) {
    const char *const commands[] = {"serve", "check", "fix", "rule", "profile", "confirm", NULL};
    size_t n = sizeof commands / sizeof *commands;
    CHECK_EQ_STR(gm_closest_name("chek", commands, n), "check");
    CHECK_EQ_STR(gm_closest_name("chcek", commands, n), "check"); /* a swap is one edit */
    CHECK_EQ_STR(gm_closest_name("CHECK", commands, n), "check");
    CHECK_EQ_STR(gm_closest_name("confrim", commands, n), "confirm");
    CHECK_EQ_STR(gm_closest_name("fx", commands, n), "fix");
    CHECK(gm_closest_name("format", commands, n) == NULL);
    CHECK(gm_closest_name("", commands, n) == NULL);
    CHECK(gm_closest_name("a-very-long-word-that-is-nothing-like-any-command-of-the-tool-at-all",
                          commands, n) == NULL);
    const char *const keys[] = {"ignore", "select", "extend-select", "torch-version"};
    CHECK_EQ_STR(gm_closest_name("ignor", keys, 4), "ignore");
    CHECK_EQ_STR(gm_closest_name("extend_select", keys, 4), "extend-select");
    CHECK_EQ_STR(gm_closest_name("torch_versoin", keys, 4), "torch-version");
}

static void typos_of_rule_ids(void) {
    CHECK_EQ_STR(gm_closest_rule_id("GM410"), "GM401");
    CHECK_EQ_STR(gm_closest_rule_id("gm401"), "GM401");
    CHECK(gm_closest_rule_id("E501") == NULL);
}

int main(void) {
    typos_of_commands_and_keys();
    typos_of_rule_ids();
    return check_exit_code("analysis/options/closest_name");
}
