/* SPDX-License-Identifier: MIT */
/* notify.h - telling the service manager how the process is doing: the
 * sd_notify protocol, without libsystemd.
 *
 * systemd starts a `Type=notify` unit with $NOTIFY_SOCKET naming an AF_UNIX
 * datagram socket (a path, or an abstract name written with a leading '@');
 * the service sends it newline-separated KEY=VALUE lines: "READY=1" once it
 * serves, "STOPPING=1" when it begins to shut down, "STATUS=..." for
 * `systemctl status`. systemd documents this protocol as stable
 * (sd_notify(3), "Interface Portability and Stability") and gives a
 * reference implementation of these few lines to copy, so that a service
 * need not link libsystemd for it: one datagram is all there is. `figaro
 * serve` is the one caller (serve.c). */
#ifndef FIGARO_CLI_NOTIFY_H
#define FIGARO_CLI_NOTIFY_H

#include <stddef.h>

/* Sends `state` ("READY=1\nSTATUS=...") in one datagram to the socket that
 * `addr` names (the value of $NOTIFY_SOCKET: "/path" or "@abstract").
 * Returns 1 when addr is NULL or empty (no service manager listens: nothing
 * to do), 0 when sent, -1 with the reason in err (a name that is neither a
 * path nor '@', too long for a socket address, no such socket, a refusal):
 * the caller logs it and goes on, a manager that cannot be told is no reason
 * to stop serving. */
int cli_notify_send(const char *addr, const char *state, char *err, size_t cap);

#endif
