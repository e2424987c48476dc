/* SPDX-License-Identifier: MIT */
/* notify.c - the sd_notify datagram (notify.h): the socket address from
 * $NOTIFY_SOCKET's value, one sendto, nothing kept between calls. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/notify.h"

int cli_notify_send(const char *addr, const char *state, char *err, size_t cap)
{
    if (!addr || !addr[0])
        return 1;
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    size_t n = strlen(addr);
    if (addr[0] != '/' && addr[0] != '@') {
        snprintf(err, cap, "NOTIFY_SOCKET '%.80s' is neither a path nor an abstract name "
                           "(@NAME): the service manager is not told", addr);
        return -1;
    }
    /* A path needs its closing NUL in sun_path; an abstract name does not
     * (its length is the address's: a leading NUL, then the name's bytes). */
    if (n + (addr[0] == '/') > sizeof sa.sun_path) {
        snprintf(err, cap, "NOTIFY_SOCKET is %zu bytes long, more than a socket address "
                           "holds (%zu): the service manager is not told", n,
                 sizeof sa.sun_path - (addr[0] == '/'));
        return -1;
    }
    memcpy(sa.sun_path, addr, n);
    if (addr[0] == '@')
        sa.sun_path[0] = '\0';
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
                                (addr[0] == '/'));
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, cap, "NOTIFY_SOCKET: no socket: %s", strerror(errno));
        return -1;
    }
    ssize_t sent = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, len);
    int saved = errno;
    close(fd);
    if (sent != (ssize_t)strlen(state)) {
        snprintf(err, cap, "NOTIFY_SOCKET %.80s: cannot tell the service manager: %s", addr,
                 sent < 0 ? strerror(saved) : "a short datagram");
        return -1;
    }
    return 0;
}
