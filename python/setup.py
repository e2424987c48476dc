"""What pyproject.toml cannot say: the version, read from the C headers (one
source: FIG_VERSION of include/figaro/figaro.h), and, when asked, the shared
libraries shipped inside the package.

The package normally loads the libfigaro installed on the system (Debian's
libfigaro0, or `make install`; docs/python.md says where it looks). To ship
the libraries with it instead, build with FIGARO_BUNDLE_LIBDIR naming the
directory that holds libfigaro.so.0 and libfigaro-ai.so.0 (e.g. build/ after
`make shared`): they are copied into figaro/_libs/, which the package tries
before the system's."""
import os
import re
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
LIBS = ("libfigaro.so.0", "libfigaro-ai.so.0")


def version():
    header = os.path.join(HERE, os.pardir, "include", "figaro", "figaro.h")
    with open(header, encoding="utf-8") as f:
        m = re.search(r'^#define FIG_VERSION "([^"]+)"', f.read(), re.M)
    if not m:
        raise SystemExit("figaro: no FIG_VERSION in %s" % header)
    return m.group(1)


class BuildPy(build_py):
    def run(self):
        super().run()
        src = os.environ.get("FIGARO_BUNDLE_LIBDIR")
        if not src:
            return
        dest = os.path.join(self.build_lib, "figaro", "_libs")
        os.makedirs(dest, exist_ok=True)
        for name in LIBS:
            path = os.path.join(src, name)
            if not os.path.exists(path):
                raise SystemExit("figaro: FIGARO_BUNDLE_LIBDIR=%s has no %s (make shared)" % (
                    src, name))
            shutil.copyfile(os.path.realpath(path), os.path.join(dest, name))


setup(version=version(), cmdclass={"build_py": BuildPy})
