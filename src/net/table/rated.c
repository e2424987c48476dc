/* SPDX-License-Identifier: MIT */
/* rated.c - the rated decision (rated.h). */
#include "figaro/bot.h"
#include "net/table/rated.h"

bool fig_rated_table(const fig_db_table_t *row)
{
    if (row->open || row->hints)
        return false;
    for (int s = 0; s < row->players; s++) {
        const fig_db_seat_t *x = &row->seats[s];
        if (x->kind == FIG_DB_SEAT_ENGINE ||
            (x->kind == FIG_DB_SEAT_BOT && fig_bot_level_index(x->what) < 0))
            return false;
    }
    return true;
}

bool fig_rated_is(bool open, bool hints, const fig_rated_seat_t seats[], int n)
{
    if (open || hints)
        return false;   /* a rating says how one plays from what a seat knows, alone */
    bool someone = false;
    for (int i = 0; i < n; i++) {
        if (seats[i].kind == FIG_RATED_ENGINE ||
            (seats[i].kind == FIG_RATED_BOT && seats[i].level < 0))
            return false;   /* no fixed point on the scale */
        someone |= seats[i].kind == FIG_RATED_PERSON;
    }
    return someone;
}

void fig_rated_seats(const fig_rated_seat_t seats[], int n, fig_rating_seat_t out[])
{
    int stayed = 0;
    for (int i = 0; i < n; i++)
        stayed += seats[i].kind != FIG_RATED_LEFT;
    for (int i = 0; i < n; i++) {
        const fig_rated_seat_t *s = &seats[i];
        bool left = s->kind == FIG_RATED_LEFT;
        /* Those ahead: of the same group (stayed or left), the ones placed
         * ahead in the game; a leaver also has every one who stayed. */
        int ahead = left ? stayed : 0;
        for (int j = 0; j < n; j++)
            if ((seats[j].kind == FIG_RATED_LEFT) == left && seats[j].place < s->place)
                ahead++;
        out[i].rank = ahead + 1;
        out[i].fixed = s->kind == FIG_RATED_BOT || s->kind == FIG_RATED_ANON;
        if (s->kind == FIG_RATED_BOT)
            out[i].rating = fig_rating_level(s->level);
        else
            out[i].rating = fig_rating_initial();   /* anonymous: mu0, sigma0; a person's:
                                                       the caller's to set */
    }
}
