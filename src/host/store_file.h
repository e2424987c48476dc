/* SPDX-License-Identifier: MIT */
/* store_file.h - how the store (store.h), and the lessons' progress beside
 * it (lesson_progress.h), write a file: through a temporary file in the same
 * folder renamed into place, so that a crash or a full disk never leaves half
 * a file behind, into folders made as they are needed. Messages are English
 * msgids put through tr, naming the path. */
#ifndef FIGARO_STORE_FILE_H
#define FIGARO_STORE_FILE_H

#include <stdbool.h>

#include "figaro/figaro.h"

/* mkdir -p with mode 0700 (the XDG folders are private). FIG_ERR_INPUT if a
 * folder cannot be made or path is not one. */
fig_err_t store_file_make_dirs(const char *path, const fig_tr_t *tr, fig_msg_t *msg);

/* Writes text to path through a temporary file (mode 0600, mkstemp) and
 * rename(). With exclusive, an existing path is not replaced (FIG_ERR_STATE
 * then, without a message) and the file is flushed to the disk before it
 * appears. */
fig_err_t store_file_write(const char *path, const char *text, bool exclusive,
                           const fig_tr_t *tr, fig_msg_t *msg);

#endif
