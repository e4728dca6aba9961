/* The language server's state machine, independent of I/O: bytes in, framed messages out.
 * The libuv transport (server/transport/stdio_transport.c), the unit tests and the fuzz target all
 * drive it through this interface. Everything runs on one thread. */
#ifndef GM_SERVER_LSP_LSP_SERVER_H
#define GM_SERVER_LSP_LSP_SERVER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gm_server gm_server;

/* Receives one complete framed message (header + body) to write to the client. */
typedef void (*gm_server_write_fn)(void *context, const char *data, size_t len);

/* Returns a new server (caller frees with gm_server_free). */
gm_server *gm_server_new(gm_server_write_fn write, void *context);
void gm_server_free(gm_server *server);

/* Feeds bytes read from the client. Complete messages are handled in order; queued requests are
 * answered before this returns (a $/cancelRequest in the same chunk cancels them first), and
 * diagnostics of documents changed by the chunk are published once at the end. */
void gm_server_feed(gm_server *server, const char *data, size_t len);

/* The client's stream ended. */
void gm_server_eof(gm_server *server);

/* True once the server should stop (exit notification or EOF); *exit_code is 0 after an orderly
 * shutdown + exit, 1 otherwise. */
bool gm_server_finished(const gm_server *server, int *exit_code);

/* Whether the server has work to do while the client is quiet (indexing the workspace), and
 * doing some of it for about budget_ms. Diagnostics that the finished work changes are
 * published. */
bool gm_server_has_background_work(const gm_server *server);
void gm_server_background_work(gm_server *server, unsigned budget_ms);

/* The libuv loop on which the server may start child processes (the graphmend.profile command).
 * Without one (unit tests, fuzzing) the command is refused. */
struct uv_loop_s;
void gm_server_attach_loop(gm_server *server, struct uv_loop_s *loop);

/* Kills the children of running commands and forgets them, without answering: for the end of
 * the process, before the loop's handles are closed. */
void gm_server_stop_jobs(gm_server *server);

#endif
