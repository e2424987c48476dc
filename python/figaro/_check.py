# SPDX-License-Identifier: MIT
"""The checks of every value the package hands to C (docs/python.md, "One meaning").

One rule each, used by every class: an integer argument is a Python int or a
numpy integer, never a bool or a float (TypeError); a seed is 0 to 2**64-1;
an index or a seat out of range is a FigaroError (a ValueError) that says
what and where. A buffer given as `out=` is the exact type, size and layout
the C function writes (ValueError / TypeError otherwise): C never writes
past it or into memory that is not writable.
"""

import ctypes
import operator

try:
    import numpy as _np
except ImportError:          # numpy is optional
    _np = None

SEED_MAX = (1 << 64) - 1


class FigaroError(ValueError):
    """The engine refused something; str(e) is its message for people.

    kind is "input" (malformed or illegal: a move, a record, a setup, an
    argument), "state" (the call does not fit the game's phase) or "space";
    line is the 1-based line of a record (FGN) that was refused, else 0."""

    def __init__(self, message, kind="input", line=0):
        super().__init__(message)
        self.kind = kind
        self.line = line


FigaroError.__module__ = "figaro"     # as users name it: figaro.FigaroError


def integer(value, what):
    """value as a Python int: an int or a numpy integer, not a bool or float."""
    if isinstance(value, bool) or (_np is not None and isinstance(value, _np.bool_)):
        raise TypeError("%s must be an integer, not a bool (%r)" % (what, value))
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s must be an integer, not %s (%r)" % (
            what, type(value).__name__, value)) from None


def in_range(value, low, high, what):
    """integer(value) checked to be low..high (inclusive): FigaroError if not."""
    v = integer(value, what)
    if not low <= v <= high:
        raise FigaroError("%s must be %d to %d, not %d" % (what, low, high, v))
    return v


def seed(value, what="seed"):
    """A seed: an integer 0 to 2**64-1, the same rule for Game, Rng, BatchEnv,
    bots and samples (no silent wrap of -1 or 2**64)."""
    return in_range(value, 0, SEED_MAX, what)


def players(value):
    v = integer(value, "players")
    if not 3 <= v <= 6:
        raise FigaroError("Figaro is played by 3 to 6 players, not %d" % v)
    return v


def seat(value, n_players, what="seat"):
    v = integer(value, what)
    if not 0 <= v < n_players:
        raise FigaroError("%s %d does not exist with %d players (seats 0 to %d)" % (
            what, v, n_players, n_players - 1))
    return v


def text(value, what):
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    return value


_CTYPES = {"float32": ctypes.c_float, "bool": ctypes.c_uint8, "uint8": ctypes.c_uint8}


def out_buffer(out, n, dtypes, what="out"):
    """The address of a caller's buffer that C will fill with n items, after
    checking it: a numpy array of one of dtypes ("float32", "bool",
    "uint8"), n items, C-contiguous and writable; or (without numpy, or
    from ctypes) a ctypes array of the matching C type and length n."""
    if _np is not None and isinstance(out, _np.ndarray):
        if out.dtype.name not in dtypes:
            raise TypeError("%s must have dtype %s, not %s" % (
                what, " or ".join(dtypes), out.dtype))
        if out.size != n:
            raise ValueError("%s must hold %d items, not %d (shape %s)" % (
                what, n, out.size, out.shape))
        if not out.flags.c_contiguous:
            raise ValueError("%s must be C-contiguous (np.ascontiguousarray)" % what)
        if not out.flags.writeable:
            raise ValueError("%s is read-only" % what)
        return out.ctypes.data
    if isinstance(out, ctypes.Array):
        ctype = _CTYPES[dtypes[0]]
        if out._type_ is not ctype:
            raise TypeError("%s must be a ctypes array of %s, not of %s" % (
                what, ctype.__name__, out._type_.__name__))
        if len(out) != n:
            raise ValueError("%s must hold %d items, not %d" % (what, n, len(out)))
        return ctypes.addressof(out)
    raise TypeError("%s must be a numpy array of %s (or a ctypes array), not %s" % (
        what, " or ".join(dtypes), type(out).__name__))
