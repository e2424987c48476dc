# SPDX-License-Identifier: MIT
"""figaro - Reiner Knizia's card game Figaro: the rules engine from Python.

A ctypes binding of libfigaro (the exact C rules engine) and libfigaro-ai (the
built-in bots), no extension module. docs/python.md is the guide:

    import figaro
    g = figaro.Game(players=4, seed=12345)     # setup and deals from the seed
    while not g.over:
        g.play(g.legal_actions()[0])           # raises FigaroError if illegal
    print(g.to_fgn())

    env = figaro.BatchEnv(1024, players=4, seat=0)   # many games, stepped in C
    obs, mask = env.reset(range(1024))
"""

from ._lib import LibraryError, core_path
from .game import (COLOURS, EVENT_TYPES, KINDS, NUM_ACTIONS, OBS_SIZE, TAKE_INDEX, Action,
                   Event, FigaroError, Game, Pile, Rng, Setup, State, View, kind_index,
                   random_game, seed_derive)
from .env import BatchEnv
from .bots import Analysis, Bot, play_game
from . import _lib as _l

__version__ = _l.core.fig_version().decode()

__all__ = ["Action", "Analysis", "BatchEnv", "Bot", "COLOURS", "EVENT_TYPES", "Event", "FigaroError", "Game",
           "KINDS", "LibraryError", "NUM_ACTIONS", "OBS_SIZE", "Pile", "Rng", "Setup", "State",
           "TAKE_INDEX", "View", "core_path", "kind_index", "play_game", "random_game",
           "seed_derive"]
