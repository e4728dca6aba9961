/* The verdicts of `graphmend confirm` without torch: graphmend's real findings for a small file
 * judged against a stand-in for the helper's --confirm answer. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyzer.h"
#include "check.h"
#include "server/profile/confirm_report.h"

static const char *model = "import torch\n"                  /* 1 */
                           "from torch import nn\n"          /* 2 */
                           "\n"                              /* 3 */
                           "class Net(nn.Module):\n"         /* 4 */
                           "    def forward(self, x):\n"     /* 5 */
                           "        h = x + 1\n"             /* 6 */
                           "        print('h', h.sum())\n"   /* 7: dynamo broke here */
                           "        s = h.sum().item()\n"    /* 8: traced, no break */
                           "        if s > 0:\n"             /* 9 */
                           "            t = h.max().item()\n" /* 10: never traced */
                           "        return h * 2\n";         /* 11: a break nobody predicted */

static const char *dynamo_answer =
    "{\"ok\": true, \"confirm\": true, \"torch\": \"2.13.0+cpu\", \"python\": \"3.11.7\","
    " \"device\": \"cpu\", \"graphs\": 3, \"graph_breaks\": 2,"
    " \"breaks\": [{\"line\": 7, \"reason\": \"Failed to trace builtin operator\","
    "  \"explanation\": \"print\", \"registry_id\": \"GB0059\", \"sources\": [\"log\"]},"
    " {\"line\": 11, \"reason\": \"Something new\", \"explanation\": \"\", \"registry_id\":"
    "  \"GB0321\", \"sources\": [\"break_reasons\"]}],"
    " \"traced_lines\": [5, 6, 7, 8, 9, 11]}";

static const char *verdict_on(const json_t *report, json_int_t line) {
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(report, "findings"), i, item) {
        if (json_integer_value(json_object_get(item, "line")) == line) {
            return json_string_value(json_object_get(item, "verdict"));
        }
    }
    return NULL;
}

static json_t *judge(const char *answer_text) {
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    gm_finding_list findings;
    gm_finding_list_init(&findings);
    CHECK_EQ_INT(gm_analyze_source(model, strlen(model), &options, &findings), 0);
    json_t *answer = json_loads(answer_text, 0, NULL);
    CHECK(answer != NULL);
    json_t *report = gm_confirm_report_build("net.py", "entry", &findings, answer);
    json_decref(answer);
    gm_finding_list_free(&findings);
    return report;
}

static void judges_each_finding(void) {
    json_t *report = judge(dynamo_answer);
    CHECK(report != NULL);
    CHECK_EQ_STR(verdict_on(report, 7), "confirmed");
    CHECK_EQ_STR(verdict_on(report, 8), "contradicted");
    CHECK_EQ_STR(verdict_on(report, 10), "not_reached");
    CHECK_EQ_INT(json_array_size(json_object_get(report, "findings")), 3);
    json_t *missed = json_object_get(report, "unpredicted");
    CHECK_EQ_INT(json_array_size(missed), 1);
    json_t *first = json_array_get(missed, 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(first, "line")), 11);
    CHECK_EQ_STR(json_string_value(json_object_get(first, "url")),
                 "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0321.html");
    CHECK(json_real_value(json_object_get(report, "precision")) == 0.5);
    CHECK(json_real_value(json_object_get(report, "recall")) == 0.5);
    CHECK_EQ_STR(json_string_value(json_object_get(report, "summary")),
                 "precision 0.50 (1 of 2 reached predictions confirmed), recall 0.50 (1 of 2 "
                 "dynamo break sites predicted)");

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    gm_confirm_report_print_text(out, report);
    fclose(out);
    CHECK(strstr(text, "7:9: GM401 confirmed by torch 2.13\n") != NULL);
    CHECK(strstr(text, "GM201 contradicted") != NULL);
    CHECK(strstr(text, "10:") && strstr(text, "not reached by this input"));
    CHECK(strstr(text, "11: GB0321 Something new\n") != NULL);
    free(text);
    json_decref(report);
}

static void nothing_reached_gives_no_ratios(void) {
    json_t *report = judge("{\"ok\": true, \"torch\": \"2.13.0\", \"python\": \"3.11.7\","
                           " \"device\": \"cpu\", \"graphs\": 1, \"graph_breaks\": 0,"
                           " \"breaks\": [], \"traced_lines\": []}");
    CHECK(report != NULL);
    CHECK(json_is_null(json_object_get(report, "precision")));
    CHECK(json_is_null(json_object_get(report, "recall")));
    CHECK_EQ_STR(verdict_on(report, 7), "not_reached");
    CHECK_EQ_STR(json_string_value(json_object_get(report, "summary")),
                 "precision n/a (no reached predictions confirmed), recall n/a (no dynamo break "
                 "sites predicted)");
    json_decref(report);
}

int main(void) {
    judges_each_finding();
    nothing_reached_gives_no_ratios();
    return check_exit_code("server/profile/confirm_report");
}
