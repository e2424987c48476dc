"""BatchEnv: N games stepped at once in C (include/figaro/batch.h).

One call of reset() or step() plays every game of the batch inside the
library and fills arrays the environment owns, so Python's cost is paid once
per batch, not once per game or per action. With numpy the arrays are numpy
arrays over that memory (no copy); without it, lists of one memoryview per
game (row) over the same memory.

The arrays returned are overwritten by the next reset() or step(): copy them
(obs.copy()) to keep them.
"""

import ctypes

from . import _lib
from ._lib import core
from .game import FigaroError, _raise

try:
    import numpy as _np
except ImportError:
    _np = None


class BatchEnv:
    """BatchEnv(n, players=4, seat=0, autoreset=True)

    seat: the learner's seat; the other seats play uniformly random legal
    actions in C. seat=None: the learner plays every seat (self-play), and
    `turn` says whose decision each row is.

    reset(seeds) -> (obs, mask)
    step(actions) -> (obs, rewards, done, mask)

    obs: (n, OBS_SIZE) float32, the observation of the seat to move (its view
    only, R14); mask: (n, NUM_ACTIONS) bool, its legal actions; actions: one
    action index per game (int32); rewards: (n,) for the learner's seat, or
    (n, players) in self-play, nonzero only on the step a game ends (+1 for
    the winner down to -1 for the last); done: (n,) bool. With autoreset a
    game that ends restarts at once from seed_derive(seed, 0, games) and obs
    shows the new game; without it the row stays over (turn -1, mask empty)
    and its action is ignored until reset()."""

    def __init__(self, n, players=4, seat=0, autoreset=True):
        if not isinstance(n, int) or n < 1:
            raise FigaroError("a batch needs at least one game, not %r" % (n,))
        self.n, self.players = n, players
        self.seat = seat
        self._opts = _lib.BatchOpts(players, -1 if seat is None else seat, 1 if autoreset else 0)
        msg = _lib.Msg()
        rc = core.fig_batch_check(ctypes.byref(self._opts), ctypes.byref(msg))
        if rc:
            _raise(rc, msg)
        size = core.fig_env_size()
        self._envs = (ctypes.c_char * (size * n))()
        self._obs = (ctypes.c_float * (n * _lib.OBS_SIZE))()
        self._mask = (ctypes.c_uint8 * (n * _lib.OBS_ACTIONS))()
        self._turn = (ctypes.c_int8 * n)()
        self._reward = (ctypes.c_float * (n * players))()
        self._done = (ctypes.c_uint8 * n)()
        self._seeds = (ctypes.c_uint64 * n)()
        self._actions = (ctypes.c_int32 * n)()
        self._out = _lib.BatchOut(
            ctypes.cast(self._obs, ctypes.POINTER(ctypes.c_float)),
            ctypes.cast(self._mask, ctypes.POINTER(ctypes.c_uint8)),
            ctypes.cast(self._turn, ctypes.POINTER(ctypes.c_int8)),
            ctypes.cast(self._reward, ctypes.POINTER(ctypes.c_float)),
            ctypes.cast(self._done, ctypes.POINTER(ctypes.c_uint8)))
        self._msg = _lib.Msg()
        self._args = (ctypes.byref(self._opts), ctypes.byref(self._out), ctypes.byref(self._msg))
        if _np is not None:
            self.obs = _np.frombuffer(self._obs, dtype=_np.float32).reshape(n, _lib.OBS_SIZE)
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
            self.mask = rows(self._mask, "B")
            self.turn = memoryview(self._turn).cast("B").cast("b")
            self.reward = rows(self._reward, "f")
            self.done = memoryview(self._done).cast("B")
            self._action_view = None
        self._ready = False

    def _rewards(self):
        if self.seat is None:
            return self.reward
        if _np is not None:
            return self.reward[:, self.seat]
        return [row[self.seat] for row in self.reward]

    def reset(self, seeds):
        """Starts game i from seeds[i] (n seeds); returns (obs, mask)."""
        seeds = list(seeds)
        if len(seeds) != self.n:
            raise FigaroError("%d seeds for a batch of %d games" % (len(seeds), self.n))
        for i, s in enumerate(seeds):
            if not 0 <= int(s) < 1 << 64:
                raise FigaroError("seed %r is not a 64-bit unsigned number" % (s,))
            self._seeds[i] = int(s)
        rc = core.fig_batch_reset(self._envs, self.n, self._args[0], self._seeds, *self._args[1:])
        if rc:
            _raise(rc, self._msg)
        self._ready = True
        return self.obs, self.mask

    def step(self, actions):
        """Plays one action index per game for its seat to move (all checked
        first: an illegal one raises FigaroError naming the game, and nothing
        moves); returns (obs, rewards, done, mask)."""
        if not self._ready:
            raise FigaroError("reset the batch before stepping it", "state")
        if self._action_view is not None and isinstance(actions, _np.ndarray):
            if actions.shape != (self.n,) or actions.dtype.kind not in "iu":
                raise FigaroError("actions: %d integers expected, not an array of shape %s "
                                  "and type %s" % (self.n, actions.shape, actions.dtype))
            if actions.dtype.itemsize > 4 and self.n and (
                    actions.min() < -(1 << 31) or actions.max() >= 1 << 31):
                raise FigaroError("an action index is out of range")
            self._action_view[:] = actions      # legality is checked by the engine
        else:
            actions = list(actions)
            if len(actions) != self.n:
                raise FigaroError("%d actions for a batch of %d games" % (len(actions), self.n))
            for i, a in enumerate(actions):
                self._actions[i] = int(a)
        rc = core.fig_batch_step(self._envs, self.n, self._args[0], self._actions,
                                 *self._args[1:])
        if rc:
            _raise(rc, self._msg)
        return self.obs, self._rewards(), self.done, self.mask

    def game_seeds(self):
        """The seed of the game each row is playing now."""
        size = core.fig_env_size()
        return [_lib.Env.from_buffer(self._envs, i * size).seed for i in range(self.n)]

    def games_finished(self):
        """How many games each row has finished since reset."""
        size = core.fig_env_size()
        return [_lib.Env.from_buffer(self._envs, i * size).games for i in range(self.n)]
