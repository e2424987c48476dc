# SPDX-License-Identifier: MIT
"""The shared libraries: exports, sonames, dependencies, and the binding's
check of its struct mirrors."""
import ctypes
import os
import subprocess

import pytest

import figaro
from figaro import _lib


def libdir():
    return os.path.dirname(figaro.core_path)


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("name", ["libfigaro", "libfigaro-ai"])
def test_only_fig_symbols_are_exported(name):
    out = run("nm", "-D", "--defined-only", os.path.join(libdir(), name + ".so.0"))
    # every symbol carries the version of src/exports.map (FIGARO_0, an
    # absolute symbol of its own)
    rows = [line.split() for line in out.splitlines() if line.strip()]
    assert [r[-1] for r in rows if r[-2] == "A"] == ["FIGARO_0"]
    versioned = [r[-1] for r in rows if r[-2] != "A"]
    assert [s for s in versioned if not s.endswith("@@FIGARO_0")] == []
    symbols = [s.split("@")[0] for s in versioned]
    assert len(symbols) > 10
    assert [s for s in symbols if not s.startswith("fig_")] == []
    # the public API is there, internal helpers are not
    assert "fig_state_apply" in symbols or "fig_bot_new" in symbols


@pytest.mark.parametrize("name,needed", [
    ("libfigaro", ["libc.so.6"]),
    ("libfigaro-ai", ["libfigaro.so.0", "libm.so.6", "libc.so.6"]),
])
def test_soname_symlinks_and_dependencies(name, needed):
    d = libdir()
    real = os.path.join(d, "%s.so.%s" % (name, figaro.__version__))
    assert os.path.isfile(real) and not os.path.islink(real)
    assert os.readlink(os.path.join(d, name + ".so.0")) == os.path.basename(real)
    assert os.readlink(os.path.join(d, name + ".so")) == name + ".so.0"
    dyn = run("readelf", "-d", real)
    assert "Library soname: [%s.so.0]" % name in dyn
    got = [line.split("[")[1].rstrip("]") for line in dyn.splitlines() if "(NEEDED)" in line]
    assert sorted(got) == sorted(needed)


def test_mirrors_match_the_library():
    for cname, mirror in _lib.MIRRORS.items():
        assert _lib.core.fig_abi_size(cname.encode()) == ctypes.sizeof(mirror), cname
    _lib._check_abi(_lib.core)


def test_a_wrong_mirror_is_refused():
    class BadState(ctypes.Structure):   # one field short
        _fields_ = [f for f in _lib.State._fields_ if f[0] != "hand"]

    class BadGame(ctypes.Structure):    # same size, fields shifted
        _fields_ = [("setup", _lib.Setup), ("has_names", ctypes.c_uint8)] + \
            [f for f in _lib.Game._fields_ if f[0] not in ("setup", "has_names")]
        _pack_ = 1

    with pytest.raises(figaro.LibraryError, match="fig_state_t is"):
        _lib._check_abi(_lib.core, {"fig_state_t": BadState})
    with pytest.raises(figaro.LibraryError):
        _lib._check_abi(_lib.core, {"fig_game_t": BadGame})


def test_version_matches_the_headers(root):
    with open(os.path.join(root, "include", "figaro", "figaro.h")) as f:
        assert '#define FIG_VERSION "%s"' % figaro.__version__ in f.read()
