# SPDX-License-Identifier: MIT
"""Where `make install` put the shared libraries (None in the source tree).

`make install` rewrites LIBDIR in the installed copy of this file, so an
installed package finds the libraries of the same installation whatever the
loader's path is."""
LIBDIR = None
