# SPDX-License-Identifier: MIT
"""pytest set-up for the Python binding's tests (tests/run.sh runs them).

The package is imported from the source tree (python/), and it loads the
plain -O2 shared libraries of the release build (build/): `make test` builds
them. FIGARO names the `figaro` command whose records the tests compare with
(tests/run.sh passes the sanitizer build's); FIGARO_LIBDIR may point the
package at other libraries."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
sys.path.insert(0, os.path.join(ROOT, "python"))

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def figaro_cmd():
    cmd = os.environ.get("FIGARO") or os.path.join(ROOT, "build", "test", "figaro")
    if not os.path.isabs(cmd):
        cmd = os.path.join(ROOT, cmd)
    if not os.access(cmd, os.X_OK):
        cmd = os.path.join(ROOT, "build", "figaro")
    assert os.access(cmd, os.X_OK), "no figaro command: run make first"
    return cmd


@pytest.fixture(scope="session")
def root():
    return ROOT
