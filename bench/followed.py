# SPDX-License-Identifier: MIT
"""followed.py - the seat that bench/round_stats.py and bench/calibration.py
follow through an arena's records: the one whose name starts with --name (the
arena names a bot by its spec)."""
import sys


def followed_seat(path, names, prefix):
    """The index of the one name in `names` that starts with prefix; exits with
    a message naming the record `path` if there is none or more than one."""
    seats = [i for i, name in enumerate(names) if name.startswith(prefix)]
    if len(seats) != 1:
        sys.exit("%s: %d seats named %s*, need exactly one" % (path, len(seats), prefix))
    return seats[0]
