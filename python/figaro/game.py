# SPDX-License-Identifier: MIT
"""Games, states, views, actions and events over libfigaro (docs/python.md).

Everything here is a thin layer over the C engine: the rules, the checks and
their messages, FGN, the views (R14) and the observation vector are the
library's. Python objects own a copy of the C value (a fig_state_t, a
fig_game_t), so copying a State or a Game copies the position.
"""

import ctypes

from . import _check, _lib
from ._check import FigaroError
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


class Action:
    """An action, printed in FGN syntax ("R2>1", "RING", "take").

    Action.take(), Action.play("R2", 1) and Action.parse("R2>1") make one;
    kind is the card code (None for a take), target the seat in front of
    which it is played. An Action is not an int: everywhere in this package
    an int stands for an index of the action mask (NUM_ACTIONS of them,
    relative to the seat to move). The engine's own 16-bit code is only
    reached by name: action.code and Action.from_code(code)."""

    __slots__ = ("_code",)

    def __init__(self, *args):
        raise TypeError("make an Action with Action.parse, Action.play, Action.take or "
                        "Action.from_code")

    @classmethod
    def from_code(cls, code):
        """The action of the engine's 16-bit code (action.h)."""
        code = _check.in_range(code, 0, 0xFFFF, "an action code")
        if code == _lib.ACT_NONE:
            raise FigaroError("0x%04x is no action (FIG_ACT_NONE)" % code)
        return _made(code)

    @property
    def code(self):
        """The engine's 16-bit code of the action."""
        return self._code

    @classmethod
    def take(cls):
        return cls.from_code(_lib.ACT_TAKE)

    @classmethod
    def play(cls, kind, target):
        k = kind_index(kind) if isinstance(kind, str) else _check.integer(kind, "kind")
        target = _check.integer(target, "target")
        if not 0 <= k < _lib.KINDS or not 0 <= target < _lib.MAX_PLAYERS:
            raise FigaroError("no such play: kind %r in front of seat %r" % (kind, target))
        return cls.from_code(k | target << 5)

    @classmethod
    def parse(cls, text, actor=-1):
        """Parses "R2>1", "J1>0", "RING" (actor's own pile) or "take"."""
        raw = _check.text(text, "an action").strip().encode()
        actor = _check.in_range(actor, -1, _lib.MAX_PLAYERS - 1, "actor")
        a = core.fig_act_parse(raw, len(raw), actor)
        if a == _lib.ACT_NONE:
            raise FigaroError("'%s' is not an action (e.g. R2>1, J1>0, RING, take)" % text)
        return cls.from_code(a)

    @property
    def is_take(self):
        return self._code == _lib.ACT_TAKE

    @property
    def kind(self):
        return None if self.is_take else KINDS[self._code & 31]

    @property
    def target(self):
        return None if self.is_take else self._code >> 5 & 7

    def __eq__(self, other):
        return isinstance(other, Action) and other._code == self._code

    def __hash__(self):
        return hash(("figaro.Action", self._code))

    def __str__(self):
        if self.is_take:
            return "take"
        if self._code & 31 == 17:
            return "RING"
        return "%s>%d" % (KINDS[self._code & 31], self._code >> 5 & 7)

    def __repr__(self):
        return "Action(%s)" % self


_ACTIONS = {}     # code -> Action: actions are immutable, one object per code


def _made(code):
    """The Action of a code the engine gave (no checks: the fast path)."""
    a = _ACTIONS.get(code)
    if a is None:
        a = _ACTIONS[code] = object.__new__(Action)
        a._code = code
    return a


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
        players = _check.players(players)
        c = _lib.Setup()
        core.fig_setup_random(ctypes.byref(c), players, _check.seed(seed), None)
        return cls._from_c(c)

    @classmethod
    def _from_c(cls, c):
        n = c.players
        return cls(n, c.king, [list(c.roads[r][:n - 1]) for r in range(3)],
                   COLOURS[c.removed] if n == 3 and 0 <= c.removed < 5 else None,
                   c.seed if c.has_seed else None)

    def _to_c(self):
        """The checked fig_setup_t; raises FigaroError with the engine's reason."""
        c = _lib.Setup()
        c.players = _check.players(self.players)
        c.king = _check.in_range(self.king, 0, 5, "king")
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
                c.roads[r][i] = _check.in_range(length, 0, 65535, "a road length")
        if self.seed is not None:
            c.seed = _check.seed(self.seed)
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
        """The seat to move; -1 when no one is (a round to deal, or the game
        over), as BatchEnv's turn says."""
        return self._c.turn if self._c.phase == _lib.PHASE_PLAY else -1

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
        seat = _check.seat(seat, self.players)
        return tuple(self._c.road[seat][:self._c.nroad[seat]])

    def road_length(self, seat):
        return sum(self.roads(seat))

    @property
    def road_groups(self):
        n = self.players - 1
        return tuple(tuple(self._c.group[r][:n]) for r in range(3))

    def _text(self, hands, me=None):
        """The position as lines of text: the public table, and the hands
        given (hands[s]: card codes, or None for a hidden hand)."""
        c = self._c
        head = "%d players, round %d of 3, %s" % (c.players, c.round, self.phase)
        if c.phase == _lib.PHASE_PLAY:
            head += ", seat %d to move" % c.turn
        head += "; King: seat %d; %d face-up cards on the table" % (c.king, c.table_cards)
        if c.players == 3 and c.removed < 5:
            head += "; %s left out" % COLOURS[c.removed]
        lines = [head, "road pieces: " + " / ".join(" ".join(map(str, g)) for g in
                                                   self.road_groups)]
        for s in range(c.players):
            p = Pile(c.pile[s])
            hand = "%d card%s" % (c.hand_size[s], "" if c.hand_size[s] == 1 else "s") \
                if hands[s] is None else \
                "hand %s" % (" ".join(hands[s]) or "-")
            pile = "%s %d: %s" % (p.colour or "no colour", p.total, " ".join(p.cards)) \
                if p.cards else "-"
            road = self.roads(s)
            lines.append("seat %d%s: %s | pile %s | collected %d | road %s" % (
                s, " (me)" if s == me else "", hand, pile, c.stack[s],
                "%s = %d" % (" + ".join(map(str, road)), sum(road)) if road else "-"))
        return lines


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
        return _hand_tuple(self._c.hand[_check.seat(seat, self.players)])

    def deal(self, hands=None, seed=None):
        """Deals the next round: the given hands (one list of codes or string
        per seat, checked against the deck, R4), or a shuffle from seed."""
        if self._c.phase != _lib.PHASE_DEAL:
            raise FigaroError("round %d is not waiting for a deal" % self.round, "state")
        if hands is None:
            rng = Rng(0 if seed is None else seed)
            core.fig_state_deal(ctypes.byref(self._c), ctypes.byref(rng._c))
            return
        arr = _hands_c(hands, self.players)
        msg = _lib.Msg()
        rc = core.fig_state_deal_hands(ctypes.byref(self._c), arr, ctypes.byref(msg))
        if rc:
            _raise(rc, msg)

    def legal_actions(self):
        """The legal actions of the seat to move, in the engine's order."""
        buf = (ctypes.c_uint16 * _lib.MAX_ACTIONS)()
        n = core.fig_state_legal(ctypes.byref(self._c), buf)
        return [_made(code) for code in buf[:n]]

    def check(self, action):
        """None if action (see play) is legal for the seat to move, else the
        reason."""
        msg = _lib.Msg()
        try:
            code = _action(action, self._c)
        except FigaroError as e:
            return str(e)
        if core.fig_state_check(ctypes.byref(self._c), code, ctypes.byref(msg)):
            return msg.text.decode()
        return None

    def apply(self, action):
        """Plays action for the seat to move: an Action, FGN text ("R2>1") or
        an int, which is an index of the action mask. Returns the events.
        Raises FigaroError with the engine's message, the state unchanged."""
        ev = _lib.Events()
        msg = _lib.Msg()
        rc = core.fig_state_apply(ctypes.byref(self._c), _action(action, self._c),
                                  ctypes.byref(ev), ctypes.byref(msg))
        if rc:
            _raise(rc, msg)
        return _events(ev, self.players)

    def random_action(self, rng):
        """A uniformly random legal action, drawn from rng (an Rng)."""
        if not isinstance(rng, Rng):
            raise TypeError("rng must be a figaro.Rng, not %s" % type(rng).__name__)
        if self._c.phase != _lib.PHASE_PLAY:
            raise FigaroError("no action: the game is not in a round's play", "state")
        return _made(core.fig_state_random_action(ctypes.byref(self._c), ctypes.byref(rng._c)))

    def ranking(self):
        """Seats from winner to last (R13: shortest road first). Only at the
        end: FigaroError (kind "state") before, when there is no ranking."""
        if self._c.phase != _lib.PHASE_OVER:
            raise FigaroError("the game is not over: no ranking yet (round %d, %s)" % (
                self.round, self.phase), "state")
        out = (ctypes.c_int * _lib.MAX_PLAYERS)()
        core.fig_state_ranking(ctypes.byref(self._c), out)
        return list(out[:self.players])

    def rewards(self):
        """Each seat's reward: at the end +1 for the winner down to -1 for the
        last (1 - 2 * rank / (players - 1), as the batch reports them); all
        0.0 before the end (as OpenSpiel's returns())."""
        out = (ctypes.c_float * _lib.MAX_PLAYERS)()
        if self._c.phase == _lib.PHASE_OVER:
            core.fig_batch_rewards(ctypes.byref(self._c), out)
        return list(out[:self.players])

    def view(self, seat):
        """What seat may know (R14)."""
        v = View()
        core.fig_view_of(ctypes.byref(self._c), _check.seat(seat, self.players),
                         ctypes.byref(v._c))
        return v

    def information_state_string(self, seat):
        """What seat knows, as text (its view: own hand, the table, the cards
        seen and unseen); the same for two states that differ only in the
        other seats' hands."""
        return str(self.view(seat))

    def observation(self, seat=None, out=None):
        """The observation vector of seat (default: the seat to move), from its
        view only; layout in docs/python.md. A float32 numpy array when numpy
        is installed (else a ctypes float array); out, if given, is filled:
        a float32 array of OBS_SIZE items, C-contiguous and writable."""
        if seat is None:
            if self.turn < 0:
                raise FigaroError("no seat is to move (%s): name the seat" % self.phase,
                                  "state")
            seat = self.turn
        return self.view(seat).observation(out)

    def action_mask(self, out=None):
        """True at the index of every legal action of the seat to move, over
        the fixed action space of NUM_ACTIONS indices (bool numpy array, or a
        ctypes byte array without numpy); out, if given, is filled: a bool
        (or uint8) array of NUM_ACTIONS items, C-contiguous and writable.
        All False when no one is to move."""
        if out is None:
            out = _np.zeros(NUM_ACTIONS, dtype=bool) if _np is not None else \
                (ctypes.c_uint8 * NUM_ACTIONS)()
        addr = _check.out_buffer(out, NUM_ACTIONS, ("bool", "uint8"))
        core.fig_obs_mask(ctypes.byref(self._c), ctypes.c_void_p(addr))
        return out

    def action_index(self, action):
        """The mask index of action (an Action or FGN text) for the seat to move."""
        if not isinstance(action, (Action, str)):
            raise TypeError("action_index takes an Action or FGN text, not %s" %
                            type(action).__name__)
        code = _action(action, self._c)
        i = core.fig_obs_index(code, self._c.turn, self._c.players)
        if i < 0 or self._c.phase != _lib.PHASE_PLAY:
            raise FigaroError("%s has no index: %s" % (
                Action.from_code(code), "no seat is to move" if self.turn < 0 else
                "not an action of a %d-player game" % self.players))
        return i

    def action_at(self, index):
        """The Action a mask index stands for, for the seat to move."""
        return Action.from_code(_index(index, self._c))

    def __eq__(self, other):
        return isinstance(other, State) and bytes(self._c) == bytes(other._c)

    def __hash__(self):
        return hash(bytes(self._c))

    def __str__(self):
        return "\n".join(self._text([self.hand(s) for s in range(self.players)]))

    def __repr__(self):
        return "<figaro.State %s>" % str(self).replace("\n", "\n  ")


def _hands_c(hands, players):
    """One hand per seat (a list of codes or one string each) as fig_hand_t[6]."""
    if isinstance(hands, str) or len(hands) != players:
        raise FigaroError("%d hands for %d players: give one hand per seat" % (
            1 if isinstance(hands, str) else len(hands), players))
    arr = (_lib.Hand * _lib.MAX_PLAYERS)()
    for s, h in enumerate(hands):
        arr[s] = _hand_c(h)
    return arr


def _index(index, c):
    """A mask index checked for the seat to move of state c: its engine code."""
    i = _check.integer(index, "an action index")
    if c.phase != _lib.PHASE_PLAY:
        raise FigaroError("no seat is to move (the game is %s): index %d stands for no "
                          "action" % (PHASES[c.phase], i), "state")
    a = core.fig_obs_action(i, c.turn, c.players) if 0 <= i < NUM_ACTIONS else _lib.ACT_NONE
    if a == _lib.ACT_NONE:
        raise FigaroError("%d is not an action index of a %d-player game (the mask's "
                          "indices, 0 to %d)" % (i, c.players, NUM_ACTIONS - 1))
    return a


def _action(a, c):
    """An action for the seat to move of state c as the engine's code: an
    Action, FGN text ("R2>1"), or an int (a mask index, see _index); floats
    and bools are refused."""
    if isinstance(a, Action):
        return a.code
    if isinstance(a, str):
        return Action.parse(a, c.turn if c.phase == _lib.PHASE_PLAY else -1).code
    return _index(a, c)


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
        rng = Rng(_check.seed(seed))
        core.fig_view_sample(ctypes.byref(self._c), ctypes.byref(rng._c), ctypes.byref(st._c))
        return st

    def observation(self, out=None):
        """The seat's observation vector (see State.observation; out: a
        float32 array of OBS_SIZE items, C-contiguous and writable)."""
        if out is None:
            out = _float_array(OBS_SIZE)
        addr = _check.out_buffer(out, OBS_SIZE, ("float32",))
        core.fig_obs_encode(ctypes.byref(self._c), ctypes.c_void_p(addr))
        return out

    def information_state_string(self):
        """What the seat knows, as text: str(view)."""
        return str(self)

    def __eq__(self, other):
        return isinstance(other, View) and bool(core.fig_view_equal(ctypes.byref(self._c),
                                                                   ctypes.byref(other._c)))

    def __str__(self):
        hands = [self.hand if s == self.seat else None for s in range(self.players)]
        lines = ["seat %d's view" % self.seat] + self._text(hands, self.seat)
        lines.append("seen this round: " + (" ".join(self.seen) or "-"))
        lines.append("unseen (the other hands together): " + (" ".join(self.unseen) or "-"))
        return "\n".join(lines)

    def __repr__(self):
        return "<figaro.View %s>" % str(self).replace("\n", "\n  ")


class Rng:
    """The engine's generator (xoshiro256**), seeded as the C code seeds it:
    Rng(seed) or Rng(seed, stream) (fig_rng_seed_stream)."""

    __slots__ = ("_c",)

    def __init__(self, seed, stream=None):
        self._c = _lib.Rng()
        seed = _check.seed(seed)
        if stream is None:
            core.fig_rng_seed(ctypes.byref(self._c), seed)
        else:
            core.fig_rng_seed_stream(ctypes.byref(self._c), seed, _check.seed(stream, "stream"))


def seed_derive(seed, salt, stream):
    """fig_seed_derive: the one seed derivation of every layer."""
    return core.fig_seed_derive(_check.seed(seed), _check.seed(salt, "salt"),
                                _check.seed(stream, "stream"))


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
        elif not isinstance(setup, Setup):
            raise TypeError("setup must be a figaro.Setup, not %s" % type(setup).__name__)
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
        if not isinstance(text, (str, bytes)):
            raise TypeError("a record is text (str or bytes), not %s" % type(text).__name__)
        raw = text.encode("utf-8") if isinstance(text, str) else text
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
        if isinstance(names, str) or len(names) != self.players:
            raise FigaroError("%d names for %d players" % (
                1 if isinstance(names, str) else len(names), self.players))
        raws = [_check.text(name, "a name").encode("utf-8") for name in names]
        for name, raw in zip(names, raws):
            # FGN's names line is one word per seat (fgn.md): the bytes of
            # fig_fgn_name_byte_ok (include/figaro/fgn.h), by which the server
            # cleans names too.
            if not raw or len(raw) > _lib.NAME_MAX or any(b <= 0x20 or b in b"#\x7f" for b in raw):
                raise FigaroError("a name in a record has 1 to %d bytes, no space, no '#' and "
                                  "no control character: %r" % (_lib.NAME_MAX, name))
        for s, raw in enumerate(raws):
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
        """The seat to move; -1 when no one is (a round to deal, the end)."""
        return self._c.state.turn if self._c.state.phase == _lib.PHASE_PLAY else -1

    @property
    def over(self):
        return self._c.state.phase == _lib.PHASE_OVER

    @property
    def dealt(self):
        return self._c.dealt

    def hands(self, round):
        """The deal of round 1-3 (every hand: hidden information)."""
        round = _check.integer(round, "round")
        if not 1 <= round <= self._c.dealt:
            raise FigaroError("round %d has not been dealt" % round, "state")
        return [_hand_tuple(self._c.hands[round - 1][s]) for s in range(self.players)]

    def moves(self, round=None):
        """The moves as (seat, Action), of one round or of the whole game."""
        rounds = range(3) if round is None else [_check.in_range(round, 1, 3, "round") - 1]
        return [(m.seat, _made(m.action)) for r in rounds
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
            arr = _hands_c(hands, self.players)
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
        """Plays action for the seat to move and records it: an Action, FGN
        text like "R2>1", or an int, which is an index of the action mask
        (g.play(int(mask.argmax())) plays the mask's action); returns the
        events. Raises FigaroError with the engine's message (e.g. "seat 2
        cannot play B2 in front of seat 0: seat 3 already has blue"); the
        game is then unchanged."""
        ev = _lib.Events()
        msg = _lib.Msg()
        rc = core.fig_game_play(ctypes.byref(self._c), _action(action, self._c.state),
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

    def information_state_string(self, seat):
        return State(self._c.state).information_state_string(seat)

    def __str__(self):
        setup = self._c.setup
        head = "seed %d" % setup.seed if setup.has_seed else "explicit setup"
        if self.names:
            head += "; names " + " ".join(self.names)
        return head + "\n" + str(self.state)

    def __repr__(self):
        return "<figaro.Game %s>" % str(self).replace("\n", "\n  ")


def random_game(players, seed):
    """The game `figaro random-game --players N --seed S` prints: the setup
    and deals from the seed, every action uniformly random from stream 4."""
    g = Game(players, seed)
    rng = Rng(seed, 4)
    while not g.over:
        g.play(g.state.random_action(rng))
    return g
