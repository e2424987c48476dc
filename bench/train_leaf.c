/* SPDX-License-Identifier: MIT */
/* train_leaf.c - fits the search's learned leaf (src/ai/leaf.h) and prints
 * src/ai/leaf_weights.c.
 *
 *   build/train_leaf [GAMES [SEED]] > src/ai/leaf_weights.c   (make leaf-weights)
 *
 * For each player count, 3 to 6: GAMES games (default 30000) of `greedy`
 * against itself, dealt and played from SEED (default 1); a quarter of the
 * positions of play, drawn at random, each with every seat's cards still to
 * collect before its round ends. Four fifths of the positions fit the weights
 * by least squares (a small ridge keeps unused features at 0); the variance of
 * the misses is fitted as a line in the cards in play; the last fifth gives
 * the held-out R^2 printed on stderr and in the file. Everything is double
 * arithmetic in a fixed order from one seeded generator: the same arguments
 * print the same bytes (tests/cli/test_train_leaf.sh checks the committed
 * file). About ten seconds on one core. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "ai/leaf.h"

enum { F = LEAF_FEATURES };

/* Solves A x = b in place (b becomes x) for a symmetric positive definite A
 * of size n, by Cholesky. */
static void solve(double *a, double *b, int n)
{
    for (int j = 0; j < n; j++) {
        double s = a[j * n + j];
        for (int k = 0; k < j; k++)
            s -= a[j * n + k] * a[j * n + k];
        a[j * n + j] = sqrt(s);
        for (int i = j + 1; i < n; i++) {
            double t = a[i * n + j];
            for (int k = 0; k < j; k++)
                t -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = t / a[j * n + j];
        }
    }
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < i; k++)
            b[i] -= a[i * n + k] * b[k];
        b[i] /= a[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        for (int k = i + 1; k < n; k++)
            b[i] -= a[k * n + i] * b[k];
        b[i] /= a[i * n + i];
    }
}

typedef struct {
    fig_state_t st;
    uint8_t still[FIG_MAX_PLAYERS];   /* cards each seat collected after it, in its round */
} sample_t;

/* Plays `games` games of greedy against itself and keeps a quarter of the
 * positions; returns how many. */
static size_t play(int players, int games, fig_rng_t *rng, sample_t *out, size_t cap)
{
    size_t n = 0;
    for (int g = 0; g < games; g++) {
        fig_setup_t setup;
        fig_setup_random(&setup, players, fig_rng_next(rng), NULL);
        fig_state_t st;
        fig_state_init(&st, &setup);
        size_t first = 0;
        int round = 0;
        while (st.phase != FIG_PHASE_OVER) {
            if (st.phase == FIG_PHASE_DEAL) {
                fig_state_deal(&st, rng);
                first = n;
                round = st.round;
                continue;
            }
            if (fig_rng_below(rng, 4) == 0 && n < cap)
                out[n++].st = st;
            fig_state_apply_legal(&st, greedy_choose(&st, rng), NULL);
            if (st.phase != FIG_PHASE_PLAY || st.round != round)   /* stacks stay until the deal */
                for (size_t q = first; q < n; q++)
                    for (int s = 0; s < players; s++)
                        out[q].still[s] = (uint8_t)(st.stack[s] - out[q].st.stack[s]);
        }
    }
    return n;
}

static double predict(const double w[], const fig_state_t *st, int seat)
{
    float f[F] = { 0 };
    int nf = leaf_features(st, seat, f);
    double y = 0;
    for (int j = 0; j < nf; j++)
        y += (double)(float)w[j] * f[j];   /* the weights as printed */
    return y;
}

int main(int argc, char **argv)
{
    char *end;
    long games = argc > 1 ? strtol(argv[1], &end, 10) : 30000;
    if (argc > 3 || (argc > 1 && (*end || games < 100 || games > 10000000))) {
        fprintf(stderr, "usage: train_leaf [GAMES [SEED]]  (GAMES from 100 to 10000000)\n");
        return 2;
    }
    errno = 0;
    unsigned long long seed = argc > 2 ? strtoull(argv[2], &end, 10) : 1;
    if (argc > 2 && (*end || errno)) {
        fprintf(stderr, "train_leaf: SEED must be a whole number, not '%s'\n", argv[2]);
        return 2;
    }
    size_t cap = (size_t)games * 64;
    sample_t *samples = malloc(sizeof *samples * cap);
    if (!samples) {
        fprintf(stderr, "train_leaf: out of memory for %zu positions\n", cap);
        return 1;
    }
    printf("/* SPDX-License-Identifier: MIT */\n"
           "/* leaf_weights.c - the learned leaf's weights (leaf.h), written by\n"
           " * `build/train_leaf %ld %llu` (bench/train_leaf.c; make leaf-weights):\n"
           " * do not edit. */\n"
           "#include \"ai/leaf.h\"\n\nconst leaf_model_t leaf_models[4] = {\n", games, seed);
    for (int players = 3; players <= 6; players++) {
        fig_rng_t rng;
        fig_rng_seed(&rng, seed * 1000 + (uint64_t)players);
        size_t n = play(players, (int)games, &rng, samples, cap), fit = n * 4 / 5;
        static double a[F * F];
        double w[F] = { 0 };
        memset(a, 0, sizeof a);
        int nf = 0;
        for (size_t q = 0; q < fit; q++)
            for (int s = 0; s < players; s++) {
                float f[F] = { 0 };
                nf = leaf_features(&samples[q].st, s, f);
                for (int i = 0; i < F; i++) {
                    w[i] += (double)f[i] * samples[q].still[s];
                    for (int j = 0; j < F; j++)
                        a[i * F + j] += (double)f[i] * f[j];
                }
            }
        for (int i = 0; i < F; i++)
            a[i * F + i] += 1e-3 * (double)fit;
        solve(a, w, F);
        /* The misses, with the weights as printed (floats): their variance as
         * a line in the cards in play, fitted on the same positions; and the
         * held-out R^2. */
        double s0 = 0, s1 = 0, s2 = 0, r0 = 0, r1 = 0, sse = 0, sum = 0, sum2 = 0;
        long held = 0;
        for (size_t q = 0; q < n; q++)
            for (int s = 0; s < players; s++) {
                double y = samples[q].still[s], miss = y - predict(w, &samples[q].st, s);
                double v = leaf_cards_in_play(&samples[q].st);
                if (q < fit) {
                    s0 += 1;
                    s1 += v;
                    s2 += v * v;
                    r0 += miss * miss;
                    r1 += miss * miss * v;
                } else {
                    sse += miss * miss;
                    sum += y;
                    sum2 += y * y;
                    held++;
                }
            }
        double det = s0 * s2 - s1 * s1;
        double var0 = (r0 * s2 - s1 * r1) / det, var1 = (s0 * r1 - s1 * r0) / det;
        double r2 = 1 - sse / (sum2 - sum * sum / (double)held);
        fprintf(stderr, "%d players: %zu positions, %d features, held-out R^2 %.3f, "
                "misses' variance %.3f + %.4f x cards in play\n", players, n, nf, r2, var0, var1);
        printf("    { /* %d players: %zu positions, held-out R^2 %.3f */\n      .w = {", players,
               n, r2);
        for (int i = 0; i < F; i++)
            printf("%s%.6ff,", i % 6 == 0 ? "\n        " : " ", (float)w[i]);
        printf(" },\n      .var0 = %.6ff, .var1 = %.6ff },\n", var0, var1);
    }
    printf("};\n");
    free(samples);
    return 0;
}
