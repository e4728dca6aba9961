/* One `graphmend profile` run: the helper script started once per arm (original, then mended)
 * with the user's Python, each in a fresh process of its own process group with its own inductor
 * cache, driven by libuv so that the language server stays responsive meanwhile. The CLI runs
 * the same job on a loop of its own. */
#ifndef GM_SERVER_PROFILE_JOB_H
#define GM_SERVER_PROFILE_JOB_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

typedef struct {
    const char *python;       /* interpreter: a path or a name looked up in PATH */
    const char *display_path; /* the user's file, for messages; its directory is the arms' cwd */
    const char *original_text, *mended_text;
    size_t original_len, mended_len;
    size_t mends_applied;
    bool unsafe_fixes;   /* the mended copy has unsafe mends too (for the report) */
    const char *entry;   /* zero-argument function returning (model, inputs) */
    const char *device;  /* "auto", "cuda" or "cpu" */
    const char *mode;    /* torch.compile mode: "default", "reduce-overhead", "max-autotune" */
    const char *backend; /* torch.compile backend: "inductor", "aot_eager", "eager" */
    int iterations, warmup;
    double timeout_s; /* for the whole run (both arms); <= 0: none */
    /* comma-separated installed packages ("transformers,diffusers") whose modules the mended
     * arm mends as they are imported (the helper's --packages, as `graphmend run --packages`),
     * or NULL */
    const char *packages;
    /* `graphmend confirm`: one run of original_text only (mended_text is not used), the helper
     * with --confirm; done's result is then the helper's own answer ({"ok": true, "confirm":
     * true, "torch", "python", "device", "graphs", "graph_breaks", "breaks": [{"line", "reason",
     * "explanation", "registry_id", "sources", "skips_frame"}], "traced_lines"}). */
    bool confirm;
} gm_profile_request;

typedef struct gm_profile_job gm_profile_job;

/* Progress: a short message and the percentage done. */
typedef void (*gm_profile_progress_fn)(void *context, const char *message, unsigned percent);
/* The end, called once from the loop after every child has exited and been reaped: result is
 * the report (gm_profile_report_build's shape, "ok": true) or {"ok": false, "error": {"kind",
 * "message", "traceback", "output", "arm"}}. Borrowed: valid during the call. The job frees
 * itself after the call returns. */
typedef void (*gm_profile_done_fn)(void *context, json_t *result);
/* A child process started: its pid (for logs; cancellation kills it with its process group). */
typedef void (*gm_profile_started_fn)(void *context, const char *arm, long pid);

typedef struct {
    gm_profile_progress_fn progress;
    gm_profile_started_fn started; /* may be NULL */
    gm_profile_done_fn done;
    void *context;
} gm_profile_callbacks;

/* Starts a run: makes the private directory, writes the helper and both copies there and starts
 * the first arm. Copies what it needs from request. Returns the job, or NULL after writing why
 * into error (then no callback is ever called). */
gm_profile_job *gm_profile_job_start(uv_loop_t *loop, const gm_profile_request *request,
                                     const gm_profile_callbacks *callbacks, char *error,
                                     size_t error_size);

/* Kills the running arm with its process group; done follows with kind "cancelled". */
void gm_profile_job_cancel(gm_profile_job *job);

/* For an owner that goes away (server exit): kills the children, removes the directory now and
 * frees the job once its handles are closed; no callback is called any more. */
void gm_profile_job_abandon(gm_profile_job *job);

#endif
