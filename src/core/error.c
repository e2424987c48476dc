/* SPDX-License-Identifier: MIT */
/* error.c - formatting messages for people into a caller's buffer, in their
 * language (error.h). */
#include <stdarg.h>
#include <stdio.h>

#include "figaro/error.h"

fig_err_t fig_fail(fig_msg_t *msg, fig_err_t err, const char *fmt, ...)
{
    if (msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg->text, sizeof msg->text, fmt, ap);
        va_end(ap);
    }
    return err;
}

const char *fig_tr_text(const fig_tr_t *tr, const char *msgid)
{
    return tr && tr->text ? tr->text(tr, msgid) : msgid;
}

const char *fig_tr_plural(const fig_tr_t *tr, const char *msgid, const char *msgid_plural,
                          unsigned long n)
{
    if (tr && tr->plural)
        return tr->plural(tr, msgid, msgid_plural, n);
    return n == 1 ? msgid : msgid_plural;
}

fig_err_t fig_fail_tr(fig_msg_t *msg, const fig_tr_t *tr, fig_err_t err, const char *fmt, ...)
{
    if (msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg->text, sizeof msg->text, fig_tr_text(tr, fmt), ap);
        va_end(ap);
    }
    return err;
}
