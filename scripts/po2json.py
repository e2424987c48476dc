#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""po2json.py - the browser client's translations, from the po/ catalogues.

Usage: po2json.py WEB_POT LANG.po > LANG.json

WEB_POT is the template xgettext extracts from web/*.js (the Makefile makes it
in the build folder): only its messages go into the JSON, so the page loads a
few kilobytes, not the whole catalogue. LANG.po is the one source of truth for
the words (the same as the terminal game's). Fuzzy entries are skipped, as
msgfmt skips them. The output is one JSON object:
  {"lang": "fr", "plural": "n>1", "messages": {msgid: msgstr or [forms]}}
"plural" is one of the plural rules the client knows ("n!=1", "n>1"); another
rule in a catalogue is an error (exit 1), so no catalogue is silently wrong.
"""
import json
import os
import re
import sys

PLURALS = {"(n != 1)": "n!=1", "n != 1": "n!=1", "(n > 1)": "n>1", "n > 1": "n>1"}


def unquote(s):
    out, i = [], 0
    esc = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            out.append(esc.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def entries(path):
    """Yields (msgid, msgid_plural, [msgstr...], fuzzy) of a po or pot file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    cur, key, fuzzy = {}, None, False

    def flush():
        if "msgid" in cur:
            strs = [cur[k] for k in sorted(k for k in cur if k.startswith("msgstr"))]
            return (cur["msgid"], cur.get("msgid_plural"), strs, fuzzy)
        return None

    for line in lines + [""]:
        line = line.strip()
        if line.startswith("#~"):
            continue
        if not line or (line.startswith("#") and key is not None and key.startswith("msgstr")):
            e = flush()
            if e:
                yield e
            cur, key, fuzzy = {}, None, False
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        m = re.match(r'^(msgid_plural|msgid|msgstr(?:\[\d+\])?|msgctxt)\s+"(.*)"$', line)
        if m:
            key = m.group(1)
            if key == "msgstr":
                key = "msgstr[0]"
            cur[key] = unquote(m.group(2))
        elif line.startswith('"') and key:
            cur[key] += unquote(line[1:-1])
    e = flush()
    if e:
        yield e


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: po2json.py WEB_POT LANG.po\n")
        return 2
    pot, po = sys.argv[1], sys.argv[2]
    lang = os.path.splitext(os.path.basename(po))[0]
    wanted = {}
    for msgid, plural, _strs, _f in entries(pot):
        if msgid:
            wanted[msgid] = plural
    plural_rule = None
    found = {}
    for msgid, plural, strs, fuzzy in entries(po):
        if msgid == "":
            m = re.search(r"plural=([^;]*);", strs[0] if strs else "")
            expr = m.group(1).strip() if m else ""
            plural_rule = PLURALS.get(expr)
            if not plural_rule:
                sys.stderr.write("%s: a plural rule the client does not know: %r\n" % (po, expr))
                return 1
            continue
        if fuzzy or msgid not in wanted or not strs or not all(strs):
            continue
        found[msgid] = strs if plural else strs[0]
    json.dump({"lang": lang, "plural": plural_rule or "n!=1", "messages": found}, sys.stdout,
              ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
