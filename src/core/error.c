/* error.c - formatting messages for people into a caller's buffer. */
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

fig_err_t fig_fail_tr(fig_msg_t *msg, fig_translate_fn tr, fig_err_t err, const char *fmt, ...)
{
    if (msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg->text, sizeof msg->text, tr ? tr(fmt) : fmt, ap);
        va_end(ap);
    }
    return err;
}
