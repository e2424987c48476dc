/* SPDX-License-Identifier: MIT */
/* score.c - the end of a round and of the game (R10-R13).
 *
 * A round ends when a seat starts its turn with no cards (R10): that seat takes
 * the King, then (round 3 only) the seat with fewest cards may exchange a road
 * piece (R12), then the round's pieces go out by stack size (R11). After round 3
 * the shortest road wins (R13). */
#include <stdio.h>
#include <string.h>

#include "figaro/state.h"
#include "state_internal.h"

/* The seat i places clockwise from seat s (0 <= s < n, 0 <= i <= n): a
 * subtraction, not %, as every playout scores three rounds. */
static inline int clockwise(int s, int i, int n)
{
    return s + i >= n ? s + i - n : s + i;
}

void fig_rank_counts(int players, int king, const int counts[], int order[])
{
    /* R11: most cards first; ties by seat order from the King's left, so the
     * King, at distance players-1 from its left neighbour, comes last. */
    int left = clockwise(king, 1, players);
    for (int i = 0; i < players; i++)
        order[i] = clockwise(left, i, players);
    for (int i = 1; i < players; i++) {   /* stable insertion sort by count */
        int s = order[i], j = i;
        for (; j > 0 && counts[order[j - 1]] < counts[s]; j--)
            order[j] = order[j - 1];
        order[j] = s;
    }
}

int fig_state_road(const fig_state_t *st, int seat)
{
    int total = 0;
    for (int i = 0; i < st->nroad[seat]; i++)
        total += st->road[seat][i];
    return total;
}

size_t fig_road_format(const uint16_t pieces[], int n, const char *sep, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *before = i ? sep : "";
        unsigned length = pieces[i];
        /* Past the end, snprintf only counts (no pointer beyond buf + cap). */
        int w = len < cap ? snprintf(buf + len, cap - len, "%s%u", before, length)
                          : snprintf(NULL, 0, "%s%u", before, length);
        len += w > 0 ? (size_t)w : 0;
    }
    return len;
}

void fig_state_ranking(const fig_state_t *st, int ranking[])
{
    /* R13: shortest road first; ties from the King holder clockwise. */
    int n = st->players, total[FIG_MAX_PLAYERS];
    for (int s = 0; s < n; s++) {
        ranking[s] = clockwise(st->king, s, n);
        total[s] = fig_state_road(st, s);
    }
    for (int i = 1; i < n; i++) {
        int s = ranking[i], j = i;
        for (; j > 0 && total[ranking[j - 1]] > total[s]; j--)
            ranking[j] = ranking[j - 1];
        ranking[j] = s;
    }
}

static fig_event_t *push(fig_events_t *ev, int type, int seat)
{
    if (!ev || ev->n >= FIG_MAX_EVENTS)
        return NULL;
    fig_event_t *e = &ev->ev[ev->n++];
    memset(e, 0, sizeof *e);
    e->type = (uint8_t)type;
    e->seat = (uint8_t)seat;
    return e;
}

/* R12: the seat with fewest cards (ties: the King first, then clockwise) swaps
 * its longest piece for round 3's shortest, if its piece is longer. */
static void exchange(fig_state_t *st, fig_events_t *ev)
{
    int n = st->players, seat = st->king;
    for (int i = 1; i < n; i++) {
        int s = clockwise(st->king, i, n);
        if (st->stack[s] < st->stack[seat])
            seat = s;
    }
    if (!st->nroad[seat])
        return;   /* ruling: no piece, no exchange */
    int longest = 0;
    for (int i = 1; i < st->nroad[seat]; i++)
        if (st->road[seat][i] > st->road[seat][longest])
            longest = i;
    uint16_t *group = st->group[2];
    uint16_t gave = st->road[seat][longest], took = group[n - 2];
    if (gave <= took)
        return;   /* ruling: only a longer piece is exchanged */
    st->road[seat][longest] = took;   /* replaced where it stood */
    int j = n - 2;                    /* re-sort the group, longest first */
    for (; j > 0 && group[j - 1] < gave; j--)
        group[j] = group[j - 1];
    group[j] = gave;
    fig_event_t *e = push(ev, FIG_EV_EXCHANGE, seat);
    if (e) {
        e->round = 3;
        e->a = gave;
        e->b = took;
    }
}

/* R11: pieces longest first to the seats in rank order; the last seat and
 * seats with no cards get none. */
static void hand_out(fig_state_t *st, fig_events_t *ev)
{
    int n = st->players, counts[FIG_MAX_PLAYERS] = { 0 }, order[FIG_MAX_PLAYERS];
    for (int s = 0; s < n; s++)
        counts[s] = st->stack[s];
    fig_rank_counts(n, st->king, counts, order);
    const uint16_t *group = st->group[st->round - 1];
    for (int i = 0; i < n; i++) {
        int s = order[i];
        int gets = i < n - 1 && counts[s] > 0;
        if (gets)
            st->road[s][st->nroad[s]++] = group[i];
        fig_event_t *e = push(ev, gets ? FIG_EV_PIECE : FIG_EV_NO_PIECE, s);
        if (e) {
            e->round = st->round;
            e->rank = (uint8_t)i;
            e->count = (uint8_t)counts[s];
            e->tie = (uint8_t)((i > 0 && counts[order[i - 1]] == counts[s]) ||
                               (i < n - 1 && counts[order[i + 1]] == counts[s]));
            e->a = gets ? group[i] : 0;
            e->reason = gets ? 0 : counts[s] == 0 ? FIG_WHY_ZERO : FIG_WHY_LAST;
        }
    }
}

void score_round(fig_state_t *st, int king, fig_events_t *ev)
{
    st->king = (uint8_t)king;   /* R10: the seat that ran out takes the King */
    fig_event_t *e = push(ev, FIG_EV_ROUND_END, king);
    if (e) {
        e->round = st->round;
        for (int s = 0; s < st->players; s++)
            e->counts[s] = st->stack[s];
    }
    if (st->round == FIG_ROUNDS)
        exchange(st, ev);
    hand_out(st, ev);
    if (st->round < FIG_ROUNDS) {
        st->round++;
        st->phase = FIG_PHASE_DEAL;
        return;
    }
    st->phase = FIG_PHASE_OVER;
    e = push(ev, FIG_EV_GAME_OVER, king);
    if (e) {
        int ranking[FIG_MAX_PLAYERS];
        fig_state_ranking(st, ranking);
        for (int i = 0; i < st->players; i++) {
            e->counts[i] = (uint8_t)ranking[i];
            e->totals[i] = (uint32_t)fig_state_road(st, i);
        }
        e->seat = (uint8_t)ranking[0];
    }
}
