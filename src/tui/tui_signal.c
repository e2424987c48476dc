/* SPDX-License-Identifier: MIT */
/* tui_signal.c - leaving the full screen cleanly on SIGINT, SIGTERM or
 * SIGHUP: the handler only sets a flag that the loops of tui.c and
 * tui_start.c read (tui_interrupted), and they leave as if the person had
 * quit, so the terminal is restored. */
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "tui/tui.h"

/* Set by SIGINT, SIGTERM or SIGHUP: the loop then leaves as if the person had
 * quit, so the terminal is restored (the game is saved after every step
 * anyway). The one mutable static of the front end: a signal handler can
 * reach nothing else. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

bool tui_interrupted(void)
{
    return interrupted != 0;
}

void tui_catch_signals(struct sigaction old[3])
{
    static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
}

void tui_restore_signals(const struct sigaction old[3])
{
    static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
}
