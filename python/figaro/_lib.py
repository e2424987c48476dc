# SPDX-License-Identifier: MIT
"""Loading libfigaro (and libfigaro-ai) with ctypes, and mirrors of its structs.

The engine's structs are flat values without pointers (include/figaro/*.h),
so they are mirrored here field by field; at load time every mirror's size and
a few field offsets are compared with what the loaded library reports
(fig_abi_size, fig_abi_offset), and a mismatch refuses to run rather than read
the wrong bytes.

Where the libraries are looked for, first found wins:
  1. the directory in the environment variable FIGARO_LIBDIR;
  2. the directory written into _paths.py by `make install` (LIBDIR);
  3. figaro/_libs/ inside the package: what `pip install ./python` compiles
     and ships (python/figaro_build.py);
  4. build/ of the source tree this package sits in (python/figaro -> build);
  5. the dynamic loader's usual path (ld.so.conf, LD_LIBRARY_PATH): the
     system's libfigaro0, for Debian's python3-figaro or a package built with
     --config-settings libs=system.
libfigaro-ai is loaded only when a bot is made: the core alone needs no
threads and no libm.
"""

import ctypes
import os

from . import _paths

SOMAJOR = 0          # the soname's major version this package speaks to

u8, u16, u32, u64 = ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64
c_int = ctypes.c_int

KINDS = 18
MAX_PLAYERS = 6
ROUNDS = 3
MAX_ACTIONS = 128
MAX_EVENTS = 24
MAX_ROUND_ACTIONS = 120
NAME_MAX = 32
OBS_SIZE = 187
OBS_ACTIONS = 109
OBS_TAKE = 108
ACT_TAKE = 0x8000
ACT_NONE = 0xFFFF

ERR_OK, ERR_INPUT, ERR_STATE, ERR_SPACE = 0, 1, 2, 3
PHASE_DEAL, PHASE_PLAY, PHASE_OVER = 0, 1, 2


class Hand(ctypes.Structure):
    _fields_ = [("n", u8 * KINDS)]


class Pile(ctypes.Structure):
    _fields_ = [("colour", u8), ("total", u8), ("cards", u8), ("n", u8 * 6)]


class Setup(ctypes.Structure):
    _fields_ = [("players", c_int), ("removed", c_int), ("king", c_int),
                ("roads", (u16 * (MAX_PLAYERS - 1)) * ROUNDS),
                ("seed", u64), ("has_seed", ctypes.c_bool)]


class Public(ctypes.Structure):
    """fig_public_t: the public part of a position (R14), in states and views."""
    _fields_ = [("players", u8), ("round", u8), ("phase", u8), ("turn", u8), ("king", u8),
                ("removed", u8), ("table_cards", u8), ("colourless", u8),
                ("hand_size", u8 * MAX_PLAYERS), ("stack", u8 * MAX_PLAYERS),
                ("nroad", u8 * MAX_PLAYERS), ("pile", Pile * MAX_PLAYERS),
                ("group", (u16 * (MAX_PLAYERS - 1)) * ROUNDS),
                ("road", (u16 * ROUNDS) * MAX_PLAYERS)]


class State(ctypes.Structure):
    _anonymous_ = ("pub",)
    _fields_ = [("pub", Public), ("owner", u8 * 5), ("owned", u16),
                ("present", u32 * MAX_PLAYERS), ("hand", Hand * MAX_PLAYERS)]


class Event(ctypes.Structure):
    _fields_ = [("type", u8), ("seat", u8), ("target", u8), ("kind", u8), ("count", u8),
                ("reason", u8), ("rank", u8), ("tie", u8), ("round", u8),
                ("a", u16), ("b", u16), ("counts", u8 * MAX_PLAYERS),
                ("totals", u32 * MAX_PLAYERS)]


class Events(ctypes.Structure):
    _fields_ = [("n", c_int), ("ev", Event * MAX_EVENTS)]


class View(ctypes.Structure):
    _anonymous_ = ("pub",)
    _fields_ = [("seat", u8), ("pub", Public),
                ("hand", Hand), ("seen", Hand), ("unseen", Hand)]


class Move(ctypes.Structure):
    _fields_ = [("seat", u8), ("action", u16)]


class Game(ctypes.Structure):
    _fields_ = [("setup", Setup), ("has_names", ctypes.c_bool),
                ("names", (ctypes.c_char * (NAME_MAX + 1)) * MAX_PLAYERS),
                ("dealt", c_int), ("hands", (Hand * MAX_PLAYERS) * ROUNDS),
                ("nmoves", c_int * ROUNDS), ("moves", (Move * MAX_ROUND_ACTIONS) * ROUNDS),
                ("state", State)]


class Msg(ctypes.Structure):
    _fields_ = [("text", ctypes.c_char * 200), ("line", c_int)]


class Rng(ctypes.Structure):
    _fields_ = [("s", u64 * 4)]


class Env(ctypes.Structure):
    _fields_ = [("st", State), ("opp", Rng), ("seed", u64), ("base", u64), ("games", u32),
                ("actions", u32), ("done", u8)]


class BatchOpts(ctypes.Structure):
    _fields_ = [("players", c_int), ("seat", c_int), ("autoreset", c_int)]


class BatchOut(ctypes.Structure):
    _fields_ = [("obs", ctypes.POINTER(ctypes.c_float)), ("mask", ctypes.POINTER(u8)),
                ("turn", ctypes.POINTER(ctypes.c_int8)),
                ("reward", ctypes.POINTER(ctypes.c_float)), ("done", ctypes.POINTER(u8)),
                ("final_obs", ctypes.POINTER(ctypes.c_float))]


class MoveStat(ctypes.Structure):
    """fig_move_stat_t (bot.h): what a search learned about one root move."""
    _fields_ = [("action", u16), ("visits", u32), ("share", ctypes.c_double),
                ("win", ctypes.c_double), ("place", ctypes.c_double),
                ("collect", ctypes.c_double * MAX_PLAYERS), ("collect_next", ctypes.c_double),
                ("made_by", ctypes.c_double * MAX_PLAYERS)]


class Analysis(ctypes.Structure):
    _fields_ = [("seat", c_int), ("n", c_int), ("iterations", ctypes.c_long),
                ("moves", MoveStat * MAX_ACTIONS)]


MIRRORS = {
    "fig_hand_t": Hand, "fig_pile_t": Pile, "fig_setup_t": Setup, "fig_public_t": Public,
    "fig_state_t": State,
    "fig_event_t": Event, "fig_events_t": Events, "fig_view_t": View, "fig_move_t": Move,
    "fig_game_t": Game, "fig_msg_t": Msg, "fig_rng_t": Rng, "fig_env_t": Env,
    "fig_batch_opts_t": BatchOpts, "fig_batch_out_t": BatchOut,
}
# The ai layer's structs, checked against libfigaro-ai when it is loaded.
AI_MIRRORS = {"fig_move_stat_t": MoveStat, "fig_analysis_t": Analysis}


class LibraryError(ImportError):
    """The shared library is missing or does not match this package."""


def _candidates(name):
    """Paths (or bare sonames for the loader) to try for lib<name>.so."""
    soname = "lib%s.so.%d" % (name, SOMAJOR)
    dirs = []
    if os.environ.get("FIGARO_LIBDIR"):
        dirs.append(os.environ["FIGARO_LIBDIR"])
    if _paths.LIBDIR:
        dirs.append(_paths.LIBDIR)
    here = os.path.dirname(os.path.abspath(__file__))
    dirs.append(os.path.join(here, "_libs"))
    dirs.append(os.path.join(here, os.pardir, os.pardir, "build"))
    out = [os.path.join(d, soname) for d in dirs if os.path.exists(os.path.join(d, soname))]
    out.append(soname)
    return out


def _load(name):
    errors = []
    for path in _candidates(name):
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(str(e))
    raise LibraryError("cannot load lib%s.so.%d (build it with `make shared`, or set "
                       "FIGARO_LIBDIR): %s" % (name, SOMAJOR, "; ".join(errors)))


P = ctypes.POINTER


def _proto(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


def _declare_core(lib):
    c_char_p, c_size_t, vp = ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p
    _proto(lib, "fig_version", c_char_p)
    _proto(lib, "fig_abi_size", c_size_t, c_char_p)
    _proto(lib, "fig_abi_offset", c_size_t, c_char_p, c_char_p)
    _proto(lib, "fig_setup_random", None, P(Setup), c_int, u64, vp)
    _proto(lib, "fig_setup_check", c_int, P(Setup), P(Msg))
    _proto(lib, "fig_state_init", None, P(State), P(Setup))
    _proto(lib, "fig_state_deal", None, P(State), P(Rng))
    _proto(lib, "fig_state_deal_hands", c_int, P(State), P(Hand), P(Msg))
    _proto(lib, "fig_state_legal", c_int, P(State), P(u16))
    _proto(lib, "fig_state_check", c_int, P(State), u16, P(Msg))
    _proto(lib, "fig_state_apply", c_int, P(State), u16, P(Events), P(Msg))
    _proto(lib, "fig_state_random_action", u16, P(State), P(Rng))
    _proto(lib, "fig_state_playout", c_int, P(State), P(Rng), c_int)
    _proto(lib, "fig_state_road", c_int, P(State), c_int)
    _proto(lib, "fig_state_ranking", None, P(State), P(c_int))
    _proto(lib, "fig_view_of", None, P(State), c_int, P(View))
    _proto(lib, "fig_view_sample", None, P(View), P(Rng), P(State))
    _proto(lib, "fig_view_equal", ctypes.c_bool, P(View), P(View))
    _proto(lib, "fig_game_init", None, P(Game), P(Setup))
    _proto(lib, "fig_game_deal", c_int, P(Game), P(Hand), P(Msg))
    _proto(lib, "fig_game_deal_random", None, P(Game), P(Rng))
    _proto(lib, "fig_game_deal_seeded", None, P(Game))
    _proto(lib, "fig_game_play", c_int, P(Game), u16, P(Events), P(Msg))
    _proto(lib, "fig_fgn_read", c_int, P(Game), c_char_p, c_size_t, P(Msg))
    _proto(lib, "fig_fgn_write", c_size_t, P(Game), vp, c_size_t)
    _proto(lib, "fig_rng_seed", None, P(Rng), u64)
    _proto(lib, "fig_rng_seed_stream", None, P(Rng), u64, u64)
    _proto(lib, "fig_seed_derive", u64, u64, u64, u64)
    _proto(lib, "fig_act_format", c_char_p, u16, vp, c_size_t)
    _proto(lib, "fig_act_parse", u16, c_char_p, c_size_t, c_int)
    _proto(lib, "fig_kind_code", c_char_p, c_int)
    _proto(lib, "fig_deck", None, P(Hand), c_int, c_int)
    _proto(lib, "fig_hand_cards", c_int, c_int)
    _proto(lib, "fig_obs_encode", None, P(View), vp)
    _proto(lib, "fig_obs_of", None, P(State), c_int, vp)
    _proto(lib, "fig_obs_index", c_int, u16, c_int, c_int)
    _proto(lib, "fig_obs_action", u16, c_int, c_int, c_int)
    _proto(lib, "fig_obs_mask", c_int, P(State), vp)
    _proto(lib, "fig_env_size", c_size_t)
    _proto(lib, "fig_batch_check", c_int, P(BatchOpts), P(Msg))
    _proto(lib, "fig_batch_reset", c_int, vp, c_int, P(BatchOpts), vp, P(BatchOut), P(Msg))
    _proto(lib, "fig_batch_step", c_int, vp, c_int, P(BatchOpts), vp, P(BatchOut), P(Msg))
    _proto(lib, "fig_batch_rewards", None, P(State), vp)


def _declare_ai(lib):
    vp, c_char_p = ctypes.c_void_p, ctypes.c_char_p
    _proto(lib, "fig_bot_new", c_int, P(vp), c_char_p, u64, P(Msg))
    _proto(lib, "fig_bot_free", None, vp)
    _proto(lib, "fig_bot_spec", c_char_p, vp)
    _proto(lib, "fig_bot_game", c_int, vp, P(Setup), c_int, P(Msg))
    _proto(lib, "fig_bot_round", c_int, vp, P(Hand), P(Msg))
    _proto(lib, "fig_bot_move", c_int, vp, u16, P(Msg))
    _proto(lib, "fig_bot_game_over", None, vp)
    _proto(lib, "fig_bot_choose", u16, vp, c_int)
    _proto(lib, "fig_bot_overrules", c_int, vp)
    _proto(lib, "fig_bot_analysis", ctypes.c_bool, vp, P(Analysis))
    _proto(lib, "fig_ai_abi_size", ctypes.c_size_t, c_char_p)
    _proto(lib, "fig_ai_abi_offset", ctypes.c_size_t, c_char_p, c_char_p)
    _proto(lib, "fig_bot_batch_new", c_int, P(vp), c_int, P(BatchOpts), c_char_p, P(Msg))
    _proto(lib, "fig_bot_batch_free", None, vp)
    _proto(lib, "fig_bot_batch_reset", c_int, vp, vp, P(BatchOut), P(Msg))
    _proto(lib, "fig_bot_batch_step", c_int, vp, vp, P(BatchOut), P(Msg))
    _proto(lib, "fig_bot_batch_envs", vp, vp)


def _check_abi(lib, mirrors=None, size_of=None, offset_of=None):
    """Raises LibraryError if a mirror's size or a listed offset differs
    (size_of, offset_of: the library's fig_abi_size and fig_abi_offset, or
    the ai layer's fig_ai_abi_*)."""
    size_of = size_of or lib.fig_abi_size
    offset_of = offset_of or lib.fig_abi_offset
    problems = []
    for cname, mirror in (MIRRORS if mirrors is None else mirrors).items():
        size = size_of(cname.encode())
        if size != ctypes.sizeof(mirror):
            problems.append("%s is %d bytes, the mirror %d" % (cname, size,
                                                              ctypes.sizeof(mirror)))
            continue
        for fname, _ in mirror._fields_:
            off = offset_of(cname.encode(), fname.encode())
            if off != ctypes.c_size_t(-1).value and off != getattr(mirror, fname).offset:
                problems.append("%s.%s at %d, the mirror at %d" % (
                    cname, fname, off, getattr(mirror, fname).offset))
    if problems:
        raise LibraryError("%s does not match this package: %s" % (
            os.path.basename(lib._name), "; ".join(problems)))


core = _load("figaro")
_declare_core(core)
_check_abi(core)
core_path = os.path.normpath(core._name)

_ai = None


def ai():
    """libfigaro-ai, loaded on first use (after the core, whose soname it needs)."""
    global _ai
    if _ai is None:
        lib = None
        for path in _candidates("figaro-ai"):
            try:
                lib = ctypes.CDLL(path)
                break
            except OSError:
                continue
        if lib is None:
            lib = _load("figaro-ai")   # raises with every reason
        _declare_ai(lib)
        _check_abi(lib, AI_MIRRORS, lib.fig_ai_abi_size, lib.fig_ai_abi_offset)
        _ai = lib
    return _ai
