"""`pip install --no-build-isolation ./python` into a fresh virtual
environment (python3 -m venv --system-site-packages: Debian's setuptools and
wheel, no network), then the package used from outside the source tree:
once finding the system's libfigaro through the dynamic loader (as a
package installed by pip or Debian does; LD_LIBRARY_PATH stands for
/usr/lib here), once with the libraries it ships (FIGARO_BUNDLE_LIBDIR)."""
import json
import os
import shutil
import subprocess

import pytest

import figaro

# Run by the venv's python from a scratch folder: which figaro, which
# libfigaro (read from the process's own memory map), the version, the
# installed metadata, and a little of everything.
PROBE = r"""
import importlib.metadata, json, os, sys
import figaro
from figaro.envs import FigaroGym
g = figaro.Game(4, 7)
with figaro.Bot("greedy", seed=1) as bot:
    a = bot.choose(g)
env = FigaroGym(players=4, seat=0, opponents="greedy")
obs, info = env.reset(seed=3)
maps = open("/proc/self/maps").read().split("\n")
libs = sorted({line.split()[-1] for line in maps if "libfigaro" in line})
print(json.dumps({"file": figaro.__file__, "version": figaro.__version__,
                  "metadata": importlib.metadata.version("figaro"), "libs": libs,
                  "action": str(a), "obs": len(obs)}))
"""


def run(cmd, **kw):
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert out.returncode == 0, "%s\n%s\n%s" % (" ".join(cmd), out.stdout, out.stderr)
    return out.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory, root):
    base = tmp_path_factory.mktemp("install")
    # a copy of what pip needs (python/ and the header with the version), so
    # that the build leaves nothing in the source tree
    src = base / "src"
    shutil.copytree(os.path.join(root, "python"), src / "python",
                    ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    os.makedirs(src / "include" / "figaro")
    shutil.copy(os.path.join(root, "include", "figaro", "figaro.h"), src / "include" / "figaro")
    run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(base / "venv")])
    return base, src


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "FIGARO_LIBDIR", "LD_LIBRARY_PATH", "FIGARO_BUNDLE_LIBDIR")}
    env.update(extra, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def install(base, src, **extra):
    py = str(base / "venv" / "bin" / "python")
    run([py, "-m", "pip", "install", "-q", "--no-build-isolation", "--force-reinstall",
         "--no-deps", "./python"], cwd=src, env=clean_env(**extra))
    return py


def probe(base, py, **extra):
    work = base / "elsewhere"
    work.mkdir(exist_ok=True)
    return json.loads(run([py, "-c", PROBE], cwd=work, env=clean_env(**extra)))


def test_pip_install_finds_the_systems_library(venv):
    base, src = venv
    libdir = os.path.dirname(os.path.realpath(figaro._lib.core._name))
    py = install(base, src)
    got = probe(base, py, LD_LIBRARY_PATH=libdir)
    site = str(base / "venv" / "lib")
    assert got["file"].startswith(site) and "/src/" not in got["file"]
    assert got["version"] == got["metadata"] == figaro.__version__
    assert got["libs"] == sorted(os.path.join(libdir, "lib%s.so.%s" % (n, figaro.__version__))
                                 for n in ("figaro", "figaro-ai"))
    assert got["action"] and got["obs"] == figaro.OBS_SIZE
    assert not os.path.exists(src / "python" / "figaro" / "_libs")
    # without any libfigaro to find, the import says what is missing and how to fix it
    out = subprocess.run([py, "-c", "import figaro"], capture_output=True, text=True,
                         cwd=base, env=clean_env())
    if out.returncode != 0:          # (a machine with libfigaro0 installed finds it)
        assert "cannot load libfigaro.so.0" in out.stderr and "FIGARO_LIBDIR" in out.stderr


def test_pip_install_can_ship_the_libraries(venv):
    base, src = venv
    libdir = os.path.dirname(os.path.realpath(figaro._lib.core._name))
    py = install(base, src, FIGARO_BUNDLE_LIBDIR=libdir)
    got = probe(base, py)            # no FIGARO_LIBDIR, no LD_LIBRARY_PATH
    shipped = os.path.join(os.path.dirname(got["file"]), "_libs")
    assert got["libs"] == [os.path.join(shipped, "libfigaro-ai.so.0"),
                           os.path.join(shipped, "libfigaro.so.0")]
    assert got["version"] == got["metadata"] == figaro.__version__
