"""Games, states, views, actions and events over libfigaro (docs/python.md).

Everything here is a thin layer over the C engine: the rules, the checks and
their messages, FGN, the views (R14) and the observation vector are the
library's. Python objects own a copy of the C value (a fig_state_t, a
fig_game_t), so copying a State or a Game copies the position.
"""

import ctypes

from . import _lib
from ._lib import core

try:
    import numpy as _np
except ImportError:          # numpy is optional: plain arrays then
    _np = None

KINDS = ("R1", "R2", "R3", "B1", "B2", "B3", "G1", "G2", "G3", "Y1", "Y2", "Y3",
         "P1", "P2", "P3", "J1", "J2", "RING")
COLOURS = ("red", "blue", "green", "yellow", "purple")
COLOUR_LETTERS = "RBGYP"
PHASES = ("deal", "play", "over")
EVENT_TYPES = ("play", "take", "ring", "collect", "last_card", "hand_empty", "round_end",
               "exchange", "piece", "no_piece", "game_over")
REASONS = (None, "six", "take", "last", "zero")

OBS_SIZE = _lib.OBS_SIZE           # floats in an observation
NUM_ACTIONS = _lib.OBS_ACTIONS     # size of the fixed action space
TAKE_INDEX = _lib.OBS_TAKE         # index of the take in it


class FigaroError(ValueError):
    """The engine refused something; str(e) is its message for people.

    kind is "input" (malformed or illegal: a move, a record, a setup),
    "state" (the call does not fit the game's phase) or "space"; line is the
    1-based line of a record (FGN) that was refused, else 0."""

    def __init__(self, message, kind="input", line=0):
        super().__init__(message)
        self.kind = kind
        self.line = line


_KIND_NAMES = {_lib.ERR_INPUT: "input", _lib.ERR_STATE: "state", _lib.ERR_SPACE: "space"}


def _raise(rc, msg):
    raise FigaroError(msg.text.decode("utf-8", "replace"), _KIND_NAMES.get(rc, "input"),
                      msg.line)


def kind_index(code):
    """The kind number (0-17) of a card code such as "R2", "j1" or "RING"."""
    try:
        return KINDS.index(code.upper())
    except (ValueError, AttributeError):
        raise FigaroError("'%s' is not a card (R1..P3, J1, J2, RING)" % (code,)) from None


class Action(int):
    """An action as the engine codes it (a 16-bit int), printed in FGN syntax.

    Action.take(), Action.play("R2", 1) and Action.parse("R2>1") make one;
    kind is the card code (None for a take), target the seat in front of
    which it is played."""

    __slots__ = ()

    @classmethod
    def take(cls):
        return cls(_lib.ACT_TAKE)

    @classmethod
    def play(cls, kind, target):
        k = kind_index(kind) if isinstance(kind, str) else int(kind)
        if not 0 <= k < _lib.KINDS or not 0 <= target < _lib.MAX_PLAYERS:
            raise FigaroError("no such play: kind %r in front of seat %r" % (kind, target))
        return cls(k | target << 5)

    @classmethod
    def parse(cls, text, actor=-1):
        """Parses "R2>1", "J1>0", "RING" (actor's own pile) or "take"."""
        raw = text.strip().encode()
        a = core.fig_act_parse(raw, len(raw), actor)
        if a == _lib.ACT_NONE:
            raise FigaroError("'%s' is not an action (e.g. R2>1, J1>0, RING, take)" % text)
        return cls(a)

    @property
    def is_take(self):
        return self == _lib.ACT_TAKE

    @property
    def kind(self):
        return None if self.is_take else KINDS[self & 31]

    @property
    def target(self):
        return None if self.is_take else self >> 5 & 7

    def __str__(self):
        if self.is_take:
            return "take"
        if self & 31 == 17:
            return "RING"
        return "%s>%d" % (KINDS[self & 31], self >> 5 & 7)

    def __repr__(self):
        return "Action(%s)" % self


def _hand_tuple(h):
    """A fig_hand_t as card codes in kind order, repeats included."""
    return tuple(code for k, code in enumerate(KINDS) for _ in range(h.n[k]))


def _hand_c(cards):
    """Card codes (a list, or one string separated by spaces) as a fig_hand_t."""
    if isinstance(cards, str):
        cards = cards.split()
    h = _lib.Hand()
    for c in cards:
        h.n[kind_index(c)] += 1
    return h


class Event:
    """What an action made happen (state.h, docs/engine.md "Events").

    type is one of EVENT_TYPES; the other fields as in fig_event_t, with kind
    a card code and reason one of "six", "take", "last", "zero" or None;
    counts and totals have one entry per seat."""

    __slots__ = ("type", "seat", "target", "kind", "count", "reason", "rank", "tie", "round",
                 "a", "b", "counts", "totals")

    def __init__(self, e, players):
        self.type = EVENT_TYPES[e.type]
        self.seat = e.seat
        self.target = e.target
        self.kind = KINDS[e.kind] if self.type in ("play", "ring") else None
        self.count = e.count
        self.reason = REASONS[e.reason] if e.reason < len(REASONS) else None
        self.rank = e.rank
        self.tie = bool(e.tie)
        self.round = e.round
        self.a, self.b = e.a, e.b
        self.counts = tuple(e.counts[:players])
        self.totals = tuple(e.totals[:players])

    def __repr__(self):
        fields = ", ".join("%s=%r" % (f, getattr(self, f)) for f in self.__slots__[1:])
        return "Event(%s, %s)" % (self.type, fields)


def _events(ev, players):
    return [Event(ev.ev[i], players) for i in range(ev.n)]


def _float_array(n):
    if _np is not None:
        return _np.zeros(n, dtype=_np.float32)
    return (ctypes.c_float * n)()


def _addr(buf):
    return buf.ctypes.data if _np is not None and isinstance(buf, _np.ndarray) else \
        ctypes.addressof(buf)


class Setup:
    """A game's setup (R1-R3): players, the colour left out with 3 players
    (a colour name, else None), the starting King's seat, the road pieces of
    each round (three lists of players-1 lengths) and the seed it came from
    (None for an explicit setup)."""

    def __init__(self, players, king=0, roads=None, removed=None, seed=None):
        self.players = players
        self.king = king
        self.removed = removed
        self.seed = seed
        if roads is None:
            defaults = list(range(15, 0, -1))
            roads = [defaults[r * (players - 1):(r + 1) * (players - 1)] for r in range(3)]
        self.roads = [list(r) for r in roads]

    @classmethod
    def random(cls, players, seed):
        """The setup `figaro random-game --seed` draws (fig_setup_random)."""
        if not isinstance(players, int) or not 3 <= players <= 6:
            raise FigaroError("Figaro is played by 3 to 6 players, not %r" % (players,))
        c = _lib.Setup()
        core.fig_setup_random(ctypes.byref(c), players, seed, None)
        return cls._from_c(c)

    @classmethod
    def _from_c(cls, c):
        n = c.players
        return cls(n, c.king, [list(c.roads[r][:n - 1]) for r in range(3)],
                   COLOURS[c.removed] if n == 3 and 0 <= c.removed < 5 else None,
                   c.seed if c.has_seed else None)

    def _to_c(self):
        """The checked fig_setup_t; raises FigaroError with the engine's reason."""
        if not isinstance(self.players, int) or not 3 <= self.players <= 6:
            raise FigaroError("Figaro is played by 3 to 6 players, not %r" % (self.players,))
        c = _lib.Setup()
        c.players = self.players
        c.king = self.king
        if self.removed is None:
            c.removed = 5
        elif self.removed in COLOURS:
            c.removed = COLOURS.index(self.removed)
        elif isinstance(self.removed, str) and self.removed.upper() in COLOUR_LETTERS:
            c.removed = COLOUR_LETTERS.index(self.removed.upper())
        else:
            raise FigaroError("'%s' is not a colour" % (self.removed,))
        if len(self.roads) != 3 or any(len(r) != self.players - 1 for r in self.roads):
            raise FigaroError("roads: three groups of %d lengths each, one per round (R3)"
                              % (max(self.players, 1) - 1))
        for r in range(3):
            for i, length in enumerate(self.roads[r]):
                if not 0 <= length <= 65535:
                    raise FigaroError("road length %r is out of range" % (length,))
                c.roads[r][i] = length
        if self.seed is not None:
            c.seed = self.seed
            c.has_seed = True
        msg = _lib.Msg()
        rc = core.fig_setup_check(ctypes.byref(c), ctypes.byref(msg))
        if rc:
            _raise(rc, msg)
        return c

    def __eq__(self, other):
        return isinstance(other, Setup) and vars(self) == vars(other)

    def __repr__(self):
        return "Setup(players=%d, king=%d, roads=%r, removed=%r, seed=%r)" % (
            self.players, self.king, self.roads, self.removed, self.seed)


class Pile:
    """A pile of face-up cards (R6): its colour (None without one), total,
    and cards as codes."""

    __slots__ = ("colour", "total", "cards")

    def __init__(self, p):
        self.colour = COLOURS[p.colour] if p.colour < 5 else None
        self.total = p.total
        cards = []
        if p.colour < 5:
            for v in range(3):
                cards += [KINDS[p.colour * 3 + v]] * p.n[v]
        cards += ["J1"] * p.n[3] + ["J2"] * p.n[4] + ["RING"] * p.n[5]
        self.cards = tuple(cards)

    def __repr__(self):
        return "Pile(%r, total=%d, %s)" % (self.colour, self.total, " ".join(self.cards))


class _Position:
    """What a State and a View share: the public table of a c value `_c`."""

    @property
    def players(self):
        return self._c.players

    @property
    def round(self):
        return self._c.round

    @property
    def phase(self):
        return PHASES[self._c.phase]

    @property
    def over(self):
        return self._c.phase == _lib.PHASE_OVER

    @property
    def turn(self):
        """The seat to move (meaningful in the play phase)."""
        return self._c.turn

    @property
    def king(self):
        return self._c.king

    @property
    def table_cards(self):
        return self._c.table_cards

    @property
    def hand_sizes(self):
        return tuple(self._c.hand_size[:self.players])

    @property
    def stacks(self):
        """Cards each seat collected this round (R11 counts them)."""
        return tuple(self._c.stack[:self.players])

    @property
    def piles(self):
        return tuple(Pile(self._c.pile[s]) for s in range(self.players))

    def roads(self, seat):
        """The road pieces seat has received, in order."""
        return tuple(self._c.road[seat][:self._c.nroad[seat]])

    def road_length(self, seat):
        return sum(self.roads(seat))

    @property
    def road_groups(self):
        n = self.players - 1
        return tuple(tuple(self._c.group[r][:n]) for r in range(3))


class State(_Position):
    """A full position, every hand included: for simulations, search and
    tests. What a player may see is its View (R14); show players views.

    State() values are copied by copy() (a flat C value)."""

    __slots__ = ("_c",)

    def __init__(self, c=None):
        self._c = c if c is not None else _lib.State()

    @classmethod
    def new(cls, setup):
        """The state before the first deal of a setup."""
        st = cls()
        core.fig_state_init(ctypes.byref(st._c), ctypes.byref(setup._to_c()))
        return st

    def copy(self):
        c = _lib.State()
        ctypes.pointer(c)[0] = self._c
        return State(c)

    def hand(self, seat):
        """Seat's hand as card codes (hidden information: for simulations)."""
        if not 0 <= seat < self.players:
            raise FigaroError("seat %d does not exist with %d players" % (seat, self.players))
        return _hand_tuple(self._c.hand[seat])

    def deal(self, hands=None, seed=None):
        """Deals the next round: the given hands (one list of codes or string
        per seat, checked against the deck, R4), or a shuffle from seed."""
        if self._c.phase != _lib.PHASE_DEAL:
            raise FigaroError("round %d is not waiting for a deal" % self.round, "state")
        if hands is None:
            rng = Rng(0 if seed is None else seed)
            core.fig_state_deal(ctypes.byref(self._c), ctypes.byref(rng._c))
            return
        arr = (_lib.Hand * _lib.MAX_PLAYERS)()
        if len(hands) != self.players:
            raise FigaroError("%d hands for %d players" % (len(hands), self.players))
        for s, h in enumerate(hands):
            arr[s] = _hand_c(h)
        msg = _lib.Msg()
        rc = core.fig_state_deal_hands(ctypes.byref(self._c), arr, ctypes.byref(msg))
        if rc:
            _raise(rc, msg)

    def legal_actions(self):
        """The legal actions of the seat to move, in the engine's order."""
        buf = (ctypes.c_uint16 * _lib.MAX_ACTIONS)()
        n = core.fig_state_legal(ctypes.byref(self._c), buf)
        return [Action(buf[i]) for i in range(n)]

    def check(self, action):
        """None if action is legal for the seat to move, else the reason."""
        msg = _lib.Msg()
        if core.fig_state_check(ctypes.byref(self._c), _action(action, self._c.turn),
                                ctypes.byref(msg)):
            return msg.text.decode()
        return None

    def apply(self, action):
        """Plays action for the seat to move; returns the events. Raises
        FigaroError with the engine's message, the state unchanged."""
        ev = _lib.Events()
        msg = _lib.Msg()
        rc = core.fig_state_apply(ctypes.byref(self._c), _action(action, self._c.turn),
                                  ctypes.byref(ev), ctypes.byref(msg))
        if rc:
            _raise(rc, msg)
        return _events(ev, self.players)

    def random_action(self, rng):
        """A uniformly random legal action, drawn from rng (an Rng)."""
        if self._c.phase != _lib.PHASE_PLAY:
            raise FigaroError("no action: the game is not in a round's play", "state")
        return Action(core.fig_state_random_action(ctypes.byref(self._c), ctypes.byref(rng._c)))

    def ranking(self):
        """Seats from winner to last (R13: shortest road first)."""
        out = (ctypes.c_int * _lib.MAX_PLAYERS)()
        core.fig_state_ranking(ctypes.byref(self._c), out)
        return list(out[:self.players])

    def rewards(self):
        """Each seat's reward at the end, +1 winner down to -1 last (as the
        batch reports them)."""
        out = (ctypes.c_float * _lib.MAX_PLAYERS)()
        core.fig_batch_rewards(ctypes.byref(self._c), out)
        return list(out[:self.players])

    def view(self, seat):
        """What seat may know (R14)."""
        if not 0 <= seat < self.players:
            raise FigaroError("seat %d does not exist with %d players" % (seat, self.players))
        v = View()
        core.fig_view_of(ctypes.byref(self._c), seat, ctypes.byref(v._c))
        return v

    def observation(self, seat=None, out=None):
        """The observation vector of seat (default: the seat to move), from its
        view only; layout in docs/python.md. A float32 numpy array when numpy
        is installed (else a ctypes float array); out may be reused."""
        return self.view(self.turn if seat is None else seat).observation(out)

    def action_mask(self, out=None):
        """1 at the index of every legal action of the seat to move, over the
        fixed action space of NUM_ACTIONS indices (bool numpy array, or a
        ctypes byte array without numpy)."""
        if out is None:
            out = _np.zeros(NUM_ACTIONS, dtype=bool) if _np is not None else \
                (ctypes.c_uint8 * NUM_ACTIONS)()
        core.fig_obs_mask(ctypes.byref(self._c), ctypes.c_void_p(_addr(out)))
        return out

    def action_index(self, action):
        """The index of action for the seat to move (its place in the mask)."""
        i = core.fig_obs_index(int(action), self._c.turn, self._c.players)
        if i < 0:
            raise FigaroError("%s is not an action of a %d-player game" % (action, self.players))
        return i

    def action_at(self, index):
        """The action an index stands for, for the seat to move."""
        a = core.fig_obs_action(int(index), self._c.turn, self._c.players)
        if a == _lib.ACT_NONE:
            raise FigaroError("%d is not an action index of a %d-player game" % (
                index, self.players))
        return Action(a)

    def __eq__(self, other):
        return isinstance(other, State) and bytes(self._c) == bytes(other._c)


def _action(a, actor):
    """An Action, an int, or FGN text ("R2>1") as the engine's 16-bit code."""
    if isinstance(a, str):
        return int(Action.parse(a, actor))
    a = int(a)
    if not 0 <= a <= 0xFFFF:
        raise FigaroError("%d is not an action" % a)
    return a


class View(_Position):
    """One seat's knowledge (R14): its own hand and everything public,
    including the cards played this round (seen) and, together, the cards
    in the other hands (unseen)."""

    __slots__ = ("_c",)

    def __init__(self):
        self._c = _lib.View()

    @property
    def seat(self):
        return self._c.seat

    @property
    def hand(self):
        return _hand_tuple(self._c.hand)

    @property
    def seen(self):
        return _hand_tuple(self._c.seen)

    @property
    def unseen(self):
        return _hand_tuple(self._c.unseen)

    def sample(self, seed):
        """A full State consistent with this view: the unseen cards dealt at
        random (from seed) to the other seats by their hand sizes."""
        st = State()
        rng = Rng(seed)
        core.fig_view_sample(ctypes.byref(self._c), ctypes.byref(rng._c), ctypes.byref(st._c))
        return st

    def observation(self, out=None):
        if out is None:
            out = _float_array(OBS_SIZE)
        core.fig_obs_encode(ctypes.byref(self._c), ctypes.c_void_p(_addr(out)))
        return out

    def __eq__(self, other):
        return isinstance(other, View) and bool(core.fig_view_equal(ctypes.byref(self._c),
                                                                   ctypes.byref(other._c)))


class Rng:
    """The engine's generator (xoshiro256**), seeded as the C code seeds it:
    Rng(seed) or Rng(seed, stream) (fig_rng_seed_stream)."""

    __slots__ = ("_c",)

    def __init__(self, seed, stream=None):
        self._c = _lib.Rng()
        if stream is None:
            core.fig_rng_seed(ctypes.byref(self._c), seed)
        else:
            core.fig_rng_seed_stream(ctypes.byref(self._c), seed, stream)


def seed_derive(seed, salt, stream):
    """fig_seed_derive: the one seed derivation of every layer."""
    return core.fig_seed_derive(seed, salt, stream)


class Game:
    """A game record: the setup, each round's deal and every action, next to
    the current position; it only ever holds a legal game (game.h).

    Game(players, seed) sets up and deals from the seed exactly as
    `figaro random-game --seed` does; Game(setup=Setup(...)) starts an explicit
    setup, whose rounds are dealt with deal(hands) (or from the setup's seed,
    if it has one). With auto_deal (default: when the setup has a seed) the
    next round is dealt from the seed as soon as one ends."""

    def __init__(self, players=None, seed=None, setup=None, names=None, auto_deal=None):
        if setup is None:
            if players is None or seed is None:
                raise FigaroError("a game needs players and a seed, or a setup")
            setup = Setup.random(players, seed)
        self._c = _lib.Game()
        core.fig_game_init(ctypes.byref(self._c), ctypes.byref(setup._to_c()))
        if names is not None:
            self.names = names
        self.auto_deal = setup.seed is not None if auto_deal is None else auto_deal
        self._deal_if_due()

    @classmethod
    def from_fgn(cls, text):
        """Reads a record (FGN). Raises FigaroError with the line and reason."""
        g = cls.__new__(cls)
        g._c = _lib.Game()
        raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        msg = _lib.Msg()
        rc = core.fig_fgn_read(ctypes.byref(g._c), raw, len(raw), ctypes.byref(msg))
        if rc:
            _raise(rc, msg)
        g.auto_deal = False
        return g

    def to_fgn(self):
        """The record in canonical FGN."""
        need = core.fig_fgn_write(ctypes.byref(self._c), None, 0)
        buf = ctypes.create_string_buffer(need + 1)
        core.fig_fgn_write(ctypes.byref(self._c), buf, need + 1)
        return buf.value.decode("utf-8")

    def copy(self):
        g = Game.__new__(Game)
        g._c = _lib.Game()
        ctypes.pointer(g._c)[0] = self._c
        g.auto_deal = self.auto_deal
        return g

    @property
    def setup(self):
        return Setup._from_c(self._c.setup)

    @property
    def names(self):
        if not self._c.has_names:
            return None
        return [self._c.names[s].value.decode("utf-8") for s in range(self.players)]

    @names.setter
    def names(self, names):
        if names is None:
            self._c.has_names = False
            return
        if len(names) != self.players:
            raise FigaroError("%d names for %d players" % (len(names), self.players))
        for s, name in enumerate(names):
            raw = name.encode("utf-8")
            if not raw or len(raw) > _lib.NAME_MAX or any(c in name for c in "\n\r\t"):
                raise FigaroError("a name has 1 to %d bytes on one line: %r" % (
                    _lib.NAME_MAX, name))
            self._c.names[s].value = raw
        self._c.has_names = True

    @property
    def state(self):
        """A copy of the current position (every hand: not for players' eyes)."""
        c = _lib.State()
        ctypes.pointer(c)[0] = self._c.state
        return State(c)

    @property
    def players(self):
        return self._c.setup.players

    @property
    def phase(self):
        return PHASES[self._c.state.phase]

    @property
    def round(self):
        return self._c.state.round

    @property
    def turn(self):
        return self._c.state.turn

    @property
    def over(self):
        return self._c.state.phase == _lib.PHASE_OVER

    @property
    def dealt(self):
        return self._c.dealt

    def hands(self, round):
        """The deal of round 1-3 (every hand: hidden information)."""
        if not 1 <= round <= self._c.dealt:
            raise FigaroError("round %d has not been dealt" % round, "state")
        return [_hand_tuple(self._c.hands[round - 1][s]) for s in range(self.players)]

    def moves(self, round=None):
        """The moves as (seat, Action), of one round or of the whole game."""
        rounds = range(3) if round is None else [round - 1]
        return [(m.seat, Action(m.action)) for r in rounds
                for m in self._c.moves[r][:self._c.nmoves[r]]]

    def _deal_if_due(self):
        if (self.auto_deal and self._c.state.phase == _lib.PHASE_DEAL
                and self._c.setup.has_seed):
            core.fig_game_deal_seeded(ctypes.byref(self._c))

    def deal(self, hands=None, seed=None):
        """Deals the next round: explicit hands (a list of codes or a string
        per seat), a shuffle from seed, or (neither) from the setup's seed."""
        if self._c.state.phase != _lib.PHASE_DEAL:
            raise FigaroError("round %d is not waiting for a deal" % self.round, "state")
        if hands is not None:
            if len(hands) != self.players:
                raise FigaroError("%d hands for %d players" % (len(hands), self.players))
            arr = (_lib.Hand * _lib.MAX_PLAYERS)()
            for s, h in enumerate(hands):
                arr[s] = _hand_c(h)
            msg = _lib.Msg()
            rc = core.fig_game_deal(ctypes.byref(self._c), arr, ctypes.byref(msg))
            if rc:
                _raise(rc, msg)
        elif seed is not None:
            core.fig_game_deal_random(ctypes.byref(self._c), ctypes.byref(Rng(seed)._c))
        elif self._c.setup.has_seed:
            core.fig_game_deal_seeded(ctypes.byref(self._c))
        else:
            raise FigaroError("this setup has no seed: deal hands or a seed", "state")

    def legal_actions(self):
        return self.state.legal_actions()

    def play(self, action):
        """Plays action (an Action, its int, or FGN text like "R2>1") for the
        seat to move and records it; returns the events. Raises FigaroError
        with the engine's message (e.g. "seat 2 cannot play B2 in front of
        seat 0: seat 3 already has blue"); the game is then unchanged."""
        ev = _lib.Events()
        msg = _lib.Msg()
        rc = core.fig_game_play(ctypes.byref(self._c), _action(action, self._c.state.turn),
                                ctypes.byref(ev), ctypes.byref(msg))
        if rc:
            _raise(rc, msg)
        events = _events(ev, self.players)
        self._deal_if_due()
        return events

    def view(self, seat):
        return State(self._c.state).view(seat)

    def observation(self, seat=None, out=None):
        return State(self._c.state).observation(seat, out)

    def action_mask(self, out=None):
        return State(self._c.state).action_mask(out)

    def action_index(self, action):
        return State(self._c.state).action_index(action)

    def action_at(self, index):
        return State(self._c.state).action_at(index)

    def ranking(self):
        return State(self._c.state).ranking()

    def road_length(self, seat):
        return State(self._c.state).road_length(seat)

    def rewards(self):
        return State(self._c.state).rewards()


def random_game(players, seed):
    """The game `figaro random-game --players N --seed S` prints: the setup
    and deals from the seed, every action uniformly random from stream 4."""
    g = Game(players, seed)
    rng = Rng(seed, 4)
    while not g.over:
        a = core.fig_state_random_action(ctypes.byref(g._c.state), ctypes.byref(rng._c))
        g.play(a)
    return g
