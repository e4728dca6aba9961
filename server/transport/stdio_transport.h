/* Runs a gm_server over stdin/stdout on a libuv loop. stdin may be a pipe, a socket, a tty or a
 * regular file; stdout carries nothing but protocol. */
#ifndef GM_SERVER_TRANSPORT_STDIO_TRANSPORT_H
#define GM_SERVER_TRANSPORT_STDIO_TRANSPORT_H

/* Serves until exit or EOF; returns the process exit code. */
int gm_stdio_serve(void);

#endif
