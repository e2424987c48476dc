/* SPDX-License-Identifier: MIT */
/* rules.c - dealing (R4), legal actions (R5, R6) and applying them (R5-R10).
 *
 * This is the hot path of every search: no allocation, no division in the
 * inner loops, and the derived fields of fig_state_t (owner[], colourless,
 * present[], hand_size[], table_cards) are updated incrementally so that
 * generating the legal actions is a walk over the kinds in hand. Round end
 * scoring lives in score.c. */
#include <string.h>

#include "figaro/state.h"
#include "bits.h"
#include "state_internal.h"

void fig_state_init(fig_state_t *st, const fig_setup_t *setup)
{
    memset(st, 0, sizeof *st);
    st->players = (uint8_t)setup->players;
    st->removed = (uint8_t)(setup->players == 3 ? setup->removed : FIG_NO_COLOUR);
    st->king = (uint8_t)setup->king;
    st->turn = (uint8_t)setup->king;
    st->round = 1;
    st->phase = FIG_PHASE_DEAL;
    memcpy(st->group, setup->roads, sizeof st->group);
    clear_table(st);
}

void clear_table(fig_state_t *st)
{
    memset(st->pile, 0, sizeof st->pile);
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        st->pile[s].colour = FIG_NO_COLOUR;
    memset(st->owner, FIG_NOBODY, sizeof st->owner);
    st->owned = 0;
    st->colourless = (uint8_t)((1u << st->players) - 1);
    st->table_cards = 0;
}

/* R4: a new round starts with every hand dealt and the King holder to play.
 * The hands are set, with present[] and hand_size[]; the rest starts afresh. */
static void begin_round(fig_state_t *st)
{
    memset(st->stack, 0, sizeof st->stack);
    clear_table(st);
    st->turn = st->king;
    st->phase = FIG_PHASE_PLAY;
}

/* Derives present[] and hand_size[] from hands given whole (a record's deal). */
static void count_hands(fig_state_t *st)
{
    for (int s = 0; s < st->players; s++) {
        uint32_t present = 0;
        int size = 0;
        for (int k = 0; k < FIG_KINDS; k++) {
            size += st->hand[s].n[k];
            present |= (uint32_t)(st->hand[s].n[k] != 0) << k;
        }
        st->present[s] = present;
        st->hand_size[s] = (uint8_t)size;
    }
}

/* Uniform in [0, n) from 32 random bits x, drawing more only on the rare
 * rejection (Lemire's method, as fig_rng_below, half a draw per call). */
static inline uint32_t below32(uint32_t x, uint32_t n, fig_rng_t *rng)
{
    uint64_t m = (uint64_t)x * n;
    if ((uint32_t)m < n) {
        uint32_t threshold = (uint32_t)-n % n;
        while ((uint32_t)m < threshold)
            m = (fig_rng_next(rng) >> 32) * (uint64_t)n;
    }
    return (uint32_t)(m >> 32);
}

void shuffle_kinds(uint8_t cards[], int n, int keep, fig_rng_t *rng)
{
    /* Fisher-Yates from the end, two positions per 64-bit draw: dealing and
     * sampling are a sizeable part of a search iteration. Position i is final
     * once step i is done, so the steps below `keep` are skipped: the first
     * block goes to one hand, whose cards' order does not matter. */
    int lo = keep > 1 ? keep : 1;
    for (int i = n - 1; i >= lo; i -= 2) {
        uint64_t r = fig_rng_next(rng);
        int j = (int)below32((uint32_t)r, (uint32_t)i + 1, rng);
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
        if (i - 1 >= lo) {
            j = (int)below32((uint32_t)(r >> 32), (uint32_t)i, rng);
            t = cards[i - 1];
            cards[i - 1] = cards[j];
            cards[j] = t;
        }
    }
}

void fig_state_deal(fig_state_t *st, fig_rng_t *rng)
{
    /* The deck as a list of kinds in kind order (fig_deck's counts), then
     * shuffled. Copied from a constant rather than built from the counts:
     * dealing is a sizeable part of a playout from the start of a game. */
#define COLOUR(c) 3 * (c), 3 * (c), 3 * (c), 3 * (c) + 1, 3 * (c) + 1, 3 * (c) + 1, \
                  3 * (c) + 1, 3 * (c) + 1, 3 * (c) + 1, 3 * (c) + 2   /* three 1s, six 2s, a 3 */
    static const uint8_t full[FIG_DECK_MAX] = {
        COLOUR(0), COLOUR(1), COLOUR(2), COLOUR(3), COLOUR(4),
        FIG_J1, FIG_J1, FIG_J1, FIG_J2, FIG_J2, FIG_RING, FIG_RING, FIG_RING, FIG_RING, FIG_RING,
    };
#undef COLOUR
    static const uint8_t three_tail[5] = { FIG_J1, FIG_J1, FIG_J2, FIG_RING, FIG_RING };
    uint8_t cards[FIG_DECK_MAX];
    int n = FIG_DECK_MAX;
    if (st->players == 3) {   /* R2: one colour, one J1, one J2 and three rings out */
        int gone = st->removed * 10;
        memcpy(cards, full, (size_t)gone);
        memcpy(cards + gone, full + gone + 10, (size_t)(40 - gone));
        memcpy(cards + 40, three_tail, sizeof three_tail);
        n = 45;
    } else {
        memcpy(cards, full, sizeof full);
    }
    int per = n / st->players;
    shuffle_kinds(cards, n, per, rng);
    /* Deal in blocks and set the derived hand fields as we go, rather than
     * recounting 18 kinds per seat afterwards. */
    memset(st->hand, 0, sizeof st->hand);
    for (int s = 0, i = 0; s < st->players; s++) {
        uint32_t present = 0;
        for (int c = 0; c < per; c++, i++) {
            st->hand[s].n[cards[i]]++;
            present |= 1u << cards[i];
        }
        st->present[s] = present;
        st->hand_size[s] = (uint8_t)per;
    }
    begin_round(st);
}

fig_err_t fig_state_deal_hands(fig_state_t *st, const fig_hand_t hands[], fig_msg_t *msg)
{
    if (st->phase != FIG_PHASE_DEAL)
        return fig_fail(msg, FIG_ERR_STATE, st->phase == FIG_PHASE_OVER
                        ? N_("the game is over: there is no round to deal")
                        : N_("round %d is still being played"), st->round);
    fig_hand_t deck;
    int per = fig_hand_cards(st->players);
    fig_deck(&deck, st->players, st->removed);
    for (int s = 0; s < st->players; s++) {
        int total = fig_hand_total(&hands[s]);
        if (total != per)
            return fig_fail(msg, FIG_ERR_INPUT,
                            N_("seat %d is dealt %d cards; with %d players each gets %d (R4)"),
                            s, total, st->players, per);
    }
    for (int k = 0; k < FIG_KINDS; k++) {
        int have = 0;
        for (int s = 0; s < st->players; s++)
            have += hands[s].n[k];
        if (have != deck.n[k])
            return fig_fail(msg, FIG_ERR_INPUT,
                            N_("the hands hold %d %s but the deck has %d (R1, R2)"),
                            have, fig_kind_code(k), deck.n[k]);
    }
    memset(st->hand, 0, sizeof st->hand);
    memcpy(st->hand, hands, sizeof(fig_hand_t) * st->players);
    count_hands(st);
    begin_round(st);
    return FIG_OK;
}

int fig_state_legal(const fig_state_t *st, fig_action_t *out)
{
    if (st->phase != FIG_PHASE_PLAY)
        return 0;
    int n = 0, s = st->turn, players = st->players;
    if (st->table_cards)
        out[n++] = FIG_ACT_TAKE;
    uint32_t kinds = st->present[s];
    while (kinds) {
        int k = __builtin_ctz(kinds);
        kinds &= kinds - 1;
        if (k < FIG_J1) {
            int owner = st->owner[k / 3];
            if (owner != FIG_NOBODY) {           /* R6(b): only the colour's owner */
                out[n++] = fig_act_play(k, owner);
            } else {                             /* R6(a): any pile without colour */
                unsigned free = st->colourless;
                while (free) {
                    out[n++] = fig_act_play(k, __builtin_ctz(free));
                    free &= free - 1;
                }
            }
        } else if (k == FIG_RING) {              /* R7: always in front of oneself */
            out[n++] = fig_act_play(FIG_RING, s);
        } else {                                 /* R6: a jester goes anywhere */
            for (int t = 0; t < players; t++)
                out[n++] = fig_act_play(k, t);
        }
    }
    return n;
}

/* A colour's name in the reader's language. */
static const char *colour_name(int colour, const fig_tr_t *tr)
{
    return fig_tr_text(tr, fig_colour_name(colour));
}

fig_err_t fig_state_check_tr(const fig_state_t *st, fig_action_t a, const fig_tr_t *tr,
                             fig_msg_t *msg)
{
    if (st->phase == FIG_PHASE_OVER)
        return fig_fail_tr(msg, tr, FIG_ERR_STATE, N_("the game is over"));
    if (st->phase == FIG_PHASE_DEAL)
        return fig_fail_tr(msg, tr, FIG_ERR_STATE, N_("round %d has not been dealt yet"),
                           st->round);
    int s = st->turn;
    if (fig_act_is_take(a)) {
        if (!st->table_cards)
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                            N_("seat %d cannot take: there is no face-up card on the table (R5)"), s);
        return FIG_OK;
    }
    int k = fig_act_kind(a), t = fig_act_target(a);
    if ((a & ~0xFFu) || k >= FIG_KINDS)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("not an action"));
    const char *code = fig_kind_code(k);
    if (t >= st->players)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                        N_("seat %d cannot play %s in front of seat %d: the seats are 0 to %d"),
                        s, code, t, st->players - 1);
    if (!st->hand[s].n[k])
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("seat %d has no %s in hand"), s, code);
    if (k == FIG_RING && t != s)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                        N_("seat %d cannot play RING in front of seat %d: a ring is always "
                           "played in front of oneself (R7)"), s, t);
    if (k < FIG_J1) {
        int c = k / 3;
        const fig_pile_t *p = &st->pile[t];
        if (p->colour != FIG_NO_COLOUR && p->colour != c)
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                            N_("seat %d cannot play %s in front of seat %d: that pile is %s (R6)"),
                            s, code, t, colour_name(p->colour, tr));
        if (st->owner[c] != FIG_NOBODY && st->owner[c] != t)
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                            N_("seat %d cannot play %s in front of seat %d: seat %d already has %s"),
                            s, code, t, st->owner[c], colour_name(c, tr));
    }
    return FIG_OK;
}

fig_err_t fig_state_check(const fig_state_t *st, fig_action_t a, fig_msg_t *msg)
{
    return fig_state_check_tr(st, a, NULL, msg);
}

fig_err_t fig_state_apply(fig_state_t *st, fig_action_t a, fig_events_t *ev, fig_msg_t *msg)
{
    fig_err_t rc = fig_state_check(st, a, msg);
    if (rc == FIG_OK)
        fig_state_apply_legal(st, a, ev);
    return rc;
}

static inline void emit(fig_events_t *ev, int type, int seat, int target, int kind, int count,
                        int reason)
{
    if (!ev || ev->n >= FIG_MAX_EVENTS)
        return;
    fig_event_t *e = &ev->ev[ev->n++];
    memset(e, 0, sizeof *e);
    e->type = (uint8_t)type;
    e->seat = (uint8_t)seat;
    e->target = (uint8_t)target;
    e->kind = (uint8_t)kind;
    e->count = (uint8_t)count;
    e->reason = (uint8_t)reason;
}

/* R5, R8: seat t moves every face-up card into its stack. */
static void collect(fig_state_t *st, int t, int why, fig_events_t *ev)
{
    if (ev)
        emit(ev, FIG_EV_COLLECT, t, t, 0, st->table_cards, why);
    st->stack[t] = (uint8_t)(st->stack[t] + st->table_cards);
    clear_table(st);
}

/* R7: the pile in front of seat s moves to seat s+1, for every s. A fixed
 * number of copies and table lookups: rings come at random in a playout, so
 * branches here would mispredict. */
static void rotate(fig_state_t *st)
{
    /* next_seat[n][o]: the seat after o at a table of n; owner code
     * FIG_NOBODY (0xFF, 7 once masked) stays nobody. */
    static const uint8_t next_seat[FIG_MAX_PLAYERS + 1][8] = {
        [3] = { 1, 2, 0, 0, 0, 0, 0, FIG_NOBODY },
        [4] = { 1, 2, 3, 0, 0, 0, 0, FIG_NOBODY },
        [5] = { 1, 2, 3, 4, 0, 0, 0, FIG_NOBODY },
        [6] = { 1, 2, 3, 4, 5, 0, 0, FIG_NOBODY },
    };
    int n = st->players;
    fig_pile_t before[FIG_MAX_PLAYERS];
    memcpy(before, st->pile, sizeof before);
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)   /* seats past n keep their empty piles */
        st->pile[s] = before[s == 0 ? n - 1 : s < n ? s - 1 : s];
    for (int c = 0; c < FIG_COLOURS; c++)
        st->owner[c] = next_seat[n][st->owner[c] & 7];
    unsigned m = st->colourless;
    st->colourless = (uint8_t)(((m << 1) | (m >> (n - 1))) & ((1u << n) - 1));
}

/* The body of every apply. Always inlined, so that callers that pass a
 * constant NULL for ev (playouts) get a copy without any event code. */
static inline __attribute__((always_inline)) void apply(fig_state_t *st, fig_action_t a,
                                                        fig_events_t *ev)
{
    int s = st->turn, next;
    if (ev)
        ev->n = 0;
    if (fig_act_is_take(a)) {
        if (ev)
            emit(ev, FIG_EV_TAKE, s, s, 0, st->table_cards, 0);
        collect(st, s, FIG_WHY_TAKE, ev);
        next = s;   /* R9 ruling: the taker acts again, on an empty table */
    } else {
        int k = fig_act_kind(a), t = fig_act_target(a);
        /* Branch-free bookkeeping: these tests go either way at random in a
         * playout, and a mispredicted branch costs more than the arithmetic. */
        int left = --st->hand[s].n[k];
        st->present[s] &= ~((uint32_t)(left == 0) << k);
        st->hand_size[s]--;
        st->table_cards++;
        next = s + 1 == st->players ? 0 : s + 1;
        if (ev) {
            emit(ev, FIG_EV_PLAY, s, t, k, 0, 0);
            if (st->hand_size[s] <= 1)
                emit(ev, st->hand_size[s] ? FIG_EV_LAST_CARD : FIG_EV_HAND_EMPTY, s, s, 0, 0, 0);
        }
        fig_pile_t *p = &st->pile[t];
        p->cards++;
        if (k == FIG_RING) {
            p->n[5]++;
            rotate(st);
            if (ev)
                emit(ev, FIG_EV_RING, s, s, k, 0, 0);
        } else {
            int value;
            if (k < FIG_J1) {
                int c = k / 3;
                value = k - c * 3 + 1;
                p->n[value - 1]++;
                unsigned fresh = p->colour == FIG_NO_COLOUR;   /* the pile takes colour c */
                p->colour = (uint8_t)c;   /* R6: it had no colour or colour c already */
                st->owner[c] = (uint8_t)t;
                st->owned |= (uint16_t)(7u << (c * 3));
                st->colourless &= (uint8_t)~(fresh << t);
            } else {
                value = k == FIG_J1 ? 1 : 2;
                p->n[k == FIG_J1 ? 3 : 4]++;
            }
            p->total = (uint8_t)(p->total + value);
            if (p->total >= 6) {   /* R8: the King has had enough */
                collect(st, t, FIG_WHY_SIX, ev);
                next = t;
            }
        }
    }
    st->turn = (uint8_t)next;
    if (st->hand_size[next] == 0)   /* R10: a turn starts with an empty hand */
        score_round(st, next, ev);
}

void fig_state_apply_legal(fig_state_t *st, fig_action_t a, fig_events_t *ev)
{
    apply(st, a, ev);
}

void fig_state_end_round(fig_state_t *st, int king)
{
    score_round(st, king, NULL);
}

/* The legal actions of the seat to move, counted by class instead of listed
 * (a listing dominates a random playout): decode() turns an index below
 * `total` into the action, so drawing one is a count and a decode. Same set as
 * fig_state_legal, in another order. */
typedef struct {
    uint32_t to_owner;   /* colour kinds whose colour is on the table: one target each */
    uint32_t to_free;    /* colour kinds whose colour is not: every colourless pile */
    uint32_t jesters;    /* jester kinds, shifted down to bits 0-1: every seat each */
    int n_take, n_owner, n_free_seats, n_free, n_jester, total;
} counts_t;

static inline __attribute__((always_inline)) void count_actions(const fig_state_t *st,
                                                                counts_t *c, int hw)
{
    uint32_t kinds = st->present[st->turn];
    c->to_owner = kinds & st->owned;
    c->to_free = kinds & ~(uint32_t)st->owned & ((1u << FIG_J1) - 1);
    c->jesters = kinds >> FIG_J1 & 3;
    c->n_take = st->table_cards != 0;
    c->n_owner = POPCOUNT16(hw, c->to_owner);
    c->n_free_seats = POPCOUNT16(hw, st->colourless);
    c->n_free = POPCOUNT16(hw, c->to_free) * c->n_free_seats;
    c->n_jester = (int)((c->jesters & 1) + (c->jesters >> 1)) * st->players;
    c->total = c->n_take + c->n_owner + c->n_free + c->n_jester + (int)(kinds >> FIG_RING & 1);
}

static inline __attribute__((always_inline)) fig_action_t decode(const fig_state_t *st,
                                                                 const counts_t *c, int r,
                                                                 int hw)
{
    if (r < c->n_take)
        return FIG_ACT_TAKE;
    r -= c->n_take;
    if (r < c->n_owner) {
        int k = NTH_BIT(hw, c->to_owner, r);
        return fig_act_play(k, st->owner[k / 3]);
    }
    r -= c->n_owner;
    if (r < c->n_free) {
        int q = div_small(r, c->n_free_seats);
        return fig_act_play(NTH_BIT(hw, c->to_free, q),
                            NTH_BIT(hw, st->colourless, r - q * c->n_free_seats));
    }
    r -= c->n_free;
    if (r < c->n_jester) {
        int q = div_small(r, st->players);
        return fig_act_play(NTH_BIT(hw, c->jesters, q) + FIG_J1, r - q * st->players);
    }
    return fig_act_play(FIG_RING, st->turn);
}

static inline __attribute__((always_inline)) fig_action_t pick_random(const fig_state_t *st,
                                                                      fig_rng_t *rng, int hw)
{
    if (st->phase != FIG_PHASE_PLAY)
        return FIG_ACT_NONE;
    counts_t c;
    count_actions(st, &c, hw);
    return decode(st, &c, (int)fig_rng_below(rng, (uint32_t)c.total), hw);
}

/* The playout policy's score of a for the seat to move, in quarter cards (no
 * state copy). What it gains at once: minus the table for a take (R5), minus
 * twice what it collects if it brings its own pile to 6, plus what another
 * seat collects if it brings that seat's pile to 6 (R8). With SEEK, also the
 * risk of a card left on its own pile at a total of 3, 4 or 5: the chance that
 * a later card brings it to 6 (R8: it takes a 3; a 2 or more; anything but a
 * ring), guessed at 1/4, 5/8 and 7/8, times what collecting a table of about
 * two cards more would cost it. */
static inline int policy_score(const fig_state_t *st, fig_action_t a, fig_playout_t kind)
{
    /* The chance in eighths; collecting costs the mover 8 quarter cards a card. */
    static const int risk[6] = { 0, 0, 0, 2, 5, 7 };
    if (fig_act_is_take(a))
        return -4 * st->table_cards;
    int k = fig_act_kind(a), t = fig_act_target(a);
    if (k == FIG_RING)
        return 0;
    int total = st->pile[t].total + fig_kind_value(k);
    if (total >= 6) {
        int cards = st->table_cards + 1;
        return t == st->turn ? -8 * cards : 4 * cards;
    }
    if (kind == FIG_PLAYOUT_SEEK && t == st->turn)
        return -risk[total] * (st->table_cards + 2);
    return 0;
}

/* The playout policy's action for the seat to move (see fig_state_playout
 * and fig_state_policy_action). */
static inline __attribute__((always_inline)) fig_action_t policy_action(
    const fig_state_t *st, fig_rng_t *rng, int redraws, fig_playout_t kind, int hw)
{
    counts_t c;   /* counted once for the draw and any redraws */
    count_actions(st, &c, hw);
    fig_action_t a = decode(st, &c, (int)fig_rng_below(rng, (uint32_t)c.total), hw);
    if (redraws) {
        int best = policy_score(st, a, kind), enough = kind == FIG_PLAYOUT_SEEK ? 1 : 0;
        for (int i = 0; i < redraws && best < enough; i++) {
            fig_action_t b = decode(st, &c, (int)fig_rng_below(rng, (uint32_t)c.total), hw);
            int score = policy_score(st, b, kind);
            if (score > best) {
                best = score;
                a = b;
            }
        }
    }
    return a;
}

static inline __attribute__((always_inline)) int playout_round(fig_state_t *st,
                                                               fig_rng_t *rng_out, int redraws,
                                                               fig_playout_t kind, int hw)
{
    /* A local generator: the compiler may then keep it in registers, as no
     * store into the state can change it. */
    fig_rng_t local = *rng_out, *rng = &local;
    int actions = 0;
    for (; st->phase == FIG_PHASE_PLAY; actions++)
        apply(st, policy_action(st, rng, redraws, kind, hw), NULL);
    *rng_out = local;
    return actions;
}

/* The three entry points that draw actions, each in two copies where bits.h
 * dispatches at run time: the loader binds the public name, once, to the
 * copy with the instructions (hw = 1) on a processor that has them, to the
 * portable one elsewhere (both draw the same actions: test_bits, and the
 * packages' test under qemu's baseline processor). */
#define FIG_DRAWING_FUNCTIONS(X)                                                              \
    X(fig_action_t, fig_state_random_action, (const fig_state_t *st, fig_rng_t *rng),          \
      pick_random(st, rng, HW))                                                               \
    X(fig_action_t, fig_state_policy_action,                                                  \
      (const fig_state_t *st, fig_rng_t *rng, int redraws, fig_playout_t kind),               \
      policy_action(st, rng, redraws, kind, HW))                                              \
    X(int, fig_state_playout_round,                                                           \
      (fig_state_t *st, fig_rng_t *rng, int redraws, fig_playout_t kind),                     \
      playout_round(st, rng, redraws, kind, HW))

#ifdef FIG_BITS_DISPATCH
#define HW 0
#define PORTABLE(type, name, params, body) static type name##_portable params { return body; }
FIG_DRAWING_FUNCTIONS(PORTABLE)
#undef HW
#define HW 1
#define FAST(type, name, params, body) FIG_BITS_HW_TARGET static type name##_fast params \
    { return body; }
FIG_DRAWING_FUNCTIONS(FAST)
#undef HW
#define RESOLVER(type, name, params, body)                                                    \
    __attribute__((used, no_sanitize("address", "undefined", "thread")))                      \
    static type (*name##_resolve(void)) params                                                \
    {                                                                                         \
        return fig_bits_hw_usable() ? name##_fast : name##_portable;                          \
    }                                                                                         \
    type name params __attribute__((ifunc(#name "_resolve")));
FIG_DRAWING_FUNCTIONS(RESOLVER)
#else
#define HW 0
#define PLAIN(type, name, params, body) type name params { return body; }
FIG_DRAWING_FUNCTIONS(PLAIN)
#undef HW
#endif

int fig_state_playout(fig_state_t *st, fig_rng_t *rng, int redraws)
{
    int actions = 0;
    while (st->phase != FIG_PHASE_OVER) {
        if (st->phase == FIG_PHASE_DEAL)
            fig_state_deal(st, rng);
        actions += fig_state_playout_round(st, rng, redraws, FIG_PLAYOUT_AVOID);
    }
    return actions;
}

uint64_t fig_state_perft(const fig_state_t *st, int depth)
{
    if (depth == 0)
        return 1;
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, moves);   /* 0 once the round has ended */
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        fig_state_t child = *st;
        fig_state_apply_legal(&child, moves[i], NULL);
        total += fig_state_perft(&child, depth - 1);
    }
    return total;
}
