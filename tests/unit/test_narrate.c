/* SPDX-License-Identifier: MIT */
/* test_narrate.c - narration (src/host/narrate.h) in the person's language.
 *
 *   - real seeded games of 3 to 6 players, driven step by step through the
 *     engine (fig_game_deal_seeded, fig_game_play with random legal
 *     actions), are told sentence by sentence exactly as the rules of
 *     narration say: the deal, every play, ring, take and collection, the
 *     last cards, the end of each round with its counts, R11's ties, R12's
 *     exchange or why there was none, every piece, the end of the game;
 *     in English and in French (the published French words checked
 *     literally for the deal and the plays), for the person at a seat ("You
 *     ...") and for nobody (third person only);
 *   - what a refusal, a menu line and a hint say, in English and French;
 *   - one process narrates the same games to Ann (seat 0) in French and to
 *     Bob (seat 1) in Dutch at the same time, in two threads with two
 *     catalogues, many times over, while two more threads speak Italian and
 *     English: each gets exactly the sentences the same narrator gives when
 *     alone, in its own language only.
 *
 * The catalogues are the test build's (build/test/locale), read by host/catalog.h
 * without libintl. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/catalog.h"
#include "host/narrate.h"

/* ------------------------------------------------------------------ transcripts */

enum { SENT = 1024 };

typedef struct {
    int about;
    char text[SENT];
} said_t;

typedef struct {
    said_t *s;
    int n, cap;
} transcript_t;

static void add(transcript_t *t, int about, const char *text)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->s = realloc(t->s, (size_t)t->cap * sizeof *t->s);
        assert_non_null(t->s);
    }
    t->s[t->n].about = about;
    snprintf(t->s[t->n].text, SENT, "%s", text);
    t->n++;
}

static void addf(transcript_t *t, int about, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void addf(transcript_t *t, int about, const char *fmt, ...)
{
    char buf[SENT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    add(t, about, buf);
}

static void say(void *ctx, int about, const char *sentence)
{
    add(ctx, about, sentence);
}

static const char *card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    snprintf(buf, cap, "%s", fig_kind_code(kind));
    return buf;
}

/* ------------------------------------------------------------------ recorded games */

static const char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1] = { "Ann", "Bob", "Cid", "Dee",
                                                                "Eve", "Fay" };

typedef struct {
    fig_match_step_t step;
    fig_view_t before[FIG_MAX_PLAYERS], after[FIG_MAX_PLAYERS];   /* every seat's view */
} rec_step_t;

typedef struct {
    int players;
    int n;
    rec_step_t *steps;
    fig_state_t final;
} rec_game_t;

/* Plays a whole game from seed: deals from the setup's seed, random legal
 * actions from a generator seeded alike; every seat's view before and after
 * each step is kept. */
static rec_game_t record_game(uint64_t seed, int players)
{
    rec_game_t r = { .players = players, .n = 0, .steps = NULL };
    fig_setup_t setup;
    fig_msg_t msg;
    fig_setup_random(&setup, players, seed, NULL);
    if (fig_setup_check(&setup, &msg) != FIG_OK)
        fail_msg("setup: %s", msg.text);
    fig_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    fig_game_init(g, &setup);
    fig_rng_t rng;
    fig_rng_seed(&rng, seed * 7919 + 13);
    int cap = 0;
    while (!fig_game_over(g)) {
        if (r.n == cap) {
            cap = cap ? cap * 2 : 128;
            r.steps = realloc(r.steps, (size_t)cap * sizeof *r.steps);
            assert_non_null(r.steps);
        }
        rec_step_t *s = &r.steps[r.n++];
        memset(s, 0, sizeof *s);
        for (int p = 0; p < players; p++)
            fig_view_of(&g->state, p, &s->before[p]);
        if (g->state.phase == FIG_PHASE_DEAL) {
            fig_game_deal_seeded(g);
            s->step.deal = true;
            s->step.round = g->state.round;
            s->step.seat = g->state.turn;
            s->step.action = FIG_ACT_NONE;
        } else {
            fig_action_t acts[FIG_MAX_ACTIONS];
            int k = fig_state_legal(&g->state, acts);
            assert_true(k > 0);
            fig_action_t a = acts[fig_rng_below(&rng, (uint32_t)k)];
            s->step.round = g->state.round;
            s->step.seat = g->state.turn;
            s->step.action = a;
            if (fig_game_play(g, a, &s->step.events, &msg) != FIG_OK)
                fail_msg("play: %s", msg.text);
        }
        for (int p = 0; p < players; p++)
            fig_view_of(&g->state, p, &s->after[p]);
    }
    r.final = g->state;
    free(g);
    return r;
}

/* The narrator's sentences for a whole game, told to seat `me` (-1: nobody,
 * with seat 0's views, which are as public as anyone's for what is told). */
static void narrate_game(const rec_game_t *g, int me, const fig_tr_t *tr, transcript_t *out)
{
    fig_narrator_t nr;
    fig_narrate_init(&nr, g->players, me, names, tr, card, say, out);
    int v = me >= 0 ? me : 0;
    for (int i = 0; i < g->n; i++)
        fig_narrate_step(&nr, &g->steps[i].step, &g->steps[i].before[v], &g->steps[i].after[v]);
}

/* ------------------------------------------------------------------ what must be said
 *
 * The sentences narration owes the person, written from the events and the
 * person's views, in the language of tr: msgids through the same
 * translator, so that English and French are both checked sentence by
 * sentence. */

typedef struct {
    int ties, exchanges, no_exchanges, collects, takes, rings, last_cards, hands_empty;
    int zero, last, removed, equal_roads;
} seen_t;

static const char *nm(int seat)
{
    return names[seat];
}

static void expect_deal(transcript_t *t, const fig_tr_t *tr, int me, int players, int round,
                        const fig_view_t *v, seen_t *seen)
{
    if (v->turn == me)
        addf(t, FIG_NARRATE_DEAL,
             fig_tr_text(tr, "Round %d: the cards are dealt, %d each. You hold the King and "
             "play first."),
             round, v->hand_size[0]);
    else
        addf(t, FIG_NARRATE_DEAL,
             fig_tr_text(tr, "Round %d: the cards are dealt, %d each. %s holds the King and "
             "plays first."),
             round, v->hand_size[0], nm(v->turn));
    char g[64] = "";
    for (int i = 0; i < players - 1; i++)
        snprintf(g + strlen(g), sizeof g - strlen(g), "%s%u", i ? ", " : "",
                 (unsigned)v->group[round - 1][i]);
    addf(t, FIG_NARRATE_DEAL, fig_tr_text(tr, "The road pieces of this round, longest first: %s."),
         g);
    if (round == 1 && players == 3) {
        addf(t, FIG_NARRATE_DEAL, fig_tr_text(tr, "With three players the %s cards are left out."),
             fig_tr_text(tr, fig_colour_name(v->removed)));
        seen->removed++;
    }
}

static void expect_play(transcript_t *t, const fig_tr_t *tr, int me, const fig_event_t *e)
{
    const char *c = fig_kind_code(e->kind);
    int s = e->seat, to = e->target;
    if (s == me && to == me)
        addf(t, e->type, fig_tr_text(tr, "You play %s in front of yourself."), c);
    else if (s == me)
        addf(t, e->type, fig_tr_text(tr, "You play %s in front of %s."), c, nm(to));
    else if (to == s)
        addf(t, e->type, fig_tr_text(tr, "%s plays %s in front of themselves."), nm(s), c);
    else if (to == me)
        addf(t, e->type, fig_tr_text(tr, "%s plays %s in front of you."), nm(s), c);
    else
        addf(t, e->type, fig_tr_text(tr, "%s plays %s in front of %s."), nm(s), c, nm(to));
}

static void expect_pieces(transcript_t *t, const fig_tr_t *tr, int me, const fig_events_t *ev,
                          int from, seen_t *seen)
{
    /* R11's ties: consecutive ranks with equal positive counts */
    int order[FIG_MAX_PLAYERS], counts[FIG_MAX_PLAYERS], k = 0;
    for (int i = from; i < ev->n; i++)
        if (ev->ev[i].type == FIG_EV_PIECE || ev->ev[i].type == FIG_EV_NO_PIECE) {
            order[ev->ev[i].rank] = ev->ev[i].seat;
            counts[ev->ev[i].rank] = ev->ev[i].count;
            k++;
        }
    for (int i = 0; i < k;) {
        int j = i + 1;
        while (j < k && counts[j] == counts[i])
            j++;
        if (j - i > 1 && counts[i] > 0) {
            char who[256] = "";
            for (int x = i; x < j; x++)
                snprintf(who + strlen(who), sizeof who - strlen(who), "%s%s", x > i ? ", " : "",
                         nm(order[x]));
            addf(t, ev->ev[from].type,
                 fig_tr_plural(tr, "Tie at %d card between %s: ties are broken clockwise from "
                                   "the new King's left, the King last, so they rank in that "
                                   "order.",
                               "Tie at %d cards between %s: ties are broken clockwise from the "
                               "new King's left, the King last, so they rank in that order.",
                               (unsigned long)counts[i]),
                 counts[i], who);
            seen->ties++;
        }
        i = j;
    }
    for (int i = from; i < ev->n; i++) {
        const fig_event_t *e = &ev->ev[i];
        unsigned long n = e->count;
        /* The most cards is said as such, never as "rank 1" */
        if (e->type == FIG_EV_PIECE && e->seat == me && e->rank == 0)
            addf(t, e->type,
                 fig_tr_plural(tr, "You collected the most cards, %d, and receive the longest "
                                   "road piece, %d.",
                               "You collected the most cards, %d, and receive the longest "
                               "road piece, %d.", n),
                 e->count, e->a);
        else if (e->type == FIG_EV_PIECE && e->seat == me)
            addf(t, e->type,
                 fig_tr_plural(tr, "You collected %d card and receive a road piece of length "
                                   "%d.",
                               "You collected %d cards and receive a road piece of length "
                               "%d.", n),
                 e->count, e->a);
        else if (e->type == FIG_EV_PIECE && e->rank == 0)
            addf(t, e->type,
                 fig_tr_plural(tr, "%s collected the most cards, %d, and receives the longest "
                                   "road piece, %d.",
                               "%s collected the most cards, %d, and receives the longest "
                               "road piece, %d.", n),
                 nm(e->seat), e->count, e->a);
        else if (e->type == FIG_EV_PIECE)
            addf(t, e->type,
                 fig_tr_plural(tr, "%s collected %d card and receives a road piece of "
                                   "length %d.",
                               "%s collected %d cards and receives a road piece of length "
                               "%d.", n),
                 nm(e->seat), e->count, e->a);
        else if (e->type == FIG_EV_NO_PIECE && e->reason == FIG_WHY_ZERO) {
            seen->zero++;
            if (e->seat == me)
                add(t, e->type, fig_tr_text(tr, "You collected no cards and get no road piece."));
            else
                addf(t, e->type, fig_tr_text(tr, "%s collected no cards and gets no road piece."),
                     nm(e->seat));
        } else if (e->type == FIG_EV_NO_PIECE) {
            seen->last++;
            if (e->seat == me)
                addf(t, e->type,
                     fig_tr_plural(tr, "You rank last with %d card and get no road piece.",
                                   "You rank last with %d cards and get no road piece.", n),
                     e->count);
            else
                addf(t, e->type,
                     fig_tr_plural(tr, "%s ranks last with %d card and gets no road piece.",
                                   "%s ranks last with %d cards and gets no road piece.", n),
                     nm(e->seat), e->count);
        }
    }
}

static void expect_game_over(transcript_t *t, const fig_tr_t *tr, int me, int players,
                             const fig_event_t *e, const fig_view_t *after, seen_t *seen)
{
    int w = e->counts[0];
    if (w == me)
        addf(t, e->type, fig_tr_text(tr, "The game is over: you win with the shortest road, %u!"),
             (unsigned)e->totals[w]);
    else
        addf(t, e->type, fig_tr_text(tr, "The game is over: %s wins with the shortest road, %u."),
             nm(w), (unsigned)e->totals[w]);
    bool tie = false;
    for (int i = 0; i < players; i++) {
        int s = e->counts[i];
        char pieces[64] = "";
        for (int p = 0; p < after->nroad[s]; p++)
            snprintf(pieces + strlen(pieces), sizeof pieces - strlen(pieces), "%s%u",
                     p ? " + " : "", (unsigned)after->road[s][p]);
        if (!after->nroad[s])
            addf(t, e->type, fig_tr_text(tr, "%d. %s: no road pieces, road 0."), i + 1, nm(s));
        else
            addf(t, e->type, fig_tr_text(tr, "%d. %s: road %u (%s)."), i + 1, nm(s),
                 (unsigned)e->totals[s], pieces);
        tie = tie || (i > 0 && e->totals[s] == e->totals[e->counts[i - 1]]);
    }
    if (tie) {
        seen->equal_roads++;
        addf(t, e->type,
             fig_tr_text(tr, "Equal roads are ranked from the King (%s) clockwise (R13)."),
             nm(after->king));
    }
}

/* Everything a step must be told as, appended to t. The no-exchange
 * sentence's reasons (R12) are checked for their start only: which seat has
 * the fewest cards is the rules engine's to decide. */
static void expect_step(transcript_t *t, const fig_tr_t *tr, int me, int players,
                        const rec_step_t *r, seen_t *seen)
{
    int v = me >= 0 ? me : 0;
    const fig_view_t *before = &r->before[v], *after = &r->after[v];
    if (r->step.deal) {
        expect_deal(t, tr, me, players, r->step.round, after, seen);
        return;
    }
    const fig_events_t *ev = &r->step.events;
    bool pieces_told = false, exchanged = false;
    for (int i = 0; i < ev->n; i++) {
        const fig_event_t *e = &ev->ev[i];
        int s = e->seat;
        switch (e->type) {
        case FIG_EV_PLAY:
            if (e->kind != FIG_RING) {
                expect_play(t, tr, me, e);
            } else {
                seen->rings++;
                if (s == me)
                    add(t, FIG_EV_RING, fig_tr_text(tr, "You play a ring: every pile moves one "
                                                        "seat to the left."));
                else
                    addf(t, FIG_EV_RING, fig_tr_text(tr, "%s plays a ring: every pile moves one "
                                                         "seat to the left."),
                         nm(s));
            }
            break;
        case FIG_EV_TAKE:
            seen->takes++;
            if (s == me)
                addf(t, e->type,
                     fig_tr_plural(tr, "You take the %d face-up card and play again.",
                                   "You take all %d face-up cards and play again.",
                                   (unsigned long)e->count),
                     e->count);
            else
                addf(t, e->type,
                     fig_tr_plural(tr, "%s takes the %d face-up card and plays again.",
                                   "%s takes all %d face-up cards and plays again.",
                                   (unsigned long)e->count),
                     nm(s), e->count);
            break;
        case FIG_EV_COLLECT: {
            if (e->reason == FIG_WHY_TAKE)
                break;
            seen->collects++;
            int total = before->pile[s].total + fig_kind_value(fig_act_kind(r->step.action));
            assert_true(total >= 6);   /* R8 */
            if (s == me)
                addf(t, e->type,
                     fig_tr_plural(tr, "Your pile reaches %d: you collect the %d face-up card "
                                       "and play next.",
                                   "Your pile reaches %d: you collect all %d face-up cards and "
                                   "play next.",
                                   (unsigned long)e->count),
                     total, e->count);
            else
                addf(t, e->type,
                     fig_tr_plural(tr, "%1$s's pile reaches %2$d: %1$s collects the %3$d "
                                       "face-up card and plays next.",
                                   "%1$s's pile reaches %2$d: %1$s collects all %3$d face-up "
                                   "cards and plays next.",
                                   (unsigned long)e->count),
                     nm(s), total, e->count);
            break;
        }
        case FIG_EV_LAST_CARD:
            seen->last_cards++;
            if (s == me)
                add(t, e->type, fig_tr_text(tr, "You have one card left!"));
            else
                addf(t, e->type, fig_tr_text(tr, "%s has one card left!"), nm(s));
            break;
        case FIG_EV_HAND_EMPTY:
            seen->hands_empty++;
            if (s == me)
                add(t, e->type, fig_tr_text(tr, "You have played your last card: the round "
                                                "ends when your turn comes."));
            else
                addf(t, e->type, fig_tr_text(tr, "%s has played their last card: the round "
                                                 "ends when their turn comes."),
                     nm(s));
            break;
        case FIG_EV_ROUND_END: {
            if (s == me)
                addf(t, e->type, fig_tr_text(tr, "Round %d is over: you start a turn with no "
                                                 "cards left and take the King."),
                     e->round);
            else
                addf(t, e->type, fig_tr_text(tr, "Round %d is over: %s starts a turn with no "
                                                 "cards left and takes the King."),
                     e->round, nm(s));
            char counts[256] = "";
            for (int p = 0; p < players; p++)
                snprintf(counts + strlen(counts), sizeof counts - strlen(counts), "%s%s %d",
                         p ? ", " : "", nm(p), e->counts[p]);
            addf(t, e->type, fig_tr_text(tr, "Cards collected this round: %s."), counts);
            break;
        }
        case FIG_EV_EXCHANGE:
            exchanged = true;
            seen->exchanges++;
            if (s == me)
                addf(t, e->type, fig_tr_text(tr, "The round-3 exchange: you have the fewest "
                                                 "cards, so you give your longest piece, %u, "
                                                 "for this round's shortest, %u."),
                     (unsigned)e->a, (unsigned)e->b);
            else
                addf(t, e->type, fig_tr_text(tr, "The round-3 exchange: %s has the fewest "
                                                 "cards, so they give their longest piece, %u, "
                                                 "for this round's shortest, %u."),
                     nm(s), (unsigned)e->a, (unsigned)e->b);
            break;
        case FIG_EV_PIECE:
        case FIG_EV_NO_PIECE:
            if (pieces_told)
                break;
            pieces_told = true;
            if (e->round == FIG_ROUNDS && !exchanged) {
                seen->no_exchanges++;
                add(t, FIG_EV_EXCHANGE, "No round-3 exchange: *");   /* see compare() */
            }
            expect_pieces(t, tr, me, ev, i, seen);
            break;
        case FIG_EV_GAME_OVER:
            expect_game_over(t, tr, me, players, e, after, seen);
            break;
        default:
            break;
        }
    }
}

/* The start of the no-exchange sentences, in the language of tr. */
static bool is_no_exchange(const fig_tr_t *tr, const char *s)
{
    const char *forms[] = {
        fig_tr_text(tr, "No round-3 exchange: you have the fewest cards but no road piece to "
                        "give."),
        fig_tr_text(tr, "No round-3 exchange: %s has the fewest cards but no road piece to "
                        "give."),
        fig_tr_text(tr, "No round-3 exchange: you have the fewest cards, but your longest "
                        "piece, %u, is not longer than this round's shortest, %u."),
        fig_tr_text(tr, "No round-3 exchange: %s has the fewest cards, but their longest "
                        "piece, %u, is not longer than this round's shortest, %u."),
    };
    for (int i = 0; i < 4; i++) {
        size_t k = strcspn(forms[i], "%");   /* the words before the first argument */
        if (k > 10 && strncmp(s, forms[i], k) == 0)
            return true;
    }
    return false;
}

/* Fails with the first difference between what was said and what must be. */
static void compare(const fig_tr_t *tr, const transcript_t *got, const transcript_t *want,
                    const char *what)
{
    int n = got->n < want->n ? got->n : want->n;
    for (int i = 0; i < n; i++) {
        const said_t *g = &got->s[i], *w = &want->s[i];
        bool same = g->about == w->about &&
                    (strcmp(w->text, "No round-3 exchange: *") == 0 ? is_no_exchange(tr, g->text)
                                                                   : !strcmp(g->text, w->text));
        if (!same)
            fail_msg("%s, sentence %d: said (%d) '%s', expected (%d) '%s'", what, i, g->about,
                     g->text, w->about, w->text);
    }
    if (got->n != want->n)
        fail_msg("%s: %d sentences said, %d expected", what, got->n, want->n);
}

static void clear(transcript_t *t)
{
    free(t->s);
    memset(t, 0, sizeof *t);
}

static fig_catalog_t *open_lang(const char *lang)
{
    static char dir[4096];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 16);
    assert_true(n > 0);
    dir[n] = '\0';
    strcpy(strrchr(dir, '/'), "/locale");
    fig_catalog_t *c = NULL;
    fig_msg_t msg;
    if (fig_catalog_open(&c, dir, lang, &msg) != FIG_OK)
        fail_msg("%s: %s", lang, msg.text);
    return c;
}

/* ------------------------------------------------------------------ games told */

/* Many games, each told to a seat or to nobody, checked sentence by sentence;
 * every kind of sentence must have come up. */
static void games_in(const fig_tr_t *tr, const char *lang)
{
    seen_t seen = { 0 };
    int told_you = 0, third = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        int players = 3 + (int)(seed % 4);
        int me = (int)(seed % (uint64_t)(players + 1)) - 1;   /* -1: nobody */
        rec_game_t g = record_game(seed, players);
        transcript_t got = { 0 }, want = { 0 };
        narrate_game(&g, me, tr, &got);
        for (int i = 0; i < g.n; i++)
            expect_step(&want, tr, me, players, &g.steps[i], &seen);
        char what[64];
        snprintf(what, sizeof what, "%s, seed %llu, %d players, me %d", lang,
                 (unsigned long long)seed, players, me);
        compare(tr, &got, &want, what);
        if (me >= 0)
            told_you++;
        else
            third++;
        clear(&got);
        clear(&want);
        free(g.steps);
    }
    assert_true(told_you > 0 && third > 0);
    /* every kind of sentence came up, so none was checked vacuously */
    assert_true(seen.ties > 0);
    assert_true(seen.exchanges > 0);
    assert_true(seen.no_exchanges > 0);
    assert_true(seen.collects > 0);
    assert_true(seen.takes > 0);
    assert_true(seen.rings > 0);
    assert_true(seen.last_cards > 0);
    assert_true(seen.hands_empty > 0);
    assert_true(seen.zero > 0);
    assert_true(seen.last > 0);
    assert_true(seen.removed > 0);
}

static void test_games_in_english(void **state)
{
    (void)state;
    games_in(NULL, "en");
    fig_catalog_t *en = open_lang("en");   /* the "en" catalogue is English too */
    games_in(fig_catalog_tr(en), "en catalogue");
    fig_catalog_free(en);
}

static void test_games_in_french(void **state)
{
    (void)state;
    fig_catalog_t *fr = open_lang("fr");
    games_in(fig_catalog_tr(fr), "fr");
    fig_catalog_free(fr);
}

/* The published French words, literally, for a game's first sentences; and
 * no sentence of the French game left in English. */
static void test_french_words(void **state)
{
    (void)state;
    fig_catalog_t *fr = open_lang("fr");
    rec_game_t g = record_game(5, 4);
    int king = g.steps[0].after[0].turn;
    transcript_t en = { 0 }, got = { 0 };
    narrate_game(&g, king, fig_catalog_tr(fr), &got);
    narrate_game(&g, king, NULL, &en);
    assert_int_equal(got.n, en.n);
    assert_string_equal(got.s[0].text, "Manche 1\xc2\xa0: les cartes sont distribu\xc3\xa9"
                                       "es, 15 chacun. Vous avez le Roi et jouez le premier.");
    assert_string_equal(en.s[0].text, "Round 1: the cards are dealt, 15 each. You hold the King "
                                      "and play first.");
    /* the first play: the King's own, "Vous jouez R2 devant Bob." */
    const fig_event_t *e = &g.steps[1].step.events.ev[0];
    assert_int_equal(e->type, FIG_EV_PLAY);
    char want[200];
    if (e->kind == FIG_RING)
        snprintf(want, sizeof want, "Vous jouez une ronde\xc2\xa0: chaque pile passe au voisin "
                                    "de gauche.");
    else if (e->target == king)
        snprintf(want, sizeof want, "Vous jouez %s devant vous.", fig_kind_code(e->kind));
    else
        snprintf(want, sizeof want, "Vous jouez %s devant %s.", fig_kind_code(e->kind),
                 names[e->target]);
    assert_string_equal(got.s[2].text, want);
    int same = 0;
    for (int i = 0; i < got.n; i++) {
        assert_int_equal(got.s[i].about, en.s[i].about);
        same += strcmp(got.s[i].text, en.s[i].text) == 0;
    }
    assert_int_equal(same, 0);
    clear(&en);
    clear(&got);
    free(g.steps);

    /* three players: the colour left out, in French */
    g = record_game(3, 3);
    narrate_game(&g, 0, fig_catalog_tr(fr), &got);
    int removed = g.steps[0].after[0].removed;
    const char *colour = fig_tr_text(fig_catalog_tr(fr), fig_colour_name(removed));
    snprintf(want, sizeof want, "\xc3\x80 trois joueurs, les cartes de couleur %s sont retir"
                                "\xc3\xa9" "es.", colour);
    assert_string_equal(got.s[2].text, want);
    assert_string_not_equal(colour, fig_colour_name(removed));
    clear(&got);
    free(g.steps);
    fig_catalog_free(fr);
}

/* The person's sentences are "You ...", never their name; told to nobody,
 * nobody is "you". */
static void test_you_and_third_person(void **state)
{
    (void)state;
    rec_game_t g = record_game(11, 4);
    transcript_t bob = { 0 }, nobody = { 0 };
    narrate_game(&g, 1, NULL, &bob);
    narrate_game(&g, -1, NULL, &nobody);
    assert_int_equal(bob.n, nobody.n);
    int yous = 0, bob_plays = 0;
    for (int i = 0; i < nobody.n; i++) {
        const char *s = nobody.s[i].text;
        assert_int_equal(bob.s[i].about, nobody.s[i].about);
        if (!strncmp(s, "You", 3) || strstr(s, " you") || strstr(s, "yourself"))
            fail_msg("told to nobody: '%s'", s);
        const char *b = bob.s[i].text;
        if (!strncmp(b, "Bob plays", 9) || !strncmp(b, "Bob takes", 9) ||
            !strncmp(b, "Bob's pile", 10) || !strncmp(b, "Bob has", 7) ||
            !strncmp(b, "Bob ranks", 9) || strstr(b, "in front of Bob"))
            fail_msg("told to Bob: '%s'", b);
        if (!strncmp(s, "Bob plays", 9)) {
            bob_plays++;
            assert_true(!strncmp(b, "You play", 8));
        }
        yous += !strncmp(b, "You", 3) || !strncmp(b, "Your", 4);
    }
    assert_true(bob_plays > 5);
    assert_true(yous >= bob_plays);
    clear(&bob);
    clear(&nobody);
    free(g.steps);
}

/* A refusal, a menu line and a hint, in English and French. */
static void test_refusal_move_and_hint(void **state)
{
    (void)state;
    fig_catalog_t *fr = open_lang("fr");
    const fig_tr_t *tr = fig_catalog_tr(fr);
    rec_game_t g = record_game(5, 4);
    /* the first step where Ann (seat 0) is to play with cards on the table */
    int at = -1;
    for (int i = 0; i < g.n && at < 0; i++) {
        const fig_view_t *v = &g.steps[i].after[0];
        if (v->phase == FIG_PHASE_PLAY && v->turn == 0 && v->table_cards > 0)
            at = i;
    }
    assert_true(at >= 0);
    const fig_view_t *v = &g.steps[at].after[0];
    int kind = -1;
    for (int k = 0; k < FIG_KINDS && kind < 0; k++)
        if (v->hand.n[k] && k != FIG_RING)
            kind = k;
    assert_true(kind >= 0);
    fig_msg_t msg;
    fig_action_t bad = fig_act_play(kind, 5);   /* seat 5 of 4 */
    assert_int_equal(fig_narrate_check(v, bad, NULL, &msg), FIG_ERR_INPUT);
    char want[200];
    snprintf(want, sizeof want, "seat 0 cannot play %s in front of seat 5: the seats are 0 to 3",
             fig_kind_code(kind));
    assert_string_equal(msg.text, want);
    assert_int_equal(fig_narrate_check(v, bad, tr, &msg), FIG_ERR_INPUT);
    snprintf(want, sizeof want, "la place 0 ne peut pas jouer %s devant la place 5\xc2\xa0: les "
                                "places vont de 0 \xc3\xa0 3", fig_kind_code(kind));
    assert_string_equal(msg.text, want);
    assert_int_equal(fig_narrate_check(v, FIG_ACT_TAKE, tr, &msg), FIG_OK);

    fig_narrator_t nr_en, nr_fr;
    fig_narrate_init(&nr_en, 4, 0, names, NULL, card, say, NULL);
    fig_narrate_init(&nr_fr, 4, 0, names, tr, card, say, NULL);
    char line_en[300], line_fr[300];
    fig_narrate_move(&nr_en, v, FIG_ACT_TAKE, line_en, sizeof line_en);
    fig_narrate_move(&nr_fr, v, FIG_ACT_TAKE, line_fr, sizeof line_fr);
    int cards = v->table_cards;
    snprintf(want, sizeof want, cards == 1 ? "take the %d face-up card"
                                           : "take the %d face-up cards", cards);
    assert_string_equal(line_en, want);
    snprintf(want, sizeof want, fig_tr_plural(tr, "take the %d face-up card",
                                              "take the %d face-up cards", (unsigned long)cards),
             cards);
    assert_string_equal(line_fr, want);
    assert_string_not_equal(line_fr, line_en);
    assert_non_null(strstr(line_fr, "ramasser"));
    char why_en[300], why_fr[300];
    fig_narrate_hint(&nr_en, v, FIG_ACT_TAKE, line_en, sizeof line_en, why_en, sizeof why_en);
    fig_narrate_hint(&nr_fr, v, FIG_ACT_TAKE, line_fr, sizeof line_fr, why_fr, sizeof why_fr);
    assert_string_equal(line_en, "Hint: take the face-up cards.");
    assert_true(!strncmp(why_en, "Taking ", 7));
    assert_string_equal(line_fr, fig_tr_text(tr, "Hint: take the face-up cards."));
    assert_string_not_equal(line_fr, line_en);
    assert_string_not_equal(why_fr, why_en);
    free(g.steps);
    fig_catalog_free(fr);
}

/* ------------------------------------------------------------------ two languages at once */

enum { GAMES = 3, ROUNDS = 25 };

typedef struct {
    const char *lang;           /* its own catalogue, opened in the thread */
    int me;                     /* the seat it narrates to */
    const rec_game_t *games;
    const transcript_t *ref;    /* what the same narrator says alone, per game */
    pthread_barrier_t *start;
    int mismatches, told;
    char first[300];
} teller_t;

static void *teller(void *arg)
{
    teller_t *t = arg;
    char dir[4096];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 16);
    if (n <= 0)
        return NULL;
    dir[n] = '\0';
    strcpy(strrchr(dir, '/'), "/locale");
    fig_catalog_t *cat = NULL;
    fig_msg_t msg;
    if (fig_catalog_open(&cat, dir, t->lang, &msg) != FIG_OK) {
        snprintf(t->first, sizeof t->first, "%s", msg.text);
        t->mismatches++;
        pthread_barrier_wait(t->start);
        return NULL;
    }
    pthread_barrier_wait(t->start);   /* all four speak at once */
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < GAMES; k++) {
            transcript_t got = { 0 };
            narrate_game(&t->games[k], t->me, fig_catalog_tr(cat), &got);
            const transcript_t *ref = &t->ref[k];
            for (int i = 0; i < got.n || i < ref->n; i++) {
                if (i < got.n && i < ref->n && got.s[i].about == ref->s[i].about &&
                    strcmp(got.s[i].text, ref->s[i].text) == 0)
                    continue;
                if (!t->mismatches)
                    snprintf(t->first, sizeof t->first, "%s game %d sentence %d: '%.200s'",
                             t->lang, k, i, i < got.n ? got.s[i].text : "(none)");
                t->mismatches++;
            }
            t->told += got.n;
            free(got.s);
        }
    fig_catalog_free(cat);
    return NULL;
}

static void test_ann_in_french_bob_in_dutch_at_once(void **state)
{
    (void)state;
    enum { TELLERS = 4 };
    const char *langs[TELLERS] = { "fr", "nl", "it", "en" };
    const int seats[TELLERS] = { 0, 1, 2, 3 };
    rec_game_t games[GAMES];
    for (int k = 0; k < GAMES; k++)
        games[k] = record_game(100 + (uint64_t)k, 4 + k % 2);

    /* references: each narrator alone, one language at a time */
    transcript_t ref[TELLERS][GAMES];
    memset(ref, 0, sizeof ref);
    for (int t = 0; t < TELLERS; t++) {
        fig_catalog_t *c = open_lang(langs[t]);
        for (int k = 0; k < GAMES; k++)
            narrate_game(&games[k], seats[t], fig_catalog_tr(c), &ref[t][k]);
        fig_catalog_free(c);
    }
    /* Ann's French and Bob's Dutch are French and Dutch */
    assert_true(!strncmp(ref[0][0].s[0].text, "Manche 1", 8));
    assert_true(!strncmp(ref[1][0].s[0].text, "Ronde 1", 7));
    assert_true(!strncmp(ref[3][0].s[0].text, "Round 1", 7));
    for (int k = 0; k < GAMES; k++)
        for (int i = 0; i < ref[0][k].n && i < ref[1][k].n; i++)
            assert_string_not_equal(ref[0][k].s[i].text, ref[1][k].s[i].text);

    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, TELLERS), 0);
    teller_t tell[TELLERS];
    pthread_t th[TELLERS];
    for (int t = 0; t < TELLERS; t++) {
        tell[t] = (teller_t){ langs[t], seats[t], games, ref[t], &start, 0, 0, "" };
        assert_int_equal(pthread_create(&th[t], NULL, teller, &tell[t]), 0);
    }
    for (int t = 0; t < TELLERS; t++)
        assert_int_equal(pthread_join(th[t], NULL), 0);
    pthread_barrier_destroy(&start);
    for (int t = 0; t < TELLERS; t++) {
        if (tell[t].mismatches)
            fail_msg("%s: %d sentences differ; first: %s", langs[t], tell[t].mismatches,
                     tell[t].first);
        int per_round = 0;
        for (int k = 0; k < GAMES; k++)
            per_round += ref[t][k].n;
        assert_int_equal(tell[t].told, per_round * ROUNDS);
    }
    for (int t = 0; t < TELLERS; t++)
        for (int k = 0; k < GAMES; k++)
            clear(&ref[t][k]);
    for (int k = 0; k < GAMES; k++)
        free(games[k].steps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_games_in_english),
        cmocka_unit_test(test_games_in_french),
        cmocka_unit_test(test_french_words),
        cmocka_unit_test(test_you_and_third_person),
        cmocka_unit_test(test_refusal_move_and_hint),
        cmocka_unit_test(test_ann_in_french_bob_in_dutch_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
