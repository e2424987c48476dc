# SPDX-License-Identifier: MIT
"""The build back end of the Python package (PEP 517), in the standard library
alone, so that `pip install ./python` works in a fresh virtual environment
with no network: pip's isolated build environment has nothing to install.

Building a wheel compiles libfigaro.so.0 and libfigaro-ai.so.0 from the C
sources of the source tree this directory sits in (python/ -> ..), with the
tree's Makefile (`make shared`: one place for the flags) into a scratch
folder, and ships them in figaro/_libs/, which the package tries before the
system's (figaro/_lib.py). The wheel is then tagged for this platform
(py3-none-linux_x86_64): the package itself is pure Python (ctypes).

Build options (pip's --config-settings, or -C with `python3 -m build`):
  libs=build    the default: compile and ship the libraries;
  libs=system   ship none: the package loads the system's libfigaro0
                (Debian's, or `make install`) through the dynamic loader;
                the wheel is then pure (py3-none-any);
  libdir=DIR    ship the libraries already built in DIR instead of compiling
                (relative to the source tree: libdir=build after `make shared`).
The metadata is pyproject.toml's [project]; the version is the C library's
(FIG_VERSION of include/figaro/figaro.h)."""
import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile

try:
    import tomllib
except ImportError:                # Python < 3.11
    tomllib = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PACKAGE = "figaro"
LIBS = ("libfigaro.so.0", "libfigaro-ai.so.0")
# [project] keys this back end writes into the metadata; any other is refused
# rather than silently left out of the wheel.
PROJECT_KEYS = {"name", "dynamic", "description", "requires-python", "dependencies",
                "optional-dependencies", "classifiers", "license", "readme"}


class BuildError(Exception):
    """What went wrong, in words for the person who ran pip."""


def _fail(text):
    raise BuildError("figaro: " + text)


# ---- metadata --------------------------------------------------------------

def _version():
    header = os.path.join(ROOT, "include", "figaro", "figaro.h")
    try:
        with open(header, encoding="utf-8") as f:
            m = re.search(r'^#define FIG_VERSION "([^"]+)"', f.read(), re.M)
    except OSError as e:
        _fail("cannot read the version from %s (%s): python/ must sit in figaro's source "
              "tree" % (header, e.strerror))
    if not m:
        _fail("no FIG_VERSION in %s" % header)
    return m.group(1)


def _project():
    path = os.path.join(HERE, "pyproject.toml")
    if tomllib is None:
        _fail("building the package needs Python 3.11 or later (tomllib)")
    with open(path, "rb") as f:
        project = tomllib.load(f).get("project", {})
    unknown = sorted(set(project) - PROJECT_KEYS)
    if unknown:
        _fail("%s: [project] keys this back end does not write: %s" % (path, ", ".join(unknown)))
    if project.get("name") != PACKAGE or project.get("dynamic") != ["version"]:
        _fail("%s: [project] must have name = %r and dynamic = [\"version\"]" % (path, PACKAGE))
    return project


def _metadata():
    p = _project()
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"], "Version: " + _version()]
    if "description" in p:
        lines.append("Summary: " + p["description"])
    if "requires-python" in p:
        lines.append("Requires-Python: " + p["requires-python"])
    lic = p.get("license")
    if isinstance(lic, dict) and "text" in lic:
        lines.append("License: " + lic["text"])
    elif lic is not None:
        _fail("pyproject.toml: license must be {text = \"...\"}")
    lines += ["Classifier: " + c for c in p.get("classifiers", [])]
    lines += ["Requires-Dist: " + d for d in p.get("dependencies", [])]
    for extra, deps in sorted(p.get("optional-dependencies", {}).items()):
        lines.append("Provides-Extra: " + extra)
        lines += ['Requires-Dist: %s; extra == "%s"' % (d, extra) for d in deps]
    body = ""
    if "readme" in p:
        with open(os.path.join(HERE, p["readme"]), encoding="utf-8") as f:
            body = f.read()
        lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + body


def _dist_info():
    return "%s-%s.dist-info" % (PACKAGE, _version())


# ---- the libraries -----------------------------------------------------------

def _mode(config_settings):
    cs = dict(config_settings or {})
    libs = cs.pop("libs", "build")
    libdir = cs.pop("libdir", None)
    if cs:
        _fail("unknown build option%s %s (known: libs=build|system, libdir=DIR)" % (
            "s" if len(cs) > 1 else "", ", ".join(sorted(cs))))
    if libs not in ("build", "system"):
        _fail("libs=%s: give libs=build (compile and ship the libraries, the default) or "
              "libs=system (the system's libfigaro0)" % libs)
    if libdir is not None and libs == "system":
        _fail("libdir=%s and libs=system contradict each other" % libdir)
    return libs, libdir


def _compile(scratch):
    """`make shared` of the source tree into scratch; returns scratch."""
    for need in ("Makefile", os.path.join("src", "core"), os.path.join("include", "figaro")):
        if not os.path.exists(os.path.join(ROOT, need)):
            _fail("no %s in %s: python/ must sit in figaro's source tree to compile "
                  "libfigaro (or build with --config-settings libs=system)" % (need, ROOT))
    make = os.environ.get("MAKE", "make")
    if shutil.which(make) is None:
        _fail("building libfigaro needs make and a C compiler (Debian: apt-get install make "
              "gcc), or --config-settings libs=system")
    # A make of its own (not a caller's job server); no package installation
    # (INSTALL_DEPS=no: the core and the bots need libc alone); without
    # -Werror, as the Debian packages: a newer compiler's warning must not
    # stop an installation.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    cmd = [make, "-C", ROOT, "-j%d" % min(os.cpu_count() or 1, 8), "B=" + scratch,
           "INSTALL_DEPS=no", "WERROR=", "shared"]
    print("figaro: " + " ".join(cmd), file=sys.stderr)
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    if out.returncode != 0:
        _fail("compiling libfigaro failed (%s, exit %d):\n%s" % (
            " ".join(cmd), out.returncode, out.stdout[-4000:]))
    return scratch


def _libraries(libdir):
    libdir = os.path.join(ROOT, libdir)          # an absolute DIR stays itself
    for name in LIBS:
        path = os.path.join(libdir, name)
        if not os.path.isfile(path):
            _fail("libdir=%s has no %s (make shared)" % (libdir, name))
        yield name, os.path.realpath(path)


# ---- the wheel ---------------------------------------------------------------

def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (arcname, digest, len(data))


def _tag(pure):
    if pure:
        return "py3-none-any"
    return "py3-none-" + re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def _write_wheel(wheel_directory, files, pure):
    """files: [(arcname, bytes, mode)]; the dist-info is added last."""
    dist = _dist_info()
    tag = _tag(pure)
    wheel = ("Wheel-Version: 1.0\nGenerator: figaro_build\nRoot-Is-Purelib: %s\nTag: %s\n" % (
        "true" if pure else "false", tag))
    files = sorted(files) + [(dist + "/METADATA", _metadata().encode(), 0o644),
                             (dist + "/WHEEL", wheel.encode(), 0o644),
                             (dist + "/top_level.txt", (PACKAGE + "\n").encode(), 0o644)]
    record = [_record_line(name, data) for name, data, _ in files] + [dist + "/RECORD,,"]
    files.append((dist + "/RECORD", ("\n".join(record) + "\n").encode(), 0o644))
    name = "%s-%s-%s.whl" % (PACKAGE, _version(), tag)
    # the same bytes for the same sources: a fixed date (SOURCE_DATE_EPOCH if set)
    try:
        epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "0")), 315532800)   # zip: >= 1980
    except ValueError:
        _fail("SOURCE_DATE_EPOCH=%s is not a number of seconds" % os.environ["SOURCE_DATE_EPOCH"])
    date = tuple(time.gmtime(epoch)[:6])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data, mode in files:
            info = zipfile.ZipInfo(arcname, date)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    with open(os.path.join(wheel_directory, name), "wb") as f:
        f.write(buf.getvalue())
    return name


def _package_files():
    src = os.path.join(HERE, PACKAGE)
    for name in sorted(os.listdir(src)):
        if name.endswith(".py"):
            with open(os.path.join(src, name), "rb") as f:
                yield "%s/%s" % (PACKAGE, name), f.read(), 0o644


def _build(wheel_directory, config_settings):
    libs, libdir = _mode(config_settings)
    files = list(_package_files())
    if libs == "system":
        return _write_wheel(wheel_directory, files, pure=True)
    scratch = tempfile.mkdtemp(prefix="figaro-libs-")
    try:
        for name, path in _libraries(libdir or _compile(scratch)):
            with open(path, "rb") as f:
                files.append(("%s/_libs/%s" % (PACKAGE, name), f.read(), 0o755))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return _write_wheel(wheel_directory, files, pure=False)


# ---- the PEP 517 hooks -----------------------------------------------------------

def _hook(fn, *args):
    try:
        return fn(*args)
    except BuildError as e:
        # pip shows the back end's output; a traceback would hide the message
        print(str(e), file=sys.stderr)
        raise SystemExit(1)


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    def write():
        _mode(config_settings)
        dist = os.path.join(metadata_directory, _dist_info())
        os.makedirs(dist, exist_ok=True)
        with open(os.path.join(dist, "METADATA"), "w", encoding="utf-8") as f:
            f.write(_metadata())
        return _dist_info()
    return _hook(write)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _hook(_build, wheel_directory, config_settings)
