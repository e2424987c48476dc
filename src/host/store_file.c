/* SPDX-License-Identifier: MIT */
/* store_file.c - the store's writes (store_file.h).
 *
 * A write goes to a temporary file made with mkstemp() in the target folder,
 * then renamed over the target: rename() within one file system is atomic,
 * so a reader sees the old file or the new one, never a mix. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/store_file.h"
#include "host/store_header.h"
#include "host/util.h"

fig_err_t store_file_make_dirs(const char *path, const fig_tr_t *tr, fig_msg_t *msg)
{
    char buf[FIG_STORE_PATH_MAX], why[128];
    size_t len = strlen(path);
    if (len >= sizeof buf)
        return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("the folder name %s is too long"), path);
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char keep = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("cannot create the folder %s: %s"), buf,
                              fig_strerror(errno, why, sizeof why));
        buf[i] = keep;
    }
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("%s is not a folder"), path);
    return FIG_OK;
}

fig_err_t store_file_write(const char *path, const char *text, bool exclusive,
                           const fig_tr_t *tr, fig_msg_t *msg)
{
    char tmp[FIG_STORE_PATH_MAX], why[128];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= sizeof tmp)
        return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("the file name %s is too long"), path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                          fig_strerror(errno, why, sizeof why));
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : ENOSPC;
            close(fd);
            unlink(tmp);
            return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                              fig_strerror(e, why, sizeof why));
        }
        done += (size_t)w;
    }
    /* A finished game is flushed to the disk before it is linked in, so a
     * power cut cannot leave an empty file in the history. The game in
     * progress is not: it is rewritten after every move, a flush costs
     * milliseconds each time, and rename() alone already keeps it whole
     * through any crash of the program (ext4 and others also flush a file
     * renamed over an old one). */
    if ((exclusive && fsync(fd) != 0) || close(fd) != 0) {
        int e = errno;
        unlink(tmp);
        return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                          fig_strerror(e, why, sizeof why));
    }
    if (exclusive) {
        /* link() fails rather than replace; the temporary name then goes. */
        int rc = link(tmp, path);
        int e = errno;
        unlink(tmp);
        if (rc != 0)
            return e == EEXIST ? FIG_ERR_STATE
                               : store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"),
                                            path, fig_strerror(e, why, sizeof why));
        return FIG_OK;
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                          fig_strerror(e, why, sizeof why));
    }
    return FIG_OK;
}
