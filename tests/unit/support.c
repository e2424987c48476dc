/* SPDX-License-Identifier: MIT */
/* support.c - helpers for building and checking positions in the unit tests.
 *
 * Everything is recomputed from scratch and by the plainest means, so that a
 * helper never shares a shortcut (or a bug) with the engine's incremental
 * updates in rules.c. See support.h for what each helper promises. */
#include <stdio.h>
#include <string.h>

#include "support.h"

/* ---- cards, hands, piles as text ---- */

/* Calls fn(kind, arg) for every card code in text; returns the number of cards
 * or -1 at the first word that is not a card. */
static int each_card(const char *text, void (*fn)(int kind, void *arg), void *arg)
{
    int count = 0;
    if (!text)
        return 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            break;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != ',')
            p++;
        int kind = fig_kind_parse(start, (size_t)(p - start));
        if (kind < 0)
            return -1;
        fn(kind, arg);
        count++;
    }
    return count;
}

static void add_to_hand(int kind, void *arg)
{
    fig_hand_t *h = arg;
    h->n[kind]++;
}

int sup_hand_parse(const char *text, fig_hand_t *out)
{
    memset(out, 0, sizeof *out);
    return each_card(text, add_to_hand, out);
}

int sup_pile_parse(const char *text, fig_pile_t *out)
{
    fig_hand_t h;
    memset(out, 0, sizeof *out);
    out->colour = FIG_NO_COLOUR;
    int count = sup_hand_parse(text, &h);
    if (count < 0)
        return -1;
    for (int k = 0; k < FIG_J1; k++) {
        if (!h.n[k])
            continue;
        int c = fig_kind_colour(k);
        if (out->colour != FIG_NO_COLOUR && out->colour != c)
            return -1;   /* R6: a pile holds one colour at most */
        out->colour = (uint8_t)c;
        out->n[fig_kind_value(k) - 1] = (uint8_t)(out->n[fig_kind_value(k) - 1] + h.n[k]);
    }
    out->n[3] = h.n[FIG_J1];
    out->n[4] = h.n[FIG_J2];
    out->n[5] = h.n[FIG_RING];
    int total = 0;
    for (int k = 0; k < FIG_KINDS; k++)
        total += h.n[k] * fig_kind_value(k);
    out->cards = (uint8_t)count;
    out->total = (uint8_t)total;
    return count;
}

void sup_pile_kinds(const fig_pile_t *p, fig_hand_t *h)
{
    for (int v = 0; v < 3; v++)
        if (p->n[v] && p->colour < FIG_COLOURS)
            h->n[p->colour * 3 + v] = (uint8_t)(h->n[p->colour * 3 + v] + p->n[v]);
    h->n[FIG_J1] = (uint8_t)(h->n[FIG_J1] + p->n[3]);
    h->n[FIG_J2] = (uint8_t)(h->n[FIG_J2] + p->n[4]);
    h->n[FIG_RING] = (uint8_t)(h->n[FIG_RING] + p->n[5]);
}

const char *sup_pile_format(const fig_pile_t *p, char *buf, size_t cap)
{
    fig_hand_t h;
    memset(&h, 0, sizeof h);
    sup_pile_kinds(p, &h);
    fig_hand_format(&h, buf, cap);   /* kind order: colour by value, J1, J2, RING */
    return buf;
}

void sup_table_kinds(const fig_state_t *st, fig_hand_t *h)
{
    memset(h, 0, sizeof *h);
    for (int s = 0; s < st->players; s++)
        sup_pile_kinds(&st->pile[s], h);
}

fig_action_t sup_act(const char *text, int actor)
{
    return fig_act_parse(text, strlen(text), actor);
}

/* ---- setups and deals ---- */

/* Parses "9 5 2 / 14 11 1 / 13 8 3" into setup->roads; -1 on a bad text. */
static int parse_roads(const char *text, int players, fig_setup_t *setup)
{
    int group = 0, i = 0;
    const char *p = text;
    while (*p) {
        if (*p == ' ') {
            p++;
        } else if (*p == '/') {
            if (i != players - 1 || ++group >= FIG_ROUNDS)
                return -1;
            i = 0;
            p++;
        } else if (*p >= '0' && *p <= '9') {
            long v = 0;
            while (*p >= '0' && *p <= '9')
                v = v * 10 + (*p++ - '0');
            if (i >= players - 1 || v > FIG_MAX_ROAD)
                return -1;
            setup->roads[group][i++] = (uint16_t)v;
        } else {
            return -1;
        }
    }
    return group == FIG_ROUNDS - 1 && i == players - 1 ? 0 : -1;
}

fig_err_t sup_setup(fig_setup_t *setup, int players, int king, int removed, const char *roads,
                    fig_msg_t *msg)
{
    memset(setup, 0, sizeof *setup);
    setup->players = players;
    setup->king = king;
    setup->removed = removed;
    if (players < FIG_MIN_PLAYERS || players > FIG_MAX_PLAYERS)
        return fig_setup_check(setup, msg);   /* lets the engine word the error */
    if (roads) {
        if (parse_roads(roads, players, setup) < 0)
            return fig_fail(msg, FIG_ERR_INPUT, "support: bad road text '%s'", roads);
    } else {
        int len = 15;
        for (int r = 0; r < FIG_ROUNDS; r++)
            for (int i = 0; i < players - 1; i++)
                setup->roads[r][i] = (uint16_t)len--;
    }
    return fig_setup_check(setup, msg);
}

fig_err_t sup_deal(fig_state_t *st, const char *const hands[], fig_msg_t *msg)
{
    fig_hand_t h[FIG_MAX_PLAYERS];
    memset(h, 0, sizeof h);
    for (int s = 0; s < st->players; s++)
        if (sup_hand_parse(hands[s], &h[s]) < 0)
            return fig_fail(msg, FIG_ERR_INPUT, "support: bad hand text for seat %d: '%s'", s,
                            hands[s]);
    return fig_state_deal_hands(st, h, msg);
}

fig_err_t sup_deal_fill(fig_state_t *st, const char *const prefix[], fig_msg_t *msg)
{
    int n = st->players, per = fig_hand_cards(n);
    fig_hand_t h[FIG_MAX_PLAYERS], deck;
    memset(h, 0, sizeof h);
    fig_deck(&deck, n, st->removed);
    for (int s = 0; s < n; s++) {
        int got = sup_hand_parse(prefix[s], &h[s]);
        if (got < 0 || got > per)
            return fig_fail(msg, FIG_ERR_INPUT, "support: bad hand prefix for seat %d: '%s'", s,
                            prefix[s] ? prefix[s] : "");
        for (int k = 0; k < FIG_KINDS; k++) {
            if (h[s].n[k] > deck.n[k])
                return fig_fail(msg, FIG_ERR_INPUT, "support: the deck has too few %s",
                                fig_kind_code(k));
            deck.n[k] = (uint8_t)(deck.n[k] - h[s].n[k]);
        }
    }
    int seat = 0;
    for (int k = 0; k < FIG_KINDS; k++)
        while (deck.n[k]) {
            int tries = 0;
            while (fig_hand_total(&h[seat]) == per && tries++ < n)
                seat = (seat + 1) % n;
            if (fig_hand_total(&h[seat]) == per)
                return fig_fail(msg, FIG_ERR_INPUT, "support: more cards than seats");
            h[seat].n[k]++;
            deck.n[k]--;
            seat = (seat + 1) % n;
        }
    return fig_state_deal_hands(st, h, msg);
}

fig_err_t sup_apply(fig_state_t *st, const char *moves, fig_events_t *ev, fig_msg_t *msg)
{
    const char *p = moves;
    int index = 0;
    while (*p) {
        while (*p == ' ' || *p == ';')
            p++;
        if (!*p)
            break;
        const char *start = p;
        while (*p && *p != ';')
            p++;
        size_t len = (size_t)(p - start);
        while (len && start[len - 1] == ' ')
            len--;
        index++;
        int seat = -1;
        const char *q = start;
        if (*q >= '0' && *q <= '9')
            seat = *q++ - '0';
        while (*q == ' ')
            q++;
        size_t alen = len - (size_t)(q - start);
        if (seat < 0 || q == start + 1)
            return fig_fail(msg, FIG_ERR_INPUT, "support: move %d '%.*s' is not '<seat> <action>'",
                            index, (int)len, start);
        if (st->phase != FIG_PHASE_PLAY || seat != st->turn)
            return fig_fail(msg, FIG_ERR_INPUT, "support: move %d '%.*s': it is seat %d's turn "
                            "(phase %d)", index, (int)len, start, st->turn, st->phase);
        fig_action_t a = fig_act_parse(q, alen, seat);
        if (a == FIG_ACT_NONE)
            return fig_fail(msg, FIG_ERR_INPUT, "support: move %d '%.*s' is not an action",
                            index, (int)len, start);
        fig_msg_t m;
        fig_err_t rc = fig_state_apply(st, a, ev, &m);
        if (rc != FIG_OK)
            return fig_fail(msg, rc, "move %d '%.*s': %s", index, (int)len, start, m.text);
    }
    return FIG_OK;
}

/* ---- positions described directly ---- */

void sup_derive(fig_state_t *st)
{
    int n = st->players;
    memset(st->owner, FIG_NOBODY, sizeof st->owner);
    st->owned = 0;
    st->colourless = 0;
    st->table_cards = 0;
    for (int s = 0; s < FIG_MAX_PLAYERS; s++) {
        st->present[s] = 0;
        st->hand_size[s] = 0;
        if (s >= n)
            continue;
        for (int k = 0; k < FIG_KINDS; k++)
            if (st->hand[s].n[k]) {
                st->present[s] |= 1u << k;
                st->hand_size[s] = (uint8_t)(st->hand_size[s] + st->hand[s].n[k]);
            }
        fig_pile_t *p = &st->pile[s];
        if (!p->n[0] && !p->n[1] && !p->n[2])
            p->colour = FIG_NO_COLOUR;
        int cards = 0, total = 0;
        for (int i = 0; i < 6; i++) {
            static const int value[6] = { 1, 2, 3, 1, 2, 0 };
            cards += p->n[i];
            total += p->n[i] * value[i];
        }
        p->cards = (uint8_t)cards;
        p->total = (uint8_t)total;
        st->table_cards = (uint8_t)(st->table_cards + cards);
        if (p->colour == FIG_NO_COLOUR)
            st->colourless |= (uint8_t)(1u << s);
        else {
            st->owner[p->colour] = (uint8_t)s;
            st->owned |= (uint16_t)(7u << (p->colour * 3));   /* the colour's three kinds */
        }
    }
}

/* Parses a list of road lengths "11 4"; returns how many, -1 on a bad text. */
static int parse_lengths(const char *text, uint16_t out[FIG_ROUNDS])
{
    int n = 0;
    const char *p = text;
    while (p && *p) {
        if (*p == ' ') {
            p++;
            continue;
        }
        if (*p < '0' || *p > '9' || n == FIG_ROUNDS)
            return -1;
        long v = 0;
        while (*p >= '0' && *p <= '9')
            v = v * 10 + (*p++ - '0');
        out[n++] = (uint16_t)v;
    }
    return n;
}

fig_err_t sup_build(fig_state_t *st, const sup_pos_t *pos, fig_msg_t *msg)
{
    fig_setup_t setup;
    int n = pos->players;
    fig_err_t rc = sup_setup(&setup, n, pos->king, n == 3 ? pos->removed : FIG_NO_COLOUR,
                             pos->roads, msg);
    if (rc != FIG_OK)
        return rc;
    fig_state_init(st, &setup);
    st->round = (uint8_t)(pos->round ? pos->round : 1);
    st->phase = FIG_PHASE_PLAY;
    st->turn = (uint8_t)pos->turn;
    for (int s = 0; s < n; s++) {
        if (sup_hand_parse(pos->hand[s], &st->hand[s]) < 0)
            return fig_fail(msg, FIG_ERR_INPUT, "support: bad hand for seat %d", s);
        if (sup_pile_parse(pos->pile[s], &st->pile[s]) < 0)
            return fig_fail(msg, FIG_ERR_INPUT, "support: bad pile for seat %d", s);
        if (st->pile[s].total >= 6)
            return fig_fail(msg, FIG_ERR_INPUT, "support: pile %d totals %d (R8)", s,
                            st->pile[s].total);
        st->stack[s] = (uint8_t)pos->stack[s];
        int held = parse_lengths(pos->held[s], st->road[s]);
        if (held < 0)
            return fig_fail(msg, FIG_ERR_INPUT, "support: bad road pieces for seat %d", s);
        st->nroad[s] = (uint8_t)held;
    }
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (st->pile[a].colour != FIG_NO_COLOUR && st->pile[a].colour == st->pile[b].colour)
                return fig_fail(msg, FIG_ERR_INPUT, "support: piles %d and %d share a colour",
                                a, b);
    sup_derive(st);
    if (pos->turn < 0 || pos->turn >= n || st->hand_size[pos->turn] == 0)
        return fig_fail(msg, FIG_ERR_INPUT, "support: seat %d is to move but holds no card",
                        pos->turn);
    return FIG_OK;
}

/* ---- invariants ---- */

#define FAIL(...) (snprintf(why, cap, __VA_ARGS__), false)

bool sup_check_state(const fig_state_t *st, char *why, size_t cap)
{
    int n = st->players;
    if (n < FIG_MIN_PLAYERS || n > FIG_MAX_PLAYERS)
        return FAIL("players is %d", n);
    if (st->phase > FIG_PHASE_OVER || st->round < 1 || st->round > FIG_ROUNDS)
        return FAIL("phase %d, round %d", st->phase, st->round);
    if (st->turn >= n || st->king >= n)
        return FAIL("turn %d, king %d with %d players", st->turn, st->king, n);
    fig_state_t d = *st;
    sup_derive(&d);
    for (int s = 0; s < n; s++) {
        const fig_pile_t *p = &st->pile[s];
        if (p->total >= 6)
            return FAIL("pile %d totals %d (R8)", s, p->total);
        if (p->cards != d.pile[s].cards || p->total != d.pile[s].total)
            return FAIL("pile %d says %d cards, total %d; its counts give %d, %d", s, p->cards,
                        p->total, d.pile[s].cards, d.pile[s].total);
        if (p->colour != d.pile[s].colour)
            return FAIL("pile %d has colour %d but no colour card", s, p->colour);
        if ((p->n[0] || p->n[1] || p->n[2]) && p->colour == FIG_NO_COLOUR)
            return FAIL("pile %d holds colour cards but has no colour", s);
        if (p->colour != FIG_NO_COLOUR && p->colour >= FIG_COLOURS)
            return FAIL("pile %d has colour %d", s, p->colour);
        for (int t = s + 1; t < n; t++)
            if (p->colour != FIG_NO_COLOUR && p->colour == st->pile[t].colour)
                return FAIL("piles %d and %d are both %s (R6)", s, t, fig_colour_name(p->colour));
        if (st->hand_size[s] != d.hand_size[s])
            return FAIL("hand_size[%d] = %d, hand holds %d", s, st->hand_size[s],
                        d.hand_size[s]);
        if (st->present[s] != d.present[s])
            return FAIL("present[%d] = %#x, hand gives %#x", s, (unsigned)st->present[s],
                        (unsigned)d.present[s]);
    }
    for (int c = 0; c < FIG_COLOURS; c++)
        if (st->owner[c] != d.owner[c])
            return FAIL("owner[%s] = %d, piles give %d", fig_colour_name(c), st->owner[c],
                        d.owner[c]);
    if (st->owned != d.owned)
        return FAIL("owned = %#x, piles give %#x", (unsigned)st->owned, (unsigned)d.owned);
    if ((st->colourless & ((1u << n) - 1)) != d.colourless)
        return FAIL("colourless = %#x, piles give %#x", st->colourless, d.colourless);
    if (st->table_cards != d.table_cards)
        return FAIL("table_cards = %d, piles hold %d", st->table_cards, d.table_cards);
    if (st->phase == FIG_PHASE_PLAY && st->hand_size[st->turn] == 0)
        return FAIL("seat %d is to move with no card (R10)", st->turn);
    return true;
}

bool sup_check_cards(const fig_state_t *st, const fig_hand_t *stacked, char *why, size_t cap)
{
    int n = st->players, stacks = 0;
    fig_hand_t deck, have;
    fig_deck(&deck, n, st->removed);
    sup_table_kinds(st, &have);
    for (int s = 0; s < n; s++) {
        stacks += st->stack[s];
        for (int k = 0; k < FIG_KINDS; k++)
            have.n[k] = (uint8_t)(have.n[k] + st->hand[s].n[k]);
    }
    if (stacked) {
        if (fig_hand_total(stacked) != stacks)
            return FAIL("stacks count %d cards, %d were collected", stacks,
                        fig_hand_total(stacked));
        for (int k = 0; k < FIG_KINDS; k++)
            if (have.n[k] + stacked->n[k] != deck.n[k])
                return FAIL("%s: %d in hands and piles + %d in stacks, the deck has %d",
                            fig_kind_code(k), have.n[k], stacked->n[k], deck.n[k]);
        return true;
    }
    for (int k = 0; k < FIG_KINDS; k++)
        if (have.n[k] > deck.n[k])
            return FAIL("%d %s in hands and piles, the deck has %d", have.n[k],
                        fig_kind_code(k), deck.n[k]);
    if (fig_hand_total(&have) + stacks != fig_hand_total(&deck))
        return FAIL("%d cards in hands and piles + %d in stacks, the deck has %d",
                    fig_hand_total(&have), stacks, fig_hand_total(&deck));
    return true;
}

#undef FAIL

/* ---- events ---- */

const fig_event_t *sup_event(const fig_events_t *ev, int type, int nth)
{
    for (int i = 0; i < ev->n; i++)
        if (ev->ev[i].type == type && nth-- == 0)
            return &ev->ev[i];
    return NULL;
}

int sup_event_count(const fig_events_t *ev, int type)
{
    int count = 0;
    for (int i = 0; i < ev->n; i++)
        count += ev->ev[i].type == type;
    return count;
}
