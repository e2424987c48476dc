# SPDX-License-Identifier: MIT
"""The package as pip installs it: `python3 -m venv venv && venv/bin/pip
install ./python` in a fresh virtual environment, with no network (no index),
no FIGARO_* variable, no LD_LIBRARY_PATH and no libfigaro installed for it:
building compiles libfigaro and libfigaro-ai from this source tree and ships
them in the package (python/figaro_build.py), which then plays from a folder
outside the tree. `pip wheel ./python` gives a wheel that installs the same
way into another environment; --config-settings libs=system builds a package
that loads the system's library instead; bad options are refused in words.
The source tree is left as it was."""
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

import figaro

PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable

# Run by the venv's python from a scratch folder: which figaro, which
# libfigaro (read from the process's own memory map), the version, the
# installed metadata, and a whole game: greedy and random bots one game at a
# time, then a batch against C greedy bots.
PROBE = r"""
import importlib.metadata, json, sys
import figaro
g = figaro.Game(4, 7)
bots = [figaro.Bot("greedy", seed=1), figaro.Bot("random", seed=2),
        figaro.Bot("greedy", seed=3), figaro.Bot("random", seed=4)]
ranking = figaro.play_game(g, bots)
env = figaro.BatchEnv(8, players=4, seat=0, opponents="greedy")
obs, mask = env.reset(range(8))
finished = 0
while finished < 8:
    actions = [next(i for i in range(figaro.NUM_ACTIONS) if mask[r][i]) for r in range(8)]
    obs, rewards, done, mask = env.step(actions)
    finished += sum(bool(d) for d in done)
env.close()
maps = open("/proc/self/maps").read().split("\n")
libs = sorted({line.split()[-1] for line in maps if "libfigaro" in line})
print(json.dumps({"file": figaro.__file__, "version": figaro.__version__,
                  "metadata": importlib.metadata.version("figaro"), "libs": libs,
                  "over": g.over, "ranking": list(ranking), "fgn": g.to_fgn(),
                  "numpy": "numpy" in sys.modules}))
"""


def run(cmd, ok=True, **kw):
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if ok:
        assert out.returncode == 0, "%s\n%s\n%s" % (" ".join(cmd), out.stdout, out.stderr)
    return out


def clean_env(**extra):
    """The caller's environment without anything that could point the package
    at a library, or pip at packages (PIP_NO_INDEX: building needs nothing
    from an index)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("FIGARO", "PIP_")) and k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    env.update(extra, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def tree(root):
    """The files of python/ and the shared libraries of build/ with their
    times: what a build could leave or touch in the source tree."""
    out = {}
    for top in ("python",):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [x for x in dirs if x != "__pycache__"]
            for f in files + dirs:
                p = os.path.join(d, f)
                out[p] = os.stat(p).st_mtime_ns
    build = os.path.join(root, "build")
    for f in os.listdir(build) if os.path.isdir(build) else []:
        if f.startswith("libfigaro") and ".so" in f:
            p = os.path.join(build, f)
            out[p] = os.lstat(p).st_mtime_ns
    return out


def libdir_of_tests():
    """The libraries the rest of the tests load (build/ of the tree)."""
    return os.path.dirname(os.path.realpath(figaro._lib.core._name))


def probe(py, where, **extra):
    os.makedirs(where, exist_ok=True)
    got = json.loads(run([py, "-c", PROBE], cwd=where, env=clean_env(**extra)).stdout)
    assert got["over"] and sorted(got["ranking"]) == [0, 1, 2, 3]
    assert got["version"] == got["metadata"] == figaro.__version__
    return got


def shipped(got):
    d = os.path.join(os.path.dirname(got["file"]), "_libs")
    return [os.path.join(d, "libfigaro-ai.so.0"), os.path.join(d, "libfigaro.so.0")]


@pytest.fixture(scope="module")
def venv(tmp_path_factory, root):
    """A fresh venv (Debian's python3, its pip, nothing else) with the package
    installed from the source tree by the plain command."""
    base = tmp_path_factory.mktemp("install")
    before = tree(root)
    run([PYTHON, "-m", "venv", str(base / "venv")], env=clean_env())
    py = str(base / "venv" / "bin" / "python")
    run([py, "-m", "pip", "install", "./python"], cwd=root, env=clean_env())
    assert tree(root) == before, "the build changed the source tree"
    return base, py


def test_pip_install_compiles_and_ships_the_libraries(venv, figaro_cmd):
    base, py = venv
    got = probe(py, str(base / "elsewhere"))
    site = str(base / "venv" / "lib")
    assert got["file"].startswith(site) and got["file"].endswith("/figaro/__init__.py")
    assert got["libs"] == shipped(got)
    assert not got["numpy"]          # the plain venv has none: the core API needs none
    # the same engine as the command: game 7 with these bots, checked by it
    fgn = base / "game.fgn"
    fgn.write_text(got["fgn"])
    run([figaro_cmd, "replay", str(fgn)])
    # FIGARO_LIBDIR still comes first: another build of the library is a choice
    libdir = libdir_of_tests()
    again = probe(py, str(base / "elsewhere"), FIGARO_LIBDIR=libdir)
    assert again["libs"] == [os.path.join(libdir, "lib%s.so.%s" % (n, figaro.__version__))
                             for n in ("figaro-ai", "figaro")]
    assert again["fgn"] == got["fgn"]


def test_pip_wheel_installs_elsewhere(venv, root, tmp_path):
    base, py = venv
    before = tree(root)
    run([py, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "dist"), "./python"],
        cwd=root, env=clean_env())
    assert tree(root) == before
    wheels = os.listdir(tmp_path / "dist")
    assert wheels == ["figaro-%s-py3-none-linux_x86_64.whl" % figaro.__version__]
    with zipfile.ZipFile(tmp_path / "dist" / wheels[0]) as z:
        names = set(z.namelist())
        assert {"figaro/__init__.py", "figaro/_libs/libfigaro.so.0",
                "figaro/_libs/libfigaro-ai.so.0"} <= names
        assert not any(n.startswith("figaro_build") for n in names)
        assert "Root-Is-Purelib: false" in z.read("figaro-%s.dist-info/WHEEL" %
                                                    figaro.__version__).decode()
    # moved away from the tree, into an environment that also sees Debian's numpy
    away = tmp_path / "away"
    away.mkdir()
    shutil.move(str(tmp_path / "dist" / wheels[0]), str(away))
    run([PYTHON, "-m", "venv", "--system-site-packages", str(tmp_path / "venv2")],
        env=clean_env())
    py2 = str(tmp_path / "venv2" / "bin" / "python")
    run([py2, "-m", "pip", "install", "--no-deps", str(away / wheels[0])], cwd=str(away),
        env=clean_env())
    got = probe(py2, str(tmp_path / "elsewhere"))
    assert got["file"].startswith(str(tmp_path / "venv2")) and got["libs"] == shipped(got)


def test_libs_system_loads_the_systems_library(venv, root, tmp_path):
    base, _ = venv
    run([PYTHON, "-m", "venv", str(tmp_path / "venv")], env=clean_env())
    py = str(tmp_path / "venv" / "bin" / "python")
    run([py, "-m", "pip", "install", "--config-settings", "libs=system", "./python"],
        cwd=root, env=clean_env())
    pkg = json.loads(run([py, "-c", "import importlib.util, json; print(json.dumps("
                                    "importlib.util.find_spec('figaro').origin))"],
                         cwd=str(tmp_path), env=clean_env()).stdout)
    assert not os.path.exists(os.path.join(os.path.dirname(pkg), "_libs"))
    # the loader's path stands for /usr/lib here
    libdir = libdir_of_tests()
    got = probe(py, str(tmp_path / "elsewhere"), LD_LIBRARY_PATH=libdir)
    assert got["libs"] == [os.path.join(libdir, "lib%s.so.%s" % (n, figaro.__version__))
                           for n in ("figaro-ai", "figaro")]
    # without any libfigaro to find, the import says what is missing and how to fix it
    out = run([py, "-c", "import figaro"], ok=False, cwd=str(tmp_path), env=clean_env())
    if out.returncode != 0:          # (a machine with libfigaro0 installed finds it)
        assert "cannot load libfigaro.so.0" in out.stderr and "FIGARO_LIBDIR" in out.stderr


def test_libdir_ships_libraries_already_built(venv, root, tmp_path):
    base, py = venv
    libdir = libdir_of_tests()
    run([py, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), "--config-settings",
         "libdir=" + libdir, "./python"], cwd=root, env=clean_env())
    (whl,) = [f for f in os.listdir(tmp_path) if f.endswith(".whl")]
    with zipfile.ZipFile(tmp_path / whl) as z:
        with open(os.path.join(libdir, "libfigaro.so.0"), "rb") as f:
            assert z.read("figaro/_libs/libfigaro.so.0") == f.read()


@pytest.mark.parametrize("option, words", [
    ("libs=static", "libs=static: give libs=build"),
    ("colour=red", "unknown build option colour"),
    ("libdir=/nonexistent", "libdir=/nonexistent has no libfigaro.so.0"),
])
def test_bad_build_options_are_refused_in_words(venv, root, tmp_path, option, words):
    base, py = venv
    out = run([py, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), "--config-settings",
               option, "./python"], ok=False, cwd=root, env=clean_env())
    assert out.returncode != 0 and words in out.stdout + out.stderr
    assert os.listdir(tmp_path) == []


def test_without_make_the_build_says_what_it_needs(venv, root, tmp_path):
    base, py = venv
    out = run([py, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), "./python"],
              ok=False, cwd=root, env=clean_env(PATH=str(tmp_path)))
    assert out.returncode != 0
    assert "building libfigaro needs make and a C compiler" in out.stdout + out.stderr
    assert os.listdir(tmp_path) == []
