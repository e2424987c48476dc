# SPDX-License-Identifier: MIT
"""unit_run.py - runs a systemd service unit's command as systemd would, without
systemd (tests/cli/test_service_unit.sh): the environment of its Environment=
and EnvironmentFile= lines, its ExecStart= expanded the way systemd expands
it, $STATE_DIRECTORY, and the parts of its sandbox that decide whether the
program runs at all, made with the same kernel means systemd uses:

  SystemCallFilter=, SystemCallErrorNumber=   a seccomp filter allowing the
      sets systemd-analyze lists (@system-service, minus the ~ sets), every
      other call failing with that errno;
  RestrictAddressFamilies=   socket() of any other family: EAFNOSUPPORT;
  MemoryDenyWriteExecute=    mmap writable and executable, mprotect and
      pkey_mprotect adding PROT_EXEC, shmat with SHM_EXEC: EPERM (systemd's
      own rules);
  RestrictNamespaces=        unshare() and setns(): EPERM;
  NoNewPrivileges=, SystemCallArchitectures=native   libseccomp's defaults;
  LimitNOFILE=, UMask=       setrlimit, umask;
  DynamicUser=               run as nobody (when started as root), owning the
      state folder alone.

The file system's parts (ProtectSystem=, PrivateTmp=, ...) need mount
namespaces and are not made here.

Usage: unit_run.py [--print] UNIT ENVFILE STATE_DIR PROGRAM
  ENVFILE stands for the unit's EnvironmentFile= (read from there instead),
  PROGRAM for ExecStart='s program. Prints the command line it runs on
  standard error ("unit_run: ARG ARG ..."), then becomes it (exec); with
  --print, only prints it, on standard output."""
import ctypes
import errno
import os
import re
import resource
import socket
import subprocess
import sys


def read_unit(path):
    """The [Service] section: {key: [values in order]}."""
    out, section = {}, None
    with open(path) as f:
        lines = f.read().replace("\\\n", " ").splitlines()
    for line in lines:
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        if section == "Service":
            k, _, v = line.partition("=")
            out.setdefault(k.strip(), []).append(v.strip())
    return out


def unquote_words(s):
    """systemd's words: split on blanks, "..." and '...' quoting, \\ escapes."""
    words, cur, quote, have, i = [], "", None, False, 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            cur += s[i + 1]
            have = True
            i += 2
            continue
        if quote:
            if c == quote:
                quote = None
            else:
                cur += c
        elif c in "\"'":
            quote, have = c, True
        elif c in " \t":
            if have:
                words.append(cur)
            cur, have = "", False
        else:
            cur += c
            have = True
        i += 1
    if have:
        words.append(cur)
    return words


def read_env_file(path, env):
    """EnvironmentFile= semantics: KEY=VALUE lines, # and ; comments, a value
    in quotes unquoted, no expansion of any kind. A missing file is nothing
    (the unit names it with '-')."""
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return
    for line in text.replace("\\\n", "").splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        k, eq, v = line.partition("=")
        if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k.strip()):
            raise SystemExit("unit_run: %s: not KEY=VALUE: %r" % (path, line))
        v = v.strip()
        if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
            v = v[1:-1]
        env[k.strip()] = v


def expand(argv_text, env):
    """ExecStart='s words, each ${VAR} replaced by its value as one word (an
    unset one: empty) and each $VAR alone as a word split on blanks into
    words (none if empty), as systemd.service(5) says."""
    out = []
    for word in unquote_words(argv_text):
        m = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)", word)
        if m:
            out.extend(env.get(m.group(1), "").split())
            continue
        out.append(re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}",
                          lambda g: env.get(g.group(1), ""), word))
    return out


def syscall_set(name, seen=None):
    """The calls of a systemd set (@system-service), nested sets expanded."""
    seen = seen if seen is not None else set()
    if name in seen:
        return set()
    seen.add(name)
    text = subprocess.run(["systemd-analyze", "syscall-filter", "--no-pager", name],
                          check=True, capture_output=True, text=True).stdout
    calls = set()
    for line in text.splitlines()[1:]:
        w = line.strip()
        if not w or w.startswith("#"):
            continue
        calls |= syscall_set(w, seen) if w.startswith("@") else {w}
    return calls


def filter_calls(values):
    """SystemCallFilter= lines, systemd's way: the first an allow-list, the
    ~ ones taken out of it."""
    allowed = None
    for v in values:
        names = set()
        for w in v.lstrip("~").split():
            names |= syscall_set(w) if w.startswith("@") else {w}
        if not v.startswith("~"):
            allowed = (allowed or set()) | names
        elif allowed is None:
            raise SystemExit("unit_run: a deny-list alone (SystemCallFilter=~...) is not made here")
        else:
            allowed -= names
    return allowed


class Scmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


ALLOW = 0x7fff0000
EQ, MASKED_EQ = 4, 7   # enum scmp_compare


def act_errno(e):
    return 0x00050000 | (e & 0xffff)


def seccomp(unit):
    lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                           ctypes.c_uint, ctypes.POINTER(Scmp)]
    lib.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                     ctypes.c_uint]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]

    def rule(ctx, action, name, *cmps):
        nr = lib.seccomp_syscall_resolve_name(name.encode())
        if nr < 0:
            return
        if cmps:
            arr = (Scmp * len(cmps))(*cmps)
            rc = lib.seccomp_rule_add_array(ctx, action, nr, len(cmps), arr)
        else:
            rc = lib.seccomp_rule_add(ctx, action, nr, 0)
        if rc < 0:
            raise SystemExit("unit_run: seccomp rule %s: %s" % (name, os.strerror(-rc)))

    lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]

    def load(ctx):
        lib.seccomp_attr_set(ctx, 9, 1)   # SCMP_FLTATR_API_SYSRAWRC: the kernel's errno
        rc = lib.seccomp_load(ctx)
        if rc < 0:
            raise SystemExit("unit_run: seccomp_load: %s" % os.strerror(-rc))

    # The arguments checked: a filter of its own (the kernel takes the
    # stricter answer of the two), loaded first: the call list would refuse
    # the second load.
    ctx = lib.seccomp_init(ALLOW)
    fams = unit.get("RestrictAddressFamilies", [""])[-1].split()
    if fams:
        ok = {int(getattr(socket, f)) for f in fams}
        for fam in range(0, 64):
            if fam not in ok:
                rule(ctx, act_errno(errno.EAFNOSUPPORT), "socket", Scmp(0, EQ, fam, 0))
    if unit.get("MemoryDenyWriteExecute", ["no"])[-1] == "yes":
        PROT_WRITE, PROT_EXEC, SHM_EXEC = 2, 4, 0o100000
        wx = PROT_WRITE | PROT_EXEC
        rule(ctx, act_errno(errno.EPERM), "mmap", Scmp(2, MASKED_EQ, wx, wx))
        rule(ctx, act_errno(errno.EPERM), "mprotect", Scmp(2, MASKED_EQ, PROT_EXEC, PROT_EXEC))
        rule(ctx, act_errno(errno.EPERM), "pkey_mprotect",
             Scmp(2, MASKED_EQ, PROT_EXEC, PROT_EXEC))
        rule(ctx, act_errno(errno.EPERM), "shmat", Scmp(2, MASKED_EQ, SHM_EXEC, SHM_EXEC))
    if unit.get("RestrictNamespaces", ["no"])[-1] == "yes":
        rule(ctx, act_errno(errno.EPERM), "unshare")
        rule(ctx, act_errno(errno.EPERM), "setns")
    load(ctx)
    # SystemCallFilter=: the allowed calls, errno for the rest
    calls = filter_calls(unit.get("SystemCallFilter", []))
    if calls is not None:
        eno = getattr(errno, unit.get("SystemCallErrorNumber", ["EPERM"])[-1], errno.EPERM)
        ctx = lib.seccomp_init(act_errno(eno))
        for c in sorted(calls):
            rule(ctx, ALLOW, c)
        load(ctx)


def main():
    args = sys.argv[1:]
    dry = args[:1] == ["--print"]
    if dry:
        args = args[1:]
    if len(args) != 4:
        raise SystemExit(__doc__.split("\n\n")[-1])
    unit_path, env_path, state, program = args
    unit = read_unit(unit_path)
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "LANG": "C.UTF-8"}
    for k in ("NOTIFY_SOCKET", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    for v in unit.get("Environment", []):
        for w in unquote_words(v):
            k, _, val = w.partition("=")
            env[k] = val
    for _ in unit.get("EnvironmentFile", []):
        read_env_file(env_path, env)
    if unit.get("StateDirectory"):
        env["STATE_DIRECTORY"] = state
    (start,) = unit["ExecStart"]
    argv = expand(start, env)
    argv[0] = program
    if dry:
        print(" ".join(argv))
        return
    sys.stderr.write("unit_run: %s\n" % " ".join(argv))
    sys.stderr.flush()

    if unit.get("LimitNOFILE"):
        # (as far as this process may: systemd, as root, sets it whole)
        n = int(unit["LimitNOFILE"][-1])
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        if hard != resource.RLIM_INFINITY:
            n = min(n, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
    m = unit.get("UMask")
    if m:
        os.umask(int(m[-1], 8))
    if unit.get("DynamicUser", ["no"])[-1] == "yes" and os.getuid() == 0:
        os.chown(state, 65534, 65534)
        os.chmod(state, int(unit.get("StateDirectoryMode", ["0700"])[-1], 8))
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    seccomp(unit)
    os.execve(argv[0], argv, env)


if __name__ == "__main__":
    main()
