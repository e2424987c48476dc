/* SPDX-License-Identifier: MIT */
/* service_send.c - the frames the service itself sends to one connection
 * (service_internal.h): any frame it built, an error in the connection's
 * language. The tables' frames go through the table environment's send. */
#include <stdlib.h>

#include "net/service/service_internal.h"

void fig_svc_send_json(fig_service_t *s, conn_t *c, json_t *j)
{
    size_t len;
    char *text = fig_proto_dump(j, &len);
    json_decref(j);
    if (!text)
        return;
    s->wire.send(s->wire.wire, c->wc, text, len);
    s->stats.frames++;
    free(text);
}

/* An error to this connection only. `re`: the message type it answers, or
 * NULL; table: the table it was about, or NULL. */
void fig_svc_send_error(fig_service_t *s, conn_t *c, fig_proto_code_t code, const char *text,
                        const char *re, const char *table)
{
    fig_svc_send_json(s, c, fig_proto_error(code, text, re, table));
}
