/* SPDX-License-Identifier: MIT */
/* narrate.c - what happened in a game, in sentences, for the full-screen game
 * and plain mode alike (narrate.h): the deal, every play, take and ring, the
 * collections, the end of a round with its tie-breaks (R11) and exchange (R12),
 * the pieces, the end of the game (R13); and what an action would do, for a
 * menu line or a hint.
 *
 * Every sentence is whole inside fig_tr_text() or fig_tr_plural() with printf
 * arguments, in the language of the narrator's translator (never a
 * process-wide one: two narrators may speak two languages at once), and
 * the person gets sentences of their own ("You play ...") rather than a name
 * spliced in, so translators can write natural sentences. The card inside a
 * sentence is written by the caller's callback, so a front end can bracket or
 * colour it without a sentence of its own.
 *
 * Nothing here reads a hand other than the person's: sentences come from the
 * events of a step and from the person's views, which are public (R14); an
 * action is tried on a state sampled from the person's view, whose other hands
 * are a guess and are never read. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "host/narrate.h"
#include "host/util.h"

enum { SENTENCE_MAX = 1024, CARD_MAX = 32 };

void fig_narrate_init(fig_narrator_t *nr, int players, int me, const char names[][FIG_NAME_MAX + 1],
                      const fig_tr_t *tr, fig_narrate_card_fn *card, fig_narrate_say_fn *say,
                      void *ctx)
{
    memset(nr, 0, sizeof *nr);
    nr->n = players < FIG_MAX_PLAYERS ? players : FIG_MAX_PLAYERS;
    nr->me = me;
    nr->tr = tr;
    for (int s = 0; s < nr->n; s++)
        snprintf(nr->names[s], sizeof nr->names[s], "%s", names[s]);
    nr->card = card;
    nr->say = say;
    nr->ctx = ctx;
}

void fig_narrate_set_name(fig_narrator_t *nr, int seat, const char *name)
{
    if (seat >= 0 && seat < nr->n)
        snprintf(nr->names[seat], sizeof nr->names[seat], "%s", name);
}

const char *fig_narrate_name(const fig_narrator_t *nr, int seat)
{
    if (seat < 0 || seat >= nr->n)
        return "?";
    return nr->names[seat];
}

/* Formats one sentence and hands it to the caller. */
static void tell(const fig_narrator_t *nr, int about, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void tell(const fig_narrator_t *nr, int about, const char *fmt, ...)
{
    char buf[SENTENCE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    nr->say(nr->ctx, about, buf);
}

static const char *card(const fig_narrator_t *nr, int kind, char *buf, size_t cap)
{
    return nr->card(nr->ctx, kind, buf, cap);
}

/* ---- a step ---- */

static void tell_deal(const fig_narrator_t *nr, int round, const fig_view_t *v)
{
    if (v->turn == nr->me)
        tell(nr, FIG_NARRATE_DEAL,
             fig_tr_text(nr->tr, "Round %d: the cards are dealt, %d each. You hold the King and "
             "play first."),
             round, v->hand_size[0]);
    else
        tell(nr, FIG_NARRATE_DEAL,
             fig_tr_text(nr->tr, "Round %d: the cards are dealt, %d each. %s holds the King and "
             "plays first."),
             round, v->hand_size[0], fig_narrate_name(nr, v->turn));
    char g[64];
    fig_road_format(v->group[round - 1], nr->n - 1, ", ", g, sizeof g);
    tell(nr, FIG_NARRATE_DEAL,
         fig_tr_text(nr->tr, "The road pieces of this round, longest first: %s."),
         g);
    if (round == 1 && nr->n == 3)
        tell(nr, FIG_NARRATE_DEAL,
             fig_tr_text(nr->tr, "With three players the %s cards are left out."),
             fig_tr_text(nr->tr, fig_colour_name(v->removed)));
}

static void tell_play(const fig_narrator_t *nr, const fig_event_t *e)
{
    char c[CARD_MAX];
    card(nr, e->kind, c, sizeof c);
    int s = e->seat, to = e->target, me = nr->me;
    if (s == me && to == me)
        tell(nr, e->type, fig_tr_text(nr->tr, "You play %s in front of yourself."), c);
    else if (s == me)
        tell(nr, e->type, fig_tr_text(nr->tr, "You play %s in front of %s."), c,
             fig_narrate_name(nr, to));
    else if (to == s)
        tell(nr, e->type, fig_tr_text(nr->tr, "%s plays %s in front of themselves."),
             fig_narrate_name(nr, s), c);
    else if (to == me)
        tell(nr, e->type, fig_tr_text(nr->tr, "%s plays %s in front of you."),
             fig_narrate_name(nr, s),
             c);
    else
        tell(nr, e->type, fig_tr_text(nr->tr, "%s plays %s in front of %s."),
             fig_narrate_name(nr, s),
             c, fig_narrate_name(nr, to));
}

/* R8: `total` is what the pile reached. A take's collection is told by the take. */
static void tell_collect(const fig_narrator_t *nr, const fig_event_t *e, int total)
{
    int s = e->seat, n = e->count;
    if (e->reason == FIG_WHY_TAKE)
        return;
    if (s == nr->me)
        tell(nr, e->type,
             fig_tr_plural(nr->tr, "Your pile reaches %d: you collect the %d face-up card and "
                                   "play next.",
                           "Your pile reaches %d: you collect all %d face-up cards and "
                           "play next.",
                           (unsigned long)n),
             total, n);
    else
        tell(nr, e->type,
             fig_tr_plural(nr->tr, "%1$s's pile reaches %2$d: %1$s collects the %3$d face-up "
                                   "card and plays next.",
                           "%1$s's pile reaches %2$d: %1$s collects all %3$d face-up "
                           "cards and plays next.",
                           (unsigned long)n),
             fig_narrate_name(nr, s), total, n);
}

static void tell_round_end(const fig_narrator_t *nr, const fig_event_t *e)
{
    if (e->seat == nr->me)
        tell(nr, e->type,
             fig_tr_text(nr->tr, "Round %d is over: you start a turn with no cards left and take "
                                 "the King."),
             e->round);
    else
        tell(nr, e->type,
             fig_tr_text(nr->tr, "Round %d is over: %s starts a turn with no cards left and "
                                 "takes the King."),
             e->round, fig_narrate_name(nr, e->seat));
    char counts[FIG_MAX_PLAYERS * (FIG_NARRATE_NAME_MAX + 8)];   /* "Ann 12, Bob 9, Cid 5" */
    size_t len = 0;
    counts[0] = '\0';
    for (int s = 0; s < nr->n; s++)
        fig_putf(counts, sizeof counts, &len, "%s%s %d", s ? ", " : "", fig_narrate_name(nr, s),
                 e->counts[s]);
    tell(nr, e->type, fig_tr_text(nr->tr, "Cards collected this round: %s."), counts);
}

/* R11's tie-breaks: one sentence per group of seats with equal counts, from
 * the pieces' events (ev->ev[from] is the first). Seats with no cards get no
 * piece whatever their order, so a tie among them is not worth a sentence. */
static void tell_ties(const fig_narrator_t *nr, const fig_events_t *ev, int from)
{
    int order[FIG_MAX_PLAYERS], counts[FIG_MAX_PLAYERS], k = 0;
    for (int i = from; i < ev->n && k < FIG_MAX_PLAYERS; i++) {
        const fig_event_t *e = &ev->ev[i];
        if (e->type != FIG_EV_PIECE && e->type != FIG_EV_NO_PIECE)
            continue;
        int at = e->rank < FIG_MAX_PLAYERS ? e->rank : k;
        order[at] = e->seat;
        counts[at] = e->count;
        k++;
    }
    for (int i = 0; i < k;) {
        int j = i + 1;
        while (j < k && counts[j] == counts[i])
            j++;
        if (j - i > 1 && counts[i] > 0) {
            char names[FIG_MAX_PLAYERS * (FIG_NARRATE_NAME_MAX + 2) + 8];
            size_t len = 0;
            names[0] = '\0';
            for (int x = i; x < j; x++)
                fig_putf(names, sizeof names, &len, "%s%s", x > i ? ", " : "",
                         fig_narrate_name(nr, order[x]));
            tell(nr, ev->ev[from].type,
                 fig_tr_plural(nr->tr, "Tie at %d card between %s: ties are broken clockwise "
                                       "from the new King's left, the King last, so they rank in "
                                       "that order.",
                               "Tie at %d cards between %s: ties are broken clockwise "
                               "from the new King's left, the King last, so they rank in "
                               "that order.",
                               (unsigned long)counts[i]),
                 counts[i], names);
        }
        i = j;
    }
}

/* R12 when no exchange took place: says why. `before` has the pieces held. */
static void tell_no_exchange(const fig_narrator_t *nr, const fig_events_t *ev,
                             const fig_view_t *before)
{
    const fig_event_t *end = NULL;
    for (int i = 0; i < ev->n; i++)
        if (ev->ev[i].type == FIG_EV_ROUND_END)
            end = &ev->ev[i];
    if (!end)
        return;
    int n = nr->n, seat = end->seat;   /* fewest cards; ties: the King, then clockwise */
    for (int i = 1; i < n; i++) {
        int s = (end->seat + i) % n;
        if (end->counts[s] < end->counts[seat])
            seat = s;
    }
    unsigned shortest = before->group[FIG_ROUNDS - 1][n - 2], longest = 0;
    for (int p = 0; p < before->nroad[seat]; p++)
        if (before->road[seat][p] > longest)
            longest = before->road[seat][p];
    int about = FIG_EV_EXCHANGE;
    if (!before->nroad[seat]) {
        if (seat == nr->me)
            tell(nr, about, "%s",
                 fig_tr_text(nr->tr, "No round-3 exchange: you have the fewest cards but no road "
                                     "piece to give."));
        else
            tell(nr, about,
                 fig_tr_text(nr->tr, "No round-3 exchange: %s has the fewest cards but no road "
                                     "piece to give."),
                 fig_narrate_name(nr, seat));
    } else if (seat == nr->me) {
        tell(nr, about,
             fig_tr_text(nr->tr, "No round-3 exchange: you have the fewest cards, but your "
                                 "longest piece, %u, is not longer than this round's shortest, "
                                 "%u."),
             longest, shortest);
    } else {
        tell(nr, about,
             fig_tr_text(nr->tr, "No round-3 exchange: %s has the fewest cards, but their "
                                 "longest piece, %u, is not longer than this round's shortest, "
                                 "%u."),
             fig_narrate_name(nr, seat), longest, shortest);
    }
}

static void tell_exchange(const fig_narrator_t *nr, const fig_event_t *e)
{
    if (e->seat == nr->me)
        tell(nr, e->type,
             fig_tr_text(nr->tr, "The round-3 exchange: you have the fewest cards, so you give "
                                 "your longest piece, %u, for this round's shortest, %u."),
             (unsigned)e->a, (unsigned)e->b);
    else
        tell(nr, e->type,
             fig_tr_text(nr->tr, "The round-3 exchange: %s has the fewest cards, so they give "
                                 "their longest piece, %u, for this round's shortest, %u."),
             fig_narrate_name(nr, e->seat), (unsigned)e->a, (unsigned)e->b);
}

/* R11: one seat's piece, or why it gets none. */
static void tell_piece(const fig_narrator_t *nr, const fig_event_t *e)
{
    int s = e->seat, t = e->type;
    unsigned long n = e->count;
    if (e->type == FIG_EV_PIECE) {
        /* Not "you rank 1": first means the most cards, the worst result. */
        if (s == nr->me && e->rank == 0)
            tell(nr, t,
                 fig_tr_plural(nr->tr, "You collected the most cards, %d, and receive the "
                                       "longest road piece, %d.",
                               "You collected the most cards, %d, and receive the longest "
                               "road piece, %d.",
                               n),
                 e->count, e->a);
        else if (s == nr->me)
            tell(nr, t,
                 fig_tr_plural(nr->tr, "You collected %d card and receive a road piece of "
                                       "length %d.",
                               "You collected %d cards and receive a road piece of "
                               "length %d.",
                               n),
                 e->count, e->a);
        else if (e->rank == 0)
            tell(nr, t,
                 fig_tr_plural(nr->tr, "%s collected the most cards, %d, and receives the "
                                       "longest road piece, %d.",
                               "%s collected the most cards, %d, and receives the longest "
                               "road piece, %d.",
                               n),
                 fig_narrate_name(nr, s), e->count, e->a);
        else
            tell(nr, t,
                 fig_tr_plural(nr->tr, "%s collected %d card and receives a road piece of "
                                       "length %d.",
                               "%s collected %d cards and receives a road piece of "
                               "length %d.",
                               n),
                 fig_narrate_name(nr, s), e->count, e->a);
    } else if (e->reason == FIG_WHY_ZERO) {
        if (s == nr->me)
            tell(nr, t, "%s", fig_tr_text(nr->tr, "You collected no cards and get no road piece."));
        else
            tell(nr, t, fig_tr_text(nr->tr, "%s collected no cards and gets no road piece."),
                 fig_narrate_name(nr, s));
    } else {
        if (s == nr->me)
            tell(nr, t,
                 fig_tr_plural(nr->tr, "You rank last with %d card and get no road piece.",
                               "You rank last with %d cards and get no road piece.", n),
                 e->count);
        else
            tell(nr, t,
                 fig_tr_plural(nr->tr, "%s ranks last with %d card and gets no road piece.",
                               "%s ranks last with %d cards and gets no road piece.", n),
                 fig_narrate_name(nr, s), e->count);
    }
}

/* R13: the winner, then every seat's road, best first; `after` has the pieces. */
static void tell_game_over(const fig_narrator_t *nr, const fig_event_t *e, const fig_view_t *after)
{
    int w = e->counts[0], t = e->type;
    if (w == nr->me)
        tell(nr, t, fig_tr_text(nr->tr, "The game is over: you win with the shortest road, %u!"),
             (unsigned)e->totals[w]);
    else
        tell(nr, t, fig_tr_text(nr->tr, "The game is over: %s wins with the shortest road, %u."),
             fig_narrate_name(nr, w), (unsigned)e->totals[w]);
    bool tie = false;
    for (int i = 0; i < nr->n; i++) {
        int s = e->counts[i];
        char pieces[64];
        fig_road_format(after->road[s], after->nroad[s], " + ", pieces, sizeof pieces);
        if (!after->nroad[s])
            tell(nr, t, fig_tr_text(nr->tr, "%d. %s: no road pieces, road 0."), i + 1,
                 fig_narrate_name(nr, s));
        else
            tell(nr, t, fig_tr_text(nr->tr, "%d. %s: road %u (%s)."), i + 1,
                 fig_narrate_name(nr, s),
                 (unsigned)e->totals[s], pieces);
        if (i > 0 && e->totals[s] == e->totals[e->counts[i - 1]])
            tie = true;
    }
    if (tie)
        tell(nr, t,
             fig_tr_text(nr->tr, "Equal roads are ranked from the King (%s) clockwise (R13)."),
             fig_narrate_name(nr, after->king));
}

/* A take (R5), after which the same seat plays again (R9). */
static void tell_take(const fig_narrator_t *nr, const fig_event_t *e)
{
    if (e->seat == nr->me)
        tell(nr, e->type,
             fig_tr_plural(nr->tr, "You take the %d face-up card and play again.",
                           "You take all %d face-up cards and play again.",
                           (unsigned long)e->count),
             e->count);
    else
        tell(nr, e->type,
             fig_tr_plural(nr->tr, "%s takes the %d face-up card and plays again.",
                           "%s takes all %d face-up cards and plays again.",
                           (unsigned long)e->count),
             fig_narrate_name(nr, e->seat), e->count);
}

void fig_narrate_step(const fig_narrator_t *nr, const fig_match_step_t *step,
                      const fig_view_t *before, const fig_view_t *after)
{
    if (step->deal) {
        tell_deal(nr, step->round, after);
        return;
    }
    const fig_events_t *ev = &step->events;
    bool ties_told = false, exchanged = false;
    for (int i = 0; i < ev->n; i++) {
        const fig_event_t *e = &ev->ev[i];
        int s = e->seat, t = e->type;
        switch (e->type) {
        case FIG_EV_PLAY:
            if (e->kind != FIG_RING)
                tell_play(nr, e);
            else if (s == nr->me)   /* told with the play, before "one card left" */
                tell(nr, FIG_EV_RING, "%s",
                     fig_tr_text(nr->tr, "You play a ring: every pile moves one seat to the "
                                         "left."));
            else
                tell(nr, FIG_EV_RING,
                     fig_tr_text(nr->tr, "%s plays a ring: every pile moves one seat to the left."),
                     fig_narrate_name(nr, s));
            break;
        case FIG_EV_TAKE:
            tell_take(nr, e);
            break;
        case FIG_EV_COLLECT: {
            /* The pile's total just before it was collected: what it held
             * before this step plus the card just played on it. */
            int total = before->pile[s].total;
            if (step->action != FIG_ACT_TAKE && step->action != FIG_ACT_NONE)
                total += fig_kind_value(fig_act_kind(step->action));
            tell_collect(nr, e, total);
            break;
        }
        case FIG_EV_LAST_CARD:
            if (s == nr->me)
                tell(nr, t, "%s", fig_tr_text(nr->tr, "You have one card left!"));
            else
                tell(nr, t, fig_tr_text(nr->tr, "%s has one card left!"), fig_narrate_name(nr, s));
            break;
        case FIG_EV_HAND_EMPTY:
            if (s == nr->me)
                tell(nr, t, "%s",
                     fig_tr_text(nr->tr, "You have played your last card: the round ends when "
                                         "your turn comes."));
            else
                tell(nr, t,
                     fig_tr_text(nr->tr, "%s has played their last card: the round ends when "
                                         "their turn comes."),
                     fig_narrate_name(nr, s));
            break;
        case FIG_EV_ROUND_END:
            tell_round_end(nr, e);
            break;
        case FIG_EV_EXCHANGE:
            exchanged = true;
            tell_exchange(nr, e);
            break;
        case FIG_EV_PIECE:
        case FIG_EV_NO_PIECE:
            if (e->round == FIG_ROUNDS && !ties_told && !exchanged)
                tell_no_exchange(nr, ev, before);
            if (!ties_told) {
                tell_ties(nr, ev, i);
                ties_told = true;
            }
            tell_piece(nr, e);
            break;
        case FIG_EV_GAME_OVER:
            tell_game_over(nr, e, after);
            break;
        default:
            break;
        }
    }
}

/* ---- an action the person may take ---- */

/* What `a` would do from the person's view v: applied to a state sampled from
 * v. The sample's other hands are a guess, but nothing read here depends on
 * them: piles, hand sizes and collections follow from the table and the
 * mover's own card. Returns false if `a` cannot be applied (not v's turn). */
typedef struct {
    fig_view_t after;      /* the person's view afterwards */
    int collector;         /* the seat that collects, or -1 */
    int collected;         /* how many cards it collects */
} outcome_t;

static bool outcome(const fig_view_t *v, fig_action_t a, outcome_t *out)
{
    fig_state_t st;
    fig_rng_t rng;
    fig_events_t ev;
    fig_rng_seed(&rng, 1);
    fig_view_sample(v, &rng, &st);
    ev.n = 0;
    if (fig_state_apply(&st, a, &ev, NULL) != FIG_OK)
        return false;
    fig_view_of(&st, v->seat, &out->after);
    out->collector = -1;
    out->collected = 0;
    for (int i = 0; i < ev.n; i++)
        if (ev.ev[i].type == FIG_EV_COLLECT) {
            out->collector = ev.ev[i].seat;
            out->collected = ev.ev[i].count;
        }
    return true;
}

/* ---- card codes */

/* The 7 codes of a table, or false if it is not a usable one. */
static bool code_table(const char *table, char codes[7][8])
{
    static const char *const fgn[7] = { "R", "B", "G", "Y", "P", "J", "RING" };
    int n = 0;
    for (const char *p = table; p && *p && n <= 7;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        if (n == 7 || len > 5)
            return false;
        for (size_t i = 0; i < len; i++)
            if (!((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z')))
                return false;
        memcpy(codes[n], p, len);
        codes[n++][len] = '\0';
        p += len;
    }
    if (n != 7)
        return false;
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++) {
            if (i != j && strcasecmp(codes[i], codes[j]) == 0)
                return false;   /* two cards, one code */
            if (i != j && i < 6 && j < 6 && strcasecmp(codes[i], fgn[j]) == 0)
                return false;   /* "G2" would be another card in a record */
        }
    return true;
}

static void english(char codes[7][8])
{
    static const char *const fgn[7] = { "R", "B", "G", "Y", "P", "J", "RING" };
    for (int i = 0; i < 7; i++)
        snprintf(codes[i], 8, "%s", fgn[i]);
}

const char *fig_card_code_in(const char *table, int kind, char *buf, size_t cap)
{
    char codes[7][8];
    if (!code_table(table, codes))
        english(codes);
    if (kind == FIG_RING)
        snprintf(buf, cap, "%s", codes[6]);
    else if (fig_kind_is_jester(kind))
        snprintf(buf, cap, "%s%d", codes[5], fig_kind_value(kind));
    else if (kind >= 0 && kind < FIG_KINDS)
        snprintf(buf, cap, "%s%d", codes[fig_kind_colour(kind)], fig_kind_value(kind));
    else
        snprintf(buf, cap, "?");
    return buf;
}

int fig_card_code_parse_in(const char *table, const char *text, size_t *used)
{
    char codes[7][8];
    if (!code_table(table, codes))
        english(codes);
    size_t letters = 0;
    while ((text[letters] >= 'A' && text[letters] <= 'Z') ||
           (text[letters] >= 'a' && text[letters] <= 'z'))
        letters++;
    for (int i = 0; i < 7; i++) {
        if (strlen(codes[i]) != letters || strncasecmp(codes[i], text, letters) != 0)
            continue;
        if (i == 6) {
            *used = letters;
            return FIG_RING;
        }
        int v = text[letters] - '0';
        for (int k = 0; k < FIG_RING && v >= 1 && v <= 3; k++)
            if (fig_kind_value(k) == v &&
                (i == 5 ? fig_kind_is_jester(k)
                        : fig_kind_is_colour(k) && fig_kind_colour(k) == i)) {
                *used = letters + 1;
                return k;
            }
    }
    return -1;
}

const char *fig_narrate_code(const fig_tr_t *tr, int kind, char *buf, size_t cap)
{
    /* TRANSLATORS: the codes of the cards, in this order: red, blue, green,
     * yellow and purple cards, jesters, rings; 7 distinct codes of 1 to 5
     * letters A-Z. A card is written as its code and value ("R2", a red 2;
     * "J1" a jester 1) and a ring as its code. Choose letters that read right
     * in your language and do not clash (French: "R B V Ja Vi Jo RONDE");
     * a colour or the jester may not take another card's English letter. */
    return fig_card_code_in(fig_tr_text(tr, N_("R B G Y P J RING")), kind, buf, cap);
}

int fig_narrate_collector(const fig_view_t *v, fig_action_t a, int *count)
{
    outcome_t o;
    if (!outcome(v, a, &o))
        o.collector = -1, o.collected = 0;
    if (count)
        *count = o.collected;
    return o.collector;
}

void fig_narrate_move(const fig_narrator_t *nr, const fig_view_t *v, fig_action_t a, char *buf,
                      size_t cap)
{
    outcome_t o;
    if (!outcome(v, a, &o)) {
        fig_act_format(a, buf, cap);
        return;
    }
    if (fig_act_is_take(a)) {
        snprintf(buf, cap,
                 fig_tr_plural(nr->tr, "take the %d face-up card", "take the %d face-up cards",
                               (unsigned long)o.collected),
                 o.collected);
        return;
    }
    int k = fig_act_kind(a), to = fig_act_target(a);
    if (k == FIG_RING) {
        snprintf(buf, cap, "%s",
                 fig_tr_text(nr->tr, "play a ring: every pile moves one seat to the left"));
        return;
    }
    char c[CARD_MAX];
    card(nr, k, c, sizeof c);
    int reach = v->pile[to].total + fig_kind_value(k);
    /* A pile that reaches 6 holds at least two cards, so these two are plural
     * (R8: the collector takes every face-up card on the table). */
    if (o.collector < 0 && to == nr->me)
        snprintf(buf, cap, fig_tr_text(nr->tr, "%s in front of yourself"), c);
    else if (o.collector < 0)
        snprintf(buf, cap, fig_tr_text(nr->tr, "%s in front of %s"), c, fig_narrate_name(nr, to));
    else if (to == nr->me)
        snprintf(buf, cap,
                 fig_tr_text(nr->tr, "%s in front of yourself: your pile reaches %d and you "
                                     "collect %d cards"),
                 c, reach, o.collected);
    else
        snprintf(buf, cap,
                 fig_tr_text(nr->tr, "%s in front of %s: that pile reaches %d and %s collects %d "
                                     "cards"),
                 c, fig_narrate_name(nr, to), reach, fig_narrate_name(nr, to), o.collected);
}

void fig_narrate_hint(const fig_narrator_t *nr, const fig_view_t *v, fig_action_t a, char *what,
                      size_t wcap, char *why, size_t ycap)
{
    char c[CARD_MAX];
    why[0] = '\0';
    outcome_t o;
    if (!outcome(v, a, &o)) {
        snprintf(what, wcap, "%s", fig_tr_text(nr->tr, "No hint: the position could not be read."));
        return;
    }
    const fig_view_t *after = &o.after;
    int collector = o.collector, collected = o.collected, me = v->seat;
    if (fig_act_is_take(a)) {
        snprintf(what, wcap, "%s", fig_tr_text(nr->tr, "Hint: take the face-up cards."));
        snprintf(why, ycap,
                 fig_tr_plural(nr->tr, "Taking %d card now costs less than any card you could "
                                       "play.",
                               "Taking %d cards now costs less than any card you could "
                               "play.",
                               (unsigned long)collected),
                 collected);
        return;
    }
    int k = fig_act_kind(a), to = fig_act_target(a);
    card(nr, k, c, sizeof c);
    if (k == FIG_RING) {
        snprintf(what, wcap, "%s", fig_tr_text(nr->tr, "Hint: play a ring."));
        snprintf(why, ycap,
                 fig_tr_text(nr->tr, "The piles move one seat to the left; yours then totals %d."),
                 after->pile[me].total);
    } else {
        if (to == me)
            snprintf(what, wcap, fig_tr_text(nr->tr, "Hint: play %s in front of yourself."),
                     c);
        else
            snprintf(what, wcap, fig_tr_text(nr->tr, "Hint: play %s in front of %s."), c,
                     fig_narrate_name(nr, to));
        if (collector >= 0 && collector != me)
            snprintf(why, ycap,
                     fig_tr_plural(nr->tr, "It makes %s collect %d card.",
                                   "It makes %s collect %d cards.", (unsigned long)collected),
                     fig_narrate_name(nr, collector), collected);
        else if (collector == me)
            snprintf(why, ycap,
                     fig_tr_plural(nr->tr, "You collect %d card, but every other choice looks "
                                           "worse.",
                                   "You collect %d cards, but every other choice looks "
                                   "worse.",
                                   (unsigned long)collected),
                     collected);
        else if (to == me && v->pile[me].cards)
            snprintf(why, ycap, fig_tr_text(nr->tr, "Your pile goes from %d to %d, still "
                                                          "below 6."),
                     v->pile[me].total, after->pile[me].total);
        else if (to == me)
            snprintf(why, ycap, fig_tr_text(nr->tr, "It starts your pile at %d, far "
                                                          "from 6."),
                     after->pile[me].total);
        else if (after->pile[to].total >= 4)
            snprintf(why, ycap, fig_tr_text(nr->tr, "It brings %s's pile to %d, close to 6."),
                     fig_narrate_name(nr, to), after->pile[to].total);
        else if (fig_kind_is_jester(k))
            snprintf(why, ycap, "%s",
                     fig_tr_text(nr->tr, "A jester fits any pile: a safe moment to get rid of "
                                         "it."));
        else if (fig_kind_value(k) >= 2)
            snprintf(why, ycap, "%s",
                     fig_tr_text(nr->tr, "It sheds a high card where it is safe."));
        else
            snprintf(why, ycap, "%s", fig_tr_text(nr->tr, "A safe card: nobody collects."));
    }
    if (after->hand_size[me] == 0 && after->phase == FIG_PHASE_PLAY) {
        size_t len = strlen(why);
        snprintf(why + len, ycap - len, "%s%s", len ? " " : "",
                 fig_tr_text(nr->tr, "It is your last card: the round ends when your turn "
                                     "comes."));
    }
}

fig_err_t fig_narrate_check(const fig_view_t *v, fig_action_t a, const fig_tr_t *tr, fig_msg_t *msg)
{
    fig_action_t legal[FIG_MAX_ACTIONS];
    int n = fig_view_legal(v, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == a)
            return FIG_OK;
    /* The verdict is the view's; the engine words the refusal, on a state
     * sampled from the view (its reasons read only the mover's hand and the
     * table, so any consistent state gives the same words). */
    fig_state_t st;
    fig_rng_t rng;
    fig_rng_seed(&rng, 1);
    fig_view_sample(v, &rng, &st);
    fig_err_t rc = fig_state_check_tr(&st, a, tr, msg);
    return rc != FIG_OK ? rc : fig_fail_tr(msg, tr, FIG_ERR_STATE, N_("it is not your turn"));
}

/* The seat whose pile has colour c, or -1 (R6: there is at most one). */
static int colour_owner(const fig_view_t *v, int c)
{
    for (int s = 0; s < v->players; s++)
        if (v->pile[s].colour == c)
            return s;
    return -1;
}

void fig_narrate_refusal(const fig_narrator_t *nr, const fig_view_t *v, fig_action_t a,
                         char *buf, size_t cap)
{
    fig_msg_t msg;
    if (cap)
        buf[0] = '\0';
    if (fig_narrate_check(v, a, nr->tr, &msg) == FIG_OK)
        return;
    if (v->turn != v->seat || v->phase != FIG_PHASE_PLAY) {
        snprintf(buf, cap, "%s", msg.text);
        return;
    }
    if (fig_act_is_take(a)) {
        snprintf(buf, cap, "%s", fig_tr_text(nr->tr, "There are no face-up cards to take."));
        return;
    }
    int k = fig_act_kind(a), t = fig_act_target(a);
    char c[32];
    if (k >= FIG_KINDS || t >= v->players) {   /* the engine's words: nothing to name */
        snprintf(buf, cap, "%s", msg.text);
        return;
    }
    nr->card(nr->ctx, k, c, sizeof c);
    /* TRANSLATORS: the person, after "in front of" ("R2 cannot go in front of you"). */
    const char *who = t == nr->me ? fig_tr_text(nr->tr, "you") : fig_narrate_name(nr, t);
    if (!v->hand.n[k]) {
        snprintf(buf, cap, fig_tr_text(nr->tr, "You have no %s in your hand."), c);
    } else if (k == FIG_RING) {
        snprintf(buf, cap, "%s",
                 fig_tr_text(nr->tr, "A ring is always played in front of yourself."));
    } else if (fig_kind_is_colour(k) && v->pile[t].colour != FIG_NO_COLOUR &&
               v->pile[t].colour != fig_kind_colour(k)) {
        snprintf(buf, cap, fig_tr_text(nr->tr, "%s cannot go in front of %s: that pile is %s."),
                 c, who, fig_tr_text(nr->tr, fig_colour_name(v->pile[t].colour)));
    } else if (fig_kind_is_colour(k) && colour_owner(v, fig_kind_colour(k)) >= 0) {
        int o = colour_owner(v, fig_kind_colour(k));
        const char *colour = fig_tr_text(nr->tr, fig_colour_name(fig_kind_colour(k)));
        if (o == nr->me)
            /* TRANSLATORS: "R2 cannot go in front of Bartolo: you already have red." */
            snprintf(buf, cap, fig_tr_text(nr->tr, "%s cannot go in front of %s: you already "
                                           "have %s."), c, who, colour);
        else
            /* TRANSLATORS: "R2 cannot go in front of Bartolo: Rosina already has red." */
            snprintf(buf, cap, fig_tr_text(nr->tr, "%s cannot go in front of %s: %s already "
                                           "has %s."), c, who, fig_narrate_name(nr, o), colour);
    } else {
        snprintf(buf, cap, "%s", msg.text);
    }
}
