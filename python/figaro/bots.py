# SPDX-License-Identifier: MIT
"""The built-in bots (random, greedy, ismcts; docs/bots.md) from Python.

A Bot is a fig_bot_t of libfigaro-ai. It plays one seat of a Game and learns
the game as that seat would (R14): the setup, its own hand each round and
every public action, fed from the game's record when it is asked to choose.
It never sees another hand.
"""

import ctypes

from . import _check, _lib
from .game import NUM_ACTIONS, Action, FigaroError, _raise

try:
    import numpy as _np
except ImportError:
    _np = None


class Bot:
    """Bot("greedy"), Bot("ismcts:iters=2000", seed=7), Bot("normal")...

    choose(game) returns the bot's action for the seat to move in game (the
    bot's seat is the seat to move the first time it is asked about a game);
    play(game) chooses and plays it. Free with close() or a with block."""

    def __init__(self, spec, seed=0):
        lib = _lib.ai()
        self._lib = lib
        self._p = ctypes.c_void_p()
        msg = _lib.Msg()
        rc = lib.fig_bot_new(ctypes.byref(self._p), _check.text(spec, "a bot spec").encode(),
                             _check.seed(seed), ctypes.byref(msg))
        if rc:
            _raise(rc, msg)
        self._game = None      # the record the bot follows, and how far it got
        self._seat = -1
        self._dealt = 0
        self._moves = [0, 0, 0]
        self._players = None   # of the game last chosen in (for analysis())

    @property
    def spec(self):
        return self._lib.fig_bot_spec(self._p).decode()

    @property
    def seat(self):
        return self._seat

    @property
    def overrules(self):
        """Times an illegal answer was replaced (0 for the built-in bots)."""
        return self._lib.fig_bot_overrules(self._p)

    def close(self):
        if self._p:
            self._lib.fig_bot_free(self._p)
            self._p = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _check(self, rc, msg):
        if rc:
            _raise(rc, msg)

    def _follow(self, game, seat):
        """Feeds the bot what its seat has learnt of game since last time."""
        lib, msg, g = self._lib, _lib.Msg(), game._c
        fresh = self._game is not game or self._seat != seat or self._dealt > g.dealt or \
            any(self._moves[r] > g.nmoves[r] for r in range(3))
        if fresh:
            self._check(lib.fig_bot_game(self._p, ctypes.byref(g.setup), seat,
                                         ctypes.byref(msg)), msg)
            self._game, self._seat, self._dealt, self._moves = game, seat, 0, [0, 0, 0]
        for r in range(3):
            if r >= g.dealt:
                break
            if r == self._dealt:
                self._check(lib.fig_bot_round(self._p, ctypes.byref(g.hands[r][seat]),
                                              ctypes.byref(msg)), msg)
                self._dealt += 1
            while self._moves[r] < g.nmoves[r]:
                self._check(lib.fig_bot_move(self._p, g.moves[r][self._moves[r]].action,
                                             ctypes.byref(msg)), msg)
                self._moves[r] += 1

    def choose(self, game, ms=0):
        """The bot's action for the seat to move in game. ms: a time limit for
        bots that think (0: the bot's own budget)."""
        from .game import Game
        if not isinstance(game, Game):
            raise TypeError("a bot plays a figaro.Game, not %s" % type(game).__name__)
        ms = _check.in_range(ms, 0, 2**31 - 1, "ms")
        if not self._p:
            raise FigaroError("the bot was closed", "state")
        if game.over:
            raise FigaroError("the game is over", "state")
        if game.phase != "play":
            raise FigaroError("round %d has not been dealt yet" % game.round, "state")
        seat = game.turn if self._game is not game else self._seat
        if seat != game.turn:
            raise FigaroError("it is seat %d's turn, not this bot's (seat %d)" % (
                game.turn, seat), "state")
        self._follow(game, seat)
        a = self._lib.fig_bot_choose(self._p, ms)
        if a == _lib.ACT_NONE:
            raise FigaroError("the bot has no action to play", "state")
        self._players = game.players
        return Action.from_code(a)

    def analysis(self):
        """What the bot's last choose() saw at its root, for bots that search
        (ismcts and the levels but easy): an Analysis, or None (random,
        greedy, or before the first choose)."""
        if not self._p:
            raise FigaroError("the bot was closed", "state")
        c = _lib.Analysis()
        if not self._lib.fig_bot_analysis(self._p, ctypes.byref(c)):
            return None
        return Analysis(c, self._players)

    def play(self, game, ms=0):
        """Chooses and plays the bot's action; returns (action, events)."""
        a = self.choose(game, ms)
        return a, game.play(a)


def play_game(game, bots):
    """Plays game to its end with one Bot (or a callable game -> action) per
    seat; returns the ranking, winner first."""
    if isinstance(bots, (str, bytes)) or len(bots) != game.players:
        raise FigaroError("%d bots for %d seats" % (len(bots), game.players))
    while not game.over:
        who = bots[game.turn]
        game.play(who.choose(game) if isinstance(who, Bot) else who(game))
    return game.ranking()


class Analysis:
    """The search's root statistics of one think (fig_analysis_t, bot.h), one
    entry per root move, most visited first:

    actions     the moves (Action)
    index       their action-mask indices (for the searching seat)
    visits      root visits (uint32)
    share       visits / all root visits, 0..1
    win         estimated chance the seat finishes first, 0..1
    place       expected final place, 1.0 = first
    seat, iterations

    The arrays are numpy arrays (lists without numpy); policy() spreads the
    visit shares over the NUM_ACTIONS indices of the mask (a training target
    for a policy)."""

    def __init__(self, c, players):
        moves = c.moves[:c.n]
        self.seat = c.seat
        self.iterations = c.iterations
        self.actions = [Action.from_code(m.action) for m in moves]
        index = [_lib.core.fig_obs_index(m.action, c.seat, players) for m in moves]
        cols = {"visits": [m.visits for m in moves], "share": [m.share for m in moves],
                "win": [m.win for m in moves], "place": [m.place for m in moves]}
        if _np is not None:
            self.index = _np.array(index, dtype=_np.int64)
            self.visits = _np.array(cols["visits"], dtype=_np.uint32)
            for name in ("share", "win", "place"):
                setattr(self, name, _np.array(cols[name], dtype=_np.float64))
        else:
            self.index = index
            for name, values in cols.items():
                setattr(self, name, values)

    def policy(self):
        """Visit shares at the moves' mask indices, 0 elsewhere (NUM_ACTIONS)."""
        out = _np.zeros(NUM_ACTIONS, dtype=_np.float32) if _np is not None else \
            [0.0] * NUM_ACTIONS
        for i, share in zip(self.index, self.share):
            out[i] = share
        return out

    def __len__(self):
        return len(self.actions)

    def __repr__(self):
        rows = ["%s: %d visits (%.0f%%), win %.2f, place %.2f" % (
            a, v, 100 * sh, w, p) for a, v, sh, w, p in zip(
                self.actions, self.visits, self.share, self.win, self.place)]
        return "<figaro.Analysis seat %d, %d iterations\n  %s>" % (
            self.seat, self.iterations, "\n  ".join(rows))
