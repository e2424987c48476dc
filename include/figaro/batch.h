/* SPDX-License-Identifier: MIT */
/* batch.h - many games stepped at once, for reinforcement learning.
 *
 * A batch is an array of fig_env_t the caller allocates (n * sizeof, or
 * fig_env_size() from other languages): the core never allocates. Every call
 * walks the whole array in C, so a binding pays its call overhead once per
 * batch rather than once per game (docs/python.md).
 *
 * One game per slot. The learner either holds one seat (opts.seat) while the
 * other seats play uniformly random legal actions in C, or plays every seat
 * (opts.seat = -1, self-play). After reset and after each step, each slot is
 * at a decision of the learner: its observation (obs.h) and legal-action mask
 * are those of the seat to move (`turn`), which is all that seat may know
 * (R14). Rounds are dealt inside the batch.
 *
 * A game from seed S is the one fig_setup_random(players, S) and
 * fig_game_deal_seeded give: the same setup and deals as `figaro random-game
 * --seed S`, and the random opponents draw from stream 4 of S, as that command
 * does for every seat. */
#ifndef FIGARO_BATCH_H
#define FIGARO_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "figaro/obs.h"
#include "figaro/state.h"

/* One game of a batch: a flat value, copy it with `=`. */
typedef struct {
    fig_state_t st;
    fig_rng_t opp;          /* the random opponents' choices */
    uint64_t seed;          /* the current game's seed (setup, deals, opponents) */
    uint64_t base;          /* the seed the slot was reset with */
    uint32_t games;         /* games finished in this slot */
    uint32_t actions;       /* actions played in the current game, by anyone */
    uint8_t done;           /* over and waiting for a reset (no autoreset) */
} fig_env_t;

typedef struct {
    int players;            /* 3 to 6 */
    int seat;               /* the learner's seat, or -1 for every seat (self-play) */
    int autoreset;          /* nonzero: a game that ends restarts at once, see fig_batch_step */
} fig_batch_opts_t;

/* Where a call writes its results, each an array with one row per game; a
 * NULL pointer skips that output. */
typedef struct {
    float *obs;             /* n x FIG_OBS_SIZE: observation of the seat to move */
    uint8_t *mask;          /* n x FIG_OBS_ACTIONS: its legal actions */
    int8_t *turn;           /* n: the seat to move, -1 when the game is over */
    float *reward;          /* n x players: each seat's reward for this step */
    uint8_t *done;          /* n: 1 if the game ended in this step */
    float *final_obs;       /* n x FIG_OBS_SIZE: where done, the finished game seen by the
                               learner's seat (self-play: by the seat that moved last), kept
                               although autoreset has started the next; zero elsewhere */
} fig_batch_out_t;

/* Opponents other than the uniformly random default: the batch calls these
 * for game i (0 to n-1) as it plays, e.g. the ai layer's bots
 * (figaro/bot_batch.h). `start` comes first, with the setup; `dealt` after
 * each deal with every hand (the implementation gives each seat only its
 * own, R14); `moved` after every action, anyone's, in order; `choose` asks
 * for the action of the opponent to move (an action that is not legal is
 * replaced by a uniformly random legal one). */
typedef struct {
    void *ctx;
    void (*start)(void *ctx, int i, const fig_setup_t *setup, uint64_t seed);
    void (*dealt)(void *ctx, int i, const fig_hand_t hands[]);
    void (*moved)(void *ctx, int i, fig_action_t a);
    fig_action_t (*choose)(void *ctx, int i, int seat);
} fig_batch_opp_t;

/* sizeof(fig_env_t), for bindings that allocate the array themselves. */
size_t fig_env_size(void);

/* Checks options: FIG_ERR_INPUT with a message if out of range. */
fig_err_t fig_batch_check(const fig_batch_opts_t *opts, fig_msg_t *msg);

/* Starts game i of the batch from seeds[i] and plays the opponents up to the
 * learner's first decision. Rewards and done are written as 0. */
fig_err_t fig_batch_reset(fig_env_t envs[], int n, const fig_batch_opts_t *opts,
                          const uint64_t seeds[], const fig_batch_out_t *out, fig_msg_t *msg);

/* Plays actions[i] (an action index, obs.h) for the seat to move in game i,
 * then the opponents, up to the learner's next decision or the end.
 *
 * All actions are checked before any is played: if one is illegal, nothing
 * changes and the error says which game and why, in the engine's words. The
 * action of a game already over (done, no autoreset) is ignored.
 *
 * When a game ends, done[i] = 1 and reward[i][s] is seat s's result: 1 for the
 * winner down to -1 for the last (linear in the final rank, R13); rewards are
 * 0 on every other step. With autoreset the slot then starts the game of seed
 * fig_seed_derive(base, 0, games) at once (base: the
 * slot's reset seed, games: the games it finished, this one included) and obs/mask/turn describe that new
 * game; without it the slot stays over (turn -1, obs and mask zero) until
 * fig_batch_reset. */
fig_err_t fig_batch_step(fig_env_t envs[], int n, const fig_batch_opts_t *opts,
                         const int32_t actions[], const fig_batch_out_t *out, fig_msg_t *msg);

/* fig_batch_reset and fig_batch_step with other opponents (NULL: the
 * uniformly random ones). A batch is stepped with the opponents it was reset
 * with. */
fig_err_t fig_batch_reset_with(fig_env_t envs[], int n, const fig_batch_opts_t *opts,
                               const uint64_t seeds[], const fig_batch_opp_t *opp,
                               const fig_batch_out_t *out, fig_msg_t *msg);
fig_err_t fig_batch_step_with(fig_env_t envs[], int n, const fig_batch_opts_t *opts,
                              const int32_t actions[], const fig_batch_opp_t *opp,
                              const fig_batch_out_t *out, fig_msg_t *msg);

/* Each seat's reward for a finished state (the values fig_batch_step
 * reports): 1 - 2 * rank / (players - 1), rank 0 being the winner (R13). */
void fig_batch_rewards(const fig_state_t *st, float *reward);

#endif
