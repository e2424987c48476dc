/* SPDX-License-Identifier: MIT */
/* lesson_progress.c - the lessons done and where one was left
 * (lesson_progress.h).
 *
 * The file names lessons by their ids, so a steps file that gains, loses or
 * reorders lessons keeps what was done; a lesson it no longer has is passed
 * over, and a step past a lesson's end is no place to resume. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/lesson_progress.h"
#include "host/store_file.h"
#include "host/util.h"

fig_err_t fig_lesson_progress_read(fig_lesson_progress_t *p, const fig_lessons_t *ls,
                                   const char *dir, const fig_tr_t *tr, fig_msg_t *msg)
{
    memset(p, 0, sizeof *p);
    p->at_lesson = -1;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/lessons", dir) >= sizeof path)
        return fig_fail(msg, FIG_ERR_INPUT, "the path is too long");
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return FIG_OK;
    char *data;
    size_t len;
    fig_err_t rc = fig_read_file(path, 1 << 16, &data, &len, tr, msg);
    if (rc)
        return rc;
    fig_lesson_progress_t got;
    memset(&got, 0, sizeof got);
    got.at_lesson = -1;
    int line = 0;
    for (char *q = data, *nl; q < data + len; q = nl + 1) {
        nl = memchr(q, '\n', (size_t)(data + len - q));
        if (!nl)
            nl = data + len;
        *nl = '\0';
        line++;
        char what[8], id[FIG_LESSON_ID_MAX + 8];
        int step = 0, k = sscanf(q, "%7s %31s %d", what, id, &step);
        if (k <= 0 || q[0] == '#')
            continue;
        int i = k >= 2 ? fig_lessons_find(ls, id) : -1;
        if (k == 2 && strcmp(what, "done") == 0) {
            if (i >= 0)
                got.done[i] = true;
        } else if (k == 3 && strcmp(what, "at") == 0 && step >= 0) {
            if (i >= 0 && step < fig_lessons_get(ls, i)->nsteps) {
                got.at_lesson = i;
                got.at_step = step;
            }
        } else {
            free(data);
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("%s: line %d is damaged"), path, line);
        }
    }
    free(data);
    *p = got;
    return FIG_OK;
}

fig_err_t fig_lesson_progress_write(const fig_lesson_progress_t *p, const fig_lessons_t *ls,
                                    const char *dir, const fig_tr_t *tr, fig_msg_t *msg)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/lessons", dir) >= sizeof path)
        return fig_fail(msg, FIG_ERR_INPUT, "the path is too long");
    fig_err_t rc = store_file_make_dirs(dir, tr, msg);   /* as the store makes its folders */
    if (rc != FIG_OK)
        return rc;
    char text[FIG_LESSONS_MAX * (FIG_LESSON_ID_MAX + 16) + 128];
    size_t len = 0;
    fig_putf(text, sizeof text, &len, "# figaro learn: the lessons done, and where one was left\n");
    for (int i = 0; i < fig_lessons_count(ls); i++)
        if (p->done[i])
            fig_putf(text, sizeof text, &len, "done %s\n", fig_lessons_get(ls, i)->id);
    if (p->at_lesson >= 0 && p->at_lesson < fig_lessons_count(ls))
        fig_putf(text, sizeof text, &len, "at %s %d\n", fig_lessons_get(ls, p->at_lesson)->id,
                 p->at_step);
    return store_file_write(path, text, false, tr, msg);
}

int fig_lesson_progress_next(const fig_lesson_progress_t *p, const fig_lessons_t *ls)
{
    if (p->at_lesson >= 0 && p->at_lesson < fig_lessons_count(ls))
        return p->at_lesson;
    for (int i = 0; i < fig_lessons_count(ls); i++)
        if (!p->done[i])
            return i;
    return -1;
}
