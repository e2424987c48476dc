/* SPDX-License-Identifier: MIT */
/* view.c - one seat's knowledge (R14) and sampling states consistent with it.
 *
 * A view copies only public fields and the seat's own hand out of the state.
 * "seen" and "unseen" are what a perfect memory of the public actions gives:
 * every card played this round was public when it was played. */
#include <string.h>

#include "figaro/view.h"
#include "state_internal.h"

fig_err_t fig_view_of(const fig_state_t *st, int seat, fig_view_t *v)
{
    memset(v, 0, sizeof *v);
    if (seat < 0 || seat >= st->players || st->players > FIG_MAX_PLAYERS)
        return FIG_ERR_INPUT;   /* st->hand[seat] would be out of bounds */
    v->seat = (uint8_t)seat;
    v->pub = st->pub;
    v->hand = st->hand[seat];
    /* Before the first deal nobody holds anything and nothing was played. */
    if (st->phase == FIG_PHASE_DEAL && st->round == 1)
        return FIG_OK;
    fig_hand_t deck;
    fig_deck(&deck, st->players, st->removed);
    for (int k = 0; k < FIG_KINDS; k++) {
        int held = 0;
        for (int s = 0; s < st->players; s++)
            held += st->hand[s].n[k];
        v->seen.n[k] = (uint8_t)(deck.n[k] - held);
        v->unseen.n[k] = (uint8_t)(held - v->hand.n[k]);
    }
    return FIG_OK;
}

/* The private fields that follow from the hands and the piles: which kinds
 * each hand holds, and who owns each colour (colourless, which is public,
 * came with the piles). */
static void derive(const fig_view_t *v, fig_state_t *out)
{
    for (int s = 0; s < v->players; s++)
        for (int k = 0; k < FIG_KINDS; k++)
            out->present[s] |= (uint32_t)(out->hand[s].n[k] != 0) << k;
    memset(out->owner, FIG_NOBODY, sizeof out->owner);
    for (int s = 0; s < v->players; s++) {
        if (v->pile[s].colour != FIG_NO_COLOUR) {
            out->owner[v->pile[s].colour] = (uint8_t)s;
            out->owned |= (uint16_t)(7u << (v->pile[s].colour * 3));
        }
    }
}

void fig_view_sample(const fig_view_t *v, fig_rng_t *rng, fig_state_t *out)
{
    memset(out, 0, sizeof *out);
    out->pub = v->pub;

    /* Shuffle the unseen cards and deal them out by the public hand sizes. */
    uint8_t cards[FIG_DECK_MAX];
    int n = 0;
    for (int k = 0; k < FIG_KINDS; k++)
        for (int i = 0; i < v->unseen.n[k]; i++)
            cards[n++] = (uint8_t)k;
    int first = v->seat == 0 ? 1 : 0;   /* the seat dealt cards[0..its hand size) */
    shuffle_kinds(cards, n, v->hand_size[first] < n ? v->hand_size[first] : n, rng);
    int next = 0;
    for (int s = 0; s < v->players; s++) {
        if (s == v->seat) {
            out->hand[s] = v->hand;
        } else {
            for (int i = 0; i < v->hand_size[s] && next < n; i++)
                out->hand[s].n[cards[next++]]++;
        }
    }
    derive(v, out);
}

void fig_view_complete(const fig_view_t *v, const fig_hand_t hands[], fig_state_t *out)
{
    memset(out, 0, sizeof *out);
    out->pub = v->pub;
    for (int s = 0; s < v->players; s++)
        out->hand[s] = s == v->seat ? v->hand : hands[s];
    derive(v, out);
}

/* The public members leave no padding byte (colourless makes them an even
 * number of bytes before the first uint16_t), so a view that copies them from
 * a state in one assignment still compares with memcmp. */
_Static_assert(sizeof(fig_public_t) ==
                   8 + 3 * FIG_MAX_PLAYERS + sizeof(fig_pile_t) * FIG_MAX_PLAYERS +
                       2 * FIG_ROUNDS * (FIG_MAX_PLAYERS - 1) + 2 * FIG_MAX_PLAYERS * FIG_ROUNDS,
               "fig_public_t has padding");

bool fig_view_equal(const fig_view_t *a, const fig_view_t *b)
{
    /* Views are built with memset first, so padding compares equal too. */
    return memcmp(a, b, sizeof *a) == 0;
}

fig_err_t fig_state_deal_seen(fig_state_t *st, int viewer, const fig_hand_t *hand,
                              fig_msg_t *msg)
{
    fig_hand_t hands[FIG_MAX_PLAYERS], rest;
    int per = fig_hand_cards(st->players);
    if (st->phase != FIG_PHASE_DEAL)
        return fig_fail(msg, FIG_ERR_STATE, N_("round %d is not waiting for a deal"), st->round);
    if (fig_hand_total(hand) != per)
        return fig_fail(msg, FIG_ERR_INPUT, N_("a hand of %d cards; with %d players each gets "
                                               "%d (R4)"), fig_hand_total(hand), st->players, per);
    fig_deck(&rest, st->players, st->removed);
    for (int k = 0; k < FIG_KINDS; k++) {
        if (hand->n[k] > rest.n[k])
            return fig_fail(msg, FIG_ERR_INPUT, N_("a hand with %d %s; the deck has %d"),
                            hand->n[k], fig_kind_code(k), rest.n[k]);
        rest.n[k] = (uint8_t)(rest.n[k] - hand->n[k]);
    }
    memset(hands, 0, sizeof hands);
    int k = 0;
    for (int s = 0; s < st->players; s++) {
        if (s == viewer) {
            hands[s] = *hand;
            continue;
        }
        for (int i = 0; i < per; i++) {
            while (!rest.n[k])
                k++;
            rest.n[k]--;
            hands[s].n[k]++;
        }
    }
    return fig_state_deal_hands(st, hands, msg);
}

fig_err_t fig_state_apply_seen(fig_state_t *st, int viewer, fig_action_t a, fig_events_t *ev,
                               fig_msg_t *msg)
{
    int actor = st->turn, k = fig_act_kind(a);
    if (st->phase == FIG_PHASE_PLAY && !fig_act_is_take(a) && actor != viewer &&
        k < FIG_KINDS && !(a & ~0xFFu) && !st->hand[actor].n[k]) {
        /* Unseen cards are interchangeable between the other hands: give the
         * actor the card from a third seat, and that seat one of the actor's. */
        for (int o = 0; o < st->players; o++) {
            if (o == viewer || o == actor || !st->hand[o].n[k])
                continue;
            int j = __builtin_ctz(st->present[actor]);   /* any card the actor holds */
            fig_hand_t *from = &st->hand[o], *to = &st->hand[actor];
            from->n[k]--;
            from->n[j]++;
            to->n[j]--;
            to->n[k]++;
            st->present[o] = (st->present[o] | 1u << j) & ~(from->n[k] ? 0u : 1u << k);
            st->present[actor] = (st->present[actor] | 1u << k) & ~(to->n[j] ? 0u : 1u << j);
            break;
        }
    }
    return fig_state_apply(st, a, ev, msg);
}

int fig_view_legal(const fig_view_t *v, fig_action_t out[])
{
    int players = v->players, me = v->seat;
    if (v->phase != FIG_PHASE_PLAY || v->turn != me || me >= players ||
        players > FIG_MAX_PLAYERS)
        return 0;
    /* The table as R6 reads it: who owns each colour, which piles have none. */
    int owner[FIG_COLOURS], colourless[FIG_MAX_PLAYERS], nfree = 0;
    for (int c = 0; c < FIG_COLOURS; c++)
        owner[c] = -1;
    for (int s = 0; s < players; s++) {
        int c = v->pile[s].colour;
        if (c < FIG_COLOURS)
            owner[c] = s;
        else
            colourless[nfree++] = s;
    }
    int n = 0;
    if (v->table_cards)                          /* R5: a take needs a face-up card */
        out[n++] = FIG_ACT_TAKE;
    for (int k = 0; k < FIG_KINDS; k++) {
        if (!v->hand.n[k])
            continue;
        if (fig_kind_is_colour(k)) {
            int o = owner[fig_kind_colour(k)];
            if (o >= 0)                          /* R6(b): only the colour's owner */
                out[n++] = fig_act_play(k, o);
            else                                 /* R6(a): any pile without colour */
                for (int i = 0; i < nfree; i++)
                    out[n++] = fig_act_play(k, colourless[i]);
        } else if (k == FIG_RING) {              /* R7: in front of oneself */
            out[n++] = fig_act_play(k, me);
        } else {                                 /* R6: a jester goes anywhere */
            for (int t = 0; t < players; t++)
                out[n++] = fig_act_play(k, t);
        }
    }
    return n;
}

int fig_view_road(const fig_view_t *v, int seat)
{
    int sum = 0;
    if (seat < 0 || seat >= FIG_MAX_PLAYERS)
        return 0;
    for (int i = 0; i < v->nroad[seat] && i < FIG_ROUNDS; i++)
        sum += v->road[seat][i];
    return sum;
}
