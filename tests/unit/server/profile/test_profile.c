/* The profile machinery without torch: the mends of the mended arm, the report and its
 * renderings, the private directory, the job's process handling (with stand-in interpreters
 * that crash, hang or do not exist), and the LSP command without an event loop. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "analysis/mend_apply.h"
#include "check.h"
#include "server/lsp/lsp_server.h"
#include "server/profile/defaults.h"
#include "server/profile/helper_script.h"
#include "server/profile/job.h"
#include "server/profile/report.h"
#include "server/profile/workdir.h"

static const char *print_model = "import torch\n"
                                 "from torch import nn\n"
                                 "\n"
                                 "class Net(nn.Module):\n"
                                 "    def forward(self, x):\n"
                                 "        h = x + 1\n"
                                 "        print('h', h.sum())\n"
                                 "        return h * 2\n";

static void mends_print_only_when_unsafe_fixes_are_asked(void) {
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    size_t len = strlen(print_model), safe_len = 0, unsafe_len = 0, safe = 0, unsafe = 0;
    char *safe_text = gm_mend_text(print_model, len, false, &options, NULL, 0, &safe_len, &safe);
    char *unsafe_text =
        gm_mend_text(print_model, len, true, &options, NULL, 0, &unsafe_len, &unsafe);
    CHECK(safe_text && unsafe_text);
    CHECK(unsafe >= 1);
    CHECK(safe <= unsafe);
    /* Which mend the print gets is the rules' business; that the copy changed is ours. */
    CHECK(unsafe_len != len || memcmp(unsafe_text, print_model, len) != 0);
    CHECK_EQ_INT(unsafe_text[unsafe_len], '\0');
    free(safe_text);
    free(unsafe_text);
}

static json_t *arm(const char *json) {
    json_t *value = json_loads(json, 0, NULL);
    CHECK(value != NULL);
    return value;
}

static void builds_and_renders_the_report(void) {
    json_t *original =
        arm("{\"ok\":true,\"device\":\"cpu\",\"torch\":\"2.13.0\",\"fallback\":\"no CUDA: "
            "profiled on the CPU\",\"graphs\":3,\"breaks\":2,\"break_reasons\":[{\"reason\":"
            "\"Failed to trace builtin operator\",\"location\":\"m.py:7\"}],\"compile_s\":1.5,"
            "\"cold_ms\":1500.0,\"steady_ms\":2.0,\"steady_p90_ms\":2.5,\"eager_ms\":3.0,"
            "\"steady_q1_ms\":1.9,\"steady_q3_ms\":2.1,"
            "\"iterations\":3}");
    json_t *mended = arm("{\"ok\":true,\"device\":\"cpu\",\"torch\":\"2.13.0\",\"graphs\":1,"
                         "\"breaks\":0,\"break_reasons\":[],\"compile_s\":0.5,\"cold_ms\":500.0,"
                         "\"steady_ms\":1.0,\"steady_p90_ms\":1.25,\"outputs_match\":true,"
                         "\"steady_q1_ms\":0.9,\"steady_q3_ms\":1.1}");
    gm_profile_report_info info = {"m.py", "graphmend_profile_entry", "default", "inductor", 1,
                                   0, true};
    json_t *report = gm_profile_report_build(&info, original, mended);
    CHECK(json_is_true(json_object_get(report, "ok")));
    CHECK(json_is_true(json_object_get(report, "outputs_match")));
    CHECK_EQ_STR(json_string_value(json_object_get(report, "device")), "cpu");
    CHECK_EQ_STR(json_string_value(json_object_get(report, "fallback")),
                 "no CUDA: profiled on the CPU");
    CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(report, "original"), "graphs")),
                 3);
    CHECK(json_object_get(json_object_get(report, "original"), "iterations") == NULL);
    CHECK_EQ_INT(json_integer_value(json_object_get(report, "mends_applied")), 1);

    char *markdown = gm_profile_report_markdown(report);
    CHECK(markdown && strstr(markdown, "| graphs | 3 | 1 |"));
    CHECK(markdown && strstr(markdown, "```text"));
    /* the steady ranges are apart: a ratio; one cold call an arm: none */
    CHECK(markdown && strstr(markdown, "mended is 2.00x faster (interquartile ranges apart)"));
    CHECK(markdown && !strstr(markdown, "3.00x"));
    free(markdown);
    json_object_set_new(mended, "steady_q3_ms", json_real(1.95));
    json_t *close = gm_profile_report_build(&info, original, mended);
    CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(close, "steady_comparison"),
                                                   "verdict")),
                 "within noise");
    CHECK(json_object_get(json_object_get(close, "steady_comparison"), "ratio") == NULL);
    markdown = gm_profile_report_markdown(close);
    CHECK(markdown && strstr(markdown, "within noise") && !strstr(markdown, "x faster"));
    free(markdown);
    json_decref(close);
    /* `--packages`: the installed packages' mends are counted apart from the file's */
    gm_profile_report_info with_packages = info;
    with_packages.package_mends = 18;
    json_t *packages = gm_profile_report_build(&with_packages, original, mended);
    CHECK_EQ_INT(json_integer_value(json_object_get(packages, "package_mends")), 18);
    CHECK(json_object_get(report, "package_mends") == NULL);
    char *markdown_packages = gm_profile_report_markdown(packages);
    CHECK(markdown_packages &&
          strstr(markdown_packages, "1 mend applied to the copy, 18 to the installed packages' "
                                    "modules (unsafe ones included)"));
    free(markdown_packages);
    json_decref(packages);

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    gm_profile_report_print_text(out, report);
    fclose(out);
    CHECK(strstr(text, "graph breaks") != NULL);
    CHECK(strstr(text, "outputs match: yes") != NULL);
    CHECK(strstr(text, "1 mend applied to the copy (unsafe ones included)") != NULL);
    CHECK(strstr(text, "1 mend applied to the copy (unsafe ones included)") != NULL);
    CHECK(strstr(text, "  original |########################################") != NULL);
    CHECK(strstr(text, "m.py:7  Failed to trace builtin operator") != NULL);
    CHECK(strstr(text, "note: no CUDA: profiled on the CPU") != NULL);
    free(text);
    json_decref(report);
    json_decref(original);
    json_decref(mended);
}

static void private_directory(void) {
    char dir[1024];
    CHECK_EQ_INT(gm_profile_workdir_create(dir, sizeof dir), 0);
    struct stat st;
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
    CHECK_EQ_INT(gm_profile_workdir_write(dir, "a.txt", "hello", 5), 0);
    size_t len = 0;
    char *back = gm_profile_workdir_read(dir, "a.txt", &len);
    CHECK_EQ_STR(back, "hello");
    CHECK_EQ_INT(len, 5);
    free(back);
    char nested[1100];
    snprintf(nested, sizeof nested, "%s/cache", dir);
    CHECK(mkdir(nested, 0700) == 0);
    CHECK_EQ_INT(gm_profile_workdir_write(nested, "b", "x", 1), 0);
    gm_profile_workdir_remove(dir);
    CHECK(stat(dir, &st) != 0);
}

static void defaults_and_script(void) {
    gm_profile_request request;
    gm_profile_request_default(&request);
    CHECK_EQ_STR(request.entry, GM_PROFILE_DEFAULT_ENTRY);
    CHECK_EQ_STR(request.device, "auto");
    CHECK(gm_profile_mode_valid("reduce-overhead") && !gm_profile_mode_valid("fast"));
    CHECK(gm_profile_backend_valid("aot_eager") && !gm_profile_backend_valid("tvm"));
    CHECK_EQ_INT(strlen(gm_profile_helper_script), gm_profile_helper_script_len);
    CHECK(strstr(gm_profile_helper_script, "torch._dynamo.explain") != NULL);
}

/* ---------------------------------------------------------------- the job */

typedef struct {
    json_t *result;
    int progress_calls;
    int started_calls;
} job_outcome;

static void on_progress(void *context, const char *message, unsigned percent) {
    job_outcome *outcome = context;
    (void)message;
    CHECK(percent <= 100);
    outcome->progress_calls++;
}

static void on_started(void *context, const char *arm_name, long pid) {
    job_outcome *outcome = context;
    CHECK_EQ_STR(arm_name, "original");
    CHECK(pid > 0);
    outcome->started_calls++;
}

static void on_done(void *context, json_t *result) {
    job_outcome *outcome = context;
    CHECK(outcome->result == NULL); /* exactly once */
    outcome->result = json_incref(result);
}

static const char *error_kind(const job_outcome *outcome) {
    return json_string_value(json_object_get(json_object_get(outcome->result, "error"), "kind"));
}

typedef enum { RUN_TO_END, CANCEL_AT_ONCE } run_style;

static void run_job(const char *python, double timeout_s, run_style style, job_outcome *outcome) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    gm_profile_request request;
    gm_profile_request_default(&request);
    request.python = python;
    request.display_path = "/tmp/graphmend-unit-model.py";
    request.original_text = request.mended_text = print_model;
    request.original_len = request.mended_len = strlen(print_model);
    request.timeout_s = timeout_s;
    gm_profile_callbacks callbacks = {on_progress, on_started, on_done, outcome};
    char error[256];
    memset(outcome, 0, sizeof *outcome);
    gm_profile_job *job = gm_profile_job_start(&loop, &request, &callbacks, error, sizeof error);
    CHECK(job != NULL);
    if (job && style == CANCEL_AT_ONCE) {
        gm_profile_job_cancel(job);
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    CHECK_EQ_INT(uv_loop_close(&loop), 0); /* every handle was closed */
    CHECK(outcome->result != NULL);
    CHECK(!json_is_true(json_object_get(outcome->result, "ok")));
}

static char *write_script(const char *body) {
    static char path[] = "/tmp/graphmend-unit-python-XXXXXX";
    strcpy(path + strlen(path) - 6, "XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(write(fd, body, strlen(body)) == (ssize_t)strlen(body));
    close(fd);
    chmod(path, 0700);
    return path;
}

static void job_reports_each_failure(void) {
    job_outcome outcome;
    run_job("/nonexistent/python3", 0, RUN_TO_END, &outcome);
    CHECK_EQ_STR(error_kind(&outcome), "no_python");
    json_decref(outcome.result);

    run_job("/bin/false", 0, RUN_TO_END, &outcome);
    CHECK_EQ_STR(error_kind(&outcome), "crashed");
    CHECK_EQ_INT(outcome.started_calls, 1);
    json_decref(outcome.result);

    /* A stand-in interpreter that prints, reports progress on descriptor 3, then hangs. */
    char *hang = write_script("#!/bin/sh\necho 'some output'\necho 'original: importing m.py' >&3\n"
                              "exec sleep 30\n");
    uint64_t start = uv_hrtime();
    run_job(hang, 0.5, RUN_TO_END, &outcome);
    CHECK_EQ_STR(error_kind(&outcome), "timeout");
    CHECK(uv_hrtime() - start < 10000000000ull); /* killed at 0.5 s, not after the 30 s sleep */
    CHECK(outcome.progress_calls >= 1);
    CHECK(strstr(json_string_value(
                     json_object_get(json_object_get(outcome.result, "error"), "output")),
                 "some output") != NULL);
    json_decref(outcome.result);

    run_job(hang, 0, CANCEL_AT_ONCE, &outcome);
    CHECK_EQ_STR(error_kind(&outcome), "cancelled");
    json_decref(outcome.result);
    unlink(hang);
}

/* ---------------------------------------------------------------- the LSP command */

static void capture_write(void *context, const char *data, size_t len) {
    json_t *messages = context;
    const char *body = strstr(data, "\r\n\r\n");
    if (body) {
        body += 4;
        json_array_append_new(messages, json_loadb(body, len - (size_t)(body - data), 0, NULL));
    }
}

static void send_body(gm_server *server, const char *body) {
    char frame[4096];
    int n = snprintf(frame, sizeof frame, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
    gm_server_feed(server, frame, (size_t)n);
}

static json_t *response(json_t *messages, int id) {
    size_t i;
    json_t *message;
    json_array_foreach(messages, i, message) {
        if (json_integer_value(json_object_get(message, "id")) == id &&
            !json_object_get(message, "method")) {
            return message;
        }
    }
    return NULL;
}

static void command_without_loop_is_refused(void) {
    json_t *messages = json_array();
    gm_server *server = gm_server_new(capture_write, messages);
    send_body(server, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                      "{\"capabilities\":{}}}");
    json_t *caps =
        json_object_get(json_object_get(response(messages, 1), "result"), "capabilities");
    CHECK_EQ_STR(
        json_string_value(json_array_get(
            json_object_get(json_object_get(caps, "executeCommandProvider"), "commands"), 0)),
        "graphmend.profile");
    send_body(server, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"workspace/executeCommand\","
                      "\"params\":{\"command\":\"graphmend.profile\",\"arguments\":"
                      "[\"file:///tmp/m.py\",{}]}}");
    CHECK_EQ_INT(json_integer_value(
                     json_object_get(json_object_get(response(messages, 2), "error"), "code")),
                 -32803);
    send_body(server, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"workspace/executeCommand\","
                      "\"params\":{\"command\":\"graphmend.profile\",\"arguments\":[]}}");
    CHECK_EQ_INT(json_integer_value(
                     json_object_get(json_object_get(response(messages, 3), "error"), "code")),
                 -32602);
    gm_server_free(server);
    json_decref(messages);
}

int main(void) {
    mends_print_only_when_unsafe_fixes_are_asked();
    builds_and_renders_the_report();
    private_directory();
    defaults_and_script();
    job_reports_each_failure();
    command_without_loop_is_refused();
    return check_exit_code("server/profile/profile");
}
