# SPDX-License-Identifier: MIT
"""BatchEnv: N games stepped at once in C (include/figaro/batch.h,
include/figaro/bot_batch.h).

One call of reset() or step() plays every game of the batch inside the
library and fills arrays the environment owns, so Python's cost is paid once
per batch, not once per game or per action. With numpy the arrays are numpy
arrays over that memory (no copy); without it, lists of one memoryview per
game (row) over the same memory.

The arrays returned are overwritten by the next reset() or step(): copy them
(obs.copy()) to keep them.
"""

import ctypes

from . import _check, _lib
from ._lib import core
from .game import FigaroError, State, _raise

try:
    import numpy as _np
except ImportError:
    _np = None


class BatchEnv:
    """BatchEnv(n, players=4, seat=0, autoreset=True, opponents="random")

    seat: the learner's seat, 0 to players-1; the other seats are played in
    C by `opponents`: "random" (uniformly random legal actions, the default)
    or any bot spec of figaro.Bot ("greedy", "ismcts:iters=200", "normal"...;
    docs/bots.md). seat=None: self-play, the learner plays every seat, `turn`
    says whose decision each row is, and the rewards are every seat's.

    reset(seeds) -> (obs, mask)
    step(actions) -> (obs, rewards, done, mask)

    obs: (n, OBS_SIZE) float32, the observation of the seat to move (its view
    only, R14); mask: (n, NUM_ACTIONS) bool, its legal actions; actions: one
    action index per game (integers); rewards: (n,) for the learner's seat,
    or (n, players) in self-play, nonzero only on the step a game ends (+1
    for the winner down to -1 for the last); done: (n,) bool. With autoreset
    a game that ends restarts at once from seed_derive(seed, 0, games) and
    obs shows the new game, while final_obs (n, OBS_SIZE) keeps the finished
    game as the learner's seat (self-play: the seat that moved last) saw it,
    on the rows where done; without autoreset the row stays over (turn -1,
    mask empty) and its action is ignored until reset()."""

    def __init__(self, n, players=4, seat=0, autoreset=True, opponents="random"):
        n = _check.integer(n, "n")
        if n < 1:
            raise FigaroError("a batch needs at least one game, not %d" % n)
        players = _check.players(players)
        if seat is not None:
            seat = _check.integer(seat, "seat")
            if not 0 <= seat < players:
                raise FigaroError("the learner's seat must be 0 to %d, or None for self-play "
                                  "(every seat, every seat's rewards), not %d" % (
                                      players - 1, seat))
        opponents = _check.text(opponents, "opponents")
        if seat is None and opponents != "random":
            raise FigaroError("self-play (seat=None) has no opponents: give the learner a "
                              "seat to play against %s" % opponents)
        self.n, self.players, self.seat, self.opponents = n, players, seat, opponents
        self._opts = _lib.BatchOpts(players, -1 if seat is None else seat, 1 if autoreset else 0)
        msg = _lib.Msg()
        self._bots = None
        if opponents == "random":
            self._envs = (ctypes.c_char * (core.fig_env_size() * n))()
            self._env_addr = ctypes.addressof(self._envs)
        else:
            ai = _lib.ai()
            self._bots = ctypes.c_void_p()
            rc = ai.fig_bot_batch_new(ctypes.byref(self._bots), n, ctypes.byref(self._opts),
                                      opponents.encode(), ctypes.byref(msg))
            if rc:
                _raise(rc, msg)
            self._ai = ai
            self._env_addr = ai.fig_bot_batch_envs(self._bots)
        self._obs = (ctypes.c_float * (n * _lib.OBS_SIZE))()
        self._final = (ctypes.c_float * (n * _lib.OBS_SIZE))()
        self._mask = (ctypes.c_uint8 * (n * _lib.OBS_ACTIONS))()
        self._turn = (ctypes.c_int8 * n)()
        self._reward = (ctypes.c_float * (n * players))()
        self._done = (ctypes.c_uint8 * n)()
        self._seeds = (ctypes.c_uint64 * n)()
        self._actions = (ctypes.c_int32 * n)()
        F, U8 = ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_uint8)
        self._out = _lib.BatchOut(
            ctypes.cast(self._obs, F), ctypes.cast(self._mask, U8),
            ctypes.cast(self._turn, ctypes.POINTER(ctypes.c_int8)),
            ctypes.cast(self._reward, F), ctypes.cast(self._done, U8),
            ctypes.cast(self._final, F))
        self._msg = _lib.Msg()
        if _np is not None:
            self.obs = _np.frombuffer(self._obs, dtype=_np.float32).reshape(n, _lib.OBS_SIZE)
            self.final_obs = _np.frombuffer(self._final, dtype=_np.float32).reshape(
                n, _lib.OBS_SIZE)
            self.mask = _np.frombuffer(self._mask, dtype=_np.bool_).reshape(n, _lib.OBS_ACTIONS)
            self.turn = _np.frombuffer(self._turn, dtype=_np.int8)
            self.reward = _np.frombuffer(self._reward, dtype=_np.float32).reshape(n, players)
            self.done = _np.frombuffer(self._done, dtype=_np.bool_)
            self._action_view = _np.frombuffer(self._actions, dtype=_np.int32)
        else:   # lists of per-row memoryviews over the same memory
            def rows(buf, fmt):
                raw = memoryview(buf).cast("B")
                size = raw.nbytes // n
                return [raw[i * size:(i + 1) * size].cast(fmt) for i in range(n)]
            self.obs = rows(self._obs, "f")
            self.final_obs = rows(self._final, "f")
            self.mask = rows(self._mask, "B")
            self.turn = memoryview(self._turn).cast("B").cast("b")
            self.reward = rows(self._reward, "f")
            self.done = memoryview(self._done).cast("B")
            self._action_view = None
        self._ready = False

    def close(self):
        """Frees the bots (opponents other than random); the batch is then unusable."""
        if self._bots:
            self._ai.fig_bot_batch_free(self._bots)
            self._bots = None
            self._env_addr = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<figaro.BatchEnv %d games of %d players, %s, %s>" % (
            self.n, self.players, "self-play" if self.seat is None else
            "learner at seat %d against %s" % (self.seat, self.opponents),
            "autoreset" if self._opts.autoreset else "no autoreset")

    def _rewards(self):
        if self.seat is None:
            return self.reward
        if _np is not None:
            return self.reward[:, self.seat]
        return [row[self.seat] for row in self.reward]

    def _call(self, core_fn, bot_fn, arg):
        if self._env_addr is None:
            raise FigaroError("the batch was closed", "state")
        if self._bots:
            rc = bot_fn(self._bots, arg, ctypes.byref(self._out), ctypes.byref(self._msg))
        else:
            rc = core_fn(self._envs, self.n, ctypes.byref(self._opts), arg,
                         ctypes.byref(self._out), ctypes.byref(self._msg))
        if rc:
            _raise(rc, self._msg)

    def reset(self, seeds):
        """Starts game i from seeds[i] (n seeds, each 0 to 2**64-1: the rule
        of Game); returns (obs, mask)."""
        if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
            raise TypeError("reset takes one seed per game (a list or an array of %d), "
                            "not %s" % (self.n, type(seeds).__name__))
        seeds = list(seeds)
        if len(seeds) != self.n:
            raise FigaroError("%d seeds for a batch of %d games" % (len(seeds), self.n))
        for i, s in enumerate(seeds):
            self._seeds[i] = _check.seed(s, "seed %d" % i)
        self._call(core.fig_batch_reset, self._bots and self._ai.fig_bot_batch_reset,
                   self._seeds)
        self._ready = True
        return self.obs, self.mask

    def step(self, actions):
        """Plays one action index per game for its seat to move (all checked
        first: an illegal one raises FigaroError naming the game, and nothing
        moves); returns (obs, rewards, done, mask)."""
        if not self._ready:
            raise FigaroError("reset the batch before stepping it", "state")
        if self._action_view is not None and isinstance(actions, _np.ndarray):
            if actions.dtype.kind not in "iu":
                raise TypeError("actions: integers (mask indices) expected, not %s" %
                                actions.dtype)
            if actions.shape != (self.n,):
                raise FigaroError("actions: %d integers expected, not an array of shape %s"
                                  % (self.n, actions.shape))
            if actions.dtype.itemsize >= 4 and (
                    actions.min() < -(1 << 31) or actions.max() >= 1 << 31):
                raise FigaroError("an action index is out of range")
            self._action_view[:] = actions      # legality is checked by the engine
        else:
            if isinstance(actions, (str, bytes)) or not hasattr(actions, "__iter__"):
                raise TypeError("step takes one action index per game, not %s" %
                                type(actions).__name__)
            actions = list(actions)
            if len(actions) != self.n:
                raise FigaroError("%d actions for a batch of %d games" % (len(actions), self.n))
            for i, a in enumerate(actions):
                self._actions[i] = _check.in_range(a, -(1 << 31), (1 << 31) - 1,
                                                   "action %d" % i)
        self._call(core.fig_batch_step, self._bots and self._ai.fig_bot_batch_step,
                   self._actions)
        return self.obs, self._rewards(), self.done, self.mask

    def _env(self, i):
        if self._env_addr is None:
            raise FigaroError("the batch was closed", "state")
        return _lib.Env.from_address(self._env_addr + i * core.fig_env_size())

    def game_seeds(self):
        """The seed of the game each row is playing now."""
        return [self._env(i).seed for i in range(self.n)]

    def games_finished(self):
        """How many games each row has finished since reset."""
        return [self._env(i).games for i in range(self.n)]

    def state(self, i):
        """A copy of row i's full position (every hand: for tests and
        rendering, not for the learner's eyes)."""
        i = _check.in_range(i, 0, self.n - 1, "row")
        return State(self._env(i).st).copy()
