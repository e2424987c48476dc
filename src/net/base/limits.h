/* SPDX-License-Identifier: MIT */
/* limits.h - the sizes a client must keep to, which the transport enforces
 * as it reads (net/wire) and the protocol and the service enforce again
 * (a frame too big for the parser, a record too big for /replay): one value
 * each, under every room that needs it. docs/protocol.md and docs/server.md
 * state them; the welcome frame tells a client the frame's. */
#ifndef FIGARO_NET_LIMITS_H
#define FIGARO_NET_LIMITS_H

enum {
    FIG_NET_FRAME_MAX = 8192,        /* bytes in one client frame (WebSocket message) */
    FIG_NET_RECORD_MAX = 64 << 10    /* bytes of a record sent to be replayed (POST /replay) */
};

#endif
