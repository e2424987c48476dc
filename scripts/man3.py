#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""man3.py - man 3 pages for the C API, made from the public headers' comments.

Usage: man3.py --version V --out DIR include/figaro/*.h

Each header H.h gives the page figaro-H(3): its opening comment is the
description; every declaration after it (a function, a type, a constant)
comes with the comment just above it, as the header shows them. Every function
fig_NAME gets fig_NAME.3, a symbolic link to its header's page, so that
`man fig_game_play` opens it. figaro.h, the library's umbrella header, gives
figaro(3), which lists the others. The headers are the one source: nothing is
written here about the API itself.

A header is read as blocks: a comment and the code up to the next blank line
or comment at the left margin. Preprocessor lines (include guards, includes)
are left out.
"""

import argparse
import os
import re
import sys

LIBS = {"bot": ("libfigaro-ai", "figaro-ai"), "match": ("libfigaro-host", "figaro-host")}


def roff(text):
    """Text made safe for roff: backslashes, minus signs, leading dots."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line[:1] in (".", "'") else line
                     for line in text.split("\n"))


def uncomment(lines):
    """The text of a /* ... */ comment, its stars and margins removed."""
    out = []
    for line in lines:
        line = line.strip()
        line = re.sub(r"^/\*+ ?", "", line)
        line = re.sub(r"\s*\*+/$", "", line)
        line = re.sub(r"^\* ?", "", line) if line.startswith("*") else line
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return out


def blocks(path):
    """[(comment lines, code lines)] of a header, in order."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, comment, code, i = [], [], [], 0

    def flush():
        nonlocal comment, code
        if comment or code:
            out.append((uncomment(comment) if comment else [], code))
        comment, code = [], []

    while i < len(lines):
        line = lines[i]
        if line.startswith("/*"):
            flush()
            while True:
                comment.append(lines[i])
                if "*/" in lines[i]:
                    break
                i += 1
            if len(comment) == 1 and "SPDX-License-Identifier:" in comment[0]:
                comment = []   # the licence line (scripts/spdx.sh), not the API's text
        elif not line.strip():
            flush()
        elif line.startswith("#"):
            while lines[i].rstrip().endswith("\\"):
                i += 1
        else:
            code.append(line)
        i += 1
    flush()
    return out


def functions(code):
    """The names of the functions a block declares (not its types' members)."""
    text = re.sub(r"/\*.*?\*/", "", "\n".join(code), flags=re.S)
    if re.match(r"\s*(typedef|enum|struct|union)\b", text):
        return []
    names = []
    depth = 0
    stmt = ""
    for ch in text:
        if ch == "{":
            if depth == 0:
                names += re.findall(r"\b(fig_\w+)\s*\(", stmt)[:1]
                stmt = ""
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            if ch == ";":
                names += re.findall(r"\b(fig_\w+)\s*\(", stmt)[:1]
                stmt = ""
            else:
                stmt += ch
    return names


def prototypes(code):
    """A block's declarations without the bodies of its inline functions."""
    out, depth = "", 0
    for ch in "\n".join(code):
        if ch == "{":
            if depth == 0:
                out = out.rstrip() + ";"
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            out += ch
    return [line for line in out.split("\n") if line.strip() not in ("", ";")]


def page(path, version, headers):
    base = os.path.splitext(os.path.basename(path))[0]
    items = blocks(path)
    intro, items = (items[0][0], items[1:]) if items and items[0][0] else ([], items)
    name = "figaro" if base == "figaro" else "figaro-" + base
    summary = intro[0].split(" - ", 1)[1] if intro and " - " in intro[0] else base
    summary = summary.rstrip(".")
    lib, pc = LIBS.get(base, ("libfigaro", "figaro"))
    funcs = [n for _, code in items for n in functions(code)]
    out = ['.\\" %s.3 - made by scripts/man3.py from include/figaro/%s.h: edit the header'
           % (name, base),
           '.TH %s 3 2026 "figaro %s" "figaro C API"' % (name.upper(), version),
           ".SH NAME",
           "%s \\- %s" % (name, roff(summary)),
           ".SH LIBRARY",
           "%s (\\fB\\-l%s\\fR; \\fBpkg\\-config \\-\\-cflags \\-\\-libs %s\\fR)"
           % (roff(lib), roff(lib[3:]), roff(pc)),
           ".SH SYNOPSIS", ".nf", "\\fB#include <figaro/%s.h>\\fR" % base]
    for _, code in items:
        if functions(code):
            out += [""] + [roff(line) for line in prototypes(code)]
    out += [".fi", ".SH DESCRIPTION"]
    rest = intro[1:] if len(intro) > 1 else []
    text = "\n".join(rest).strip()
    if text:
        for para in re.split(r"\n\s*\n", text):
            out += [".PP", roff(para)] if not para.startswith(" ") else \
                   [".PP", ".nf", roff(para), ".fi"]
    if base == "figaro":
        out += [".PP", "The headers it includes, each with its page:"]
        for h in headers:
            b = os.path.splitext(os.path.basename(h))[0]
            if b != "figaro":
                out += [".br", ".BR figaro\\-%s (3)" % roff(b)]
    for comment, code in items:
        if not code:
            out += [".PP", roff("\n".join(comment))]
            continue
        names = functions(code)
        out += [".SS %s" % roff(", ".join(names)) if names else ".PP"]
        out += [".nf", "\n".join(roff(line) for line in code), ".fi"]
        if comment:
            out += [".PP", roff("\n".join(comment))]
    out += [".SH SEE ALSO"]
    others = ["figaro" if os.path.basename(h) == "figaro.h" else
              "figaro-" + os.path.splitext(os.path.basename(h))[0] for h in headers]
    out += [",\n".join(".BR %s (3)" % roff(o) for o in others if o != name) + ",",
            ".BR figaro (1),", ".BR figaro\\-fgn (5)"]
    return name, "\n".join(out) + "\n", funcs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("headers", nargs="+")
    args = ap.parse_args()
    headers = sorted(args.headers)
    seen = {}
    for h in headers:
        name, text, funcs = page(h, args.version, headers)
        with open(os.path.join(args.out, name + ".3"), "w", encoding="utf-8") as f:
            f.write(text)
        for fn in funcs:
            if fn in seen:
                sys.exit("man3.py: %s declared in %s and %s" % (fn, seen[fn], h))
            seen[fn] = h
            link = os.path.join(args.out, fn + ".3")
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(name + ".3", link)
    if len(seen) < 10:
        sys.exit("man3.py: only %d functions found in %s" % (len(seen), " ".join(headers)))


if __name__ == "__main__":
    main()
