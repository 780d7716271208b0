"""Network clients: HTTP methods, downloads and uploads of ``curl``, ``wget`` and ``httpie``, and the
remote side of ``scp``/``rsync``."""
from __future__ import annotations

import posixpath
import re
from typing import Final

from phlegyas.analysis.shell.effect_types import literal
from phlegyas.analysis.shell.handlers.base import Call, is_remote, read_only, urls
from phlegyas.analysis.shell.parse import Word
from phlegyas.analysis.urls import DEV_HOSTS as LOCAL_PROBE_HOSTS
from phlegyas.analysis.urls import dev_server


def curl(c: Call) -> None:
    method = None
    for opt, value in c.parsed.opts:
        if opt in ("-X", "--request") and value is not None:
            method = value.text.upper()
        elif opt in ("-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
            for op in c.parsed.operands or [literal("index.html")]:
                c.eff.writes.append(literal(posixpath.basename(op.text.split("?", 1)[0].rstrip("/")) or "index.html"))
        elif opt == "--url" and value is not None:
            urls([value], c.eff)
        elif opt in ("-Q", "--quote"):
            c.eff.mutates.append("sends FTP commands")
    if method is not None and method not in ("GET", "HEAD", "OPTIONS"):
        c.eff.mutates.append(f"sends an HTTP {method} request")
    targets = [*c.parsed.operands, *c.parsed.values(("--url",))]
    if c.eff.mutates and targets and not c.eff.uploads and not c.eff.blockers and all(
            not w.dynamic and dev_server(w.text) for w in targets):  # `curl -X POST localhost:8000/api/items -d '{…}'`
        c.eff.mutates[:] = [m for m in c.eff.mutates if m != "sends data over the network"
                            and not m.startswith("sends an HTTP ")]
        c.eff.changes.append("sends a request to the project's dev server on this machine")


_PROBE_OPTS: Final = frozenset({"-z", "-v", "-vv", "-zv", "-vz", "-n", "-4", "-6", "-w", "-u", "-zu", "-uz", "-zvw"})
_PORTS: Final = re.compile(r"\d{1,5}(?:-\d{1,5})?")


def port_probe(c: Call) -> None:
    """``nc -z localhost 5432``: zero-I/O mode connects and closes, sending nothing; to a port of this
    machine it only says whether the database or dev server is up. Any other host, or data, stays
    network."""
    p = c.parsed
    ops = p.operands
    if not p.has(("-z", "-zv", "-vz", "-zu", "-uz")) or any(opt not in _PROBE_OPTS for opt, _ in p.opts) or \
            len(ops) < 2 or any(w.dynamic for w in ops) or not all(_PORTS.fullmatch(w.text) for w in ops[1:]):
        return
    if ops[0].text.lower() not in LOCAL_PROBE_HOSTS:
        return
    read_only(c)  # not the spec's "opens network connections"
    c.eff.network = False
    c.eff.changes.append("checks whether a port on this machine is open")


def wget(c: Call) -> None:
    p = c.parsed
    if p.has(("--method",)):
        method = (p.values(("--method",)) or [literal("GET")])[-1].text.upper()
        if method not in ("GET", "HEAD"):
            c.eff.mutates.append(f"sends an HTTP {method} request")
    for value in p.values(("-i", "--input-file")):
        c.eff.reads.append(value)
    outputs = p.values(("-O", "--output-document"))
    if outputs or p.has(("--spider", "-P", "--directory-prefix")):
        return
    for op in p.operands:
        c.eff.writes.append(literal(posixpath.basename(op.text.split("?", 1)[0].rstrip("/")) or "index.html"))


def httpie(c: Call) -> None:
    ops = c.parsed.operands
    method = None
    if ops and ops[0].text.isupper() and ops[0].text.isalpha():
        method, ops = ops[0].text, ops[1:]
    items = ops[1:]
    data = False
    for item in items:
        text = item.text
        for sep in (":=@", "=@", "@"):
            at = text.find(sep)
            if at >= 0 and (sep != "@" or at == 0 or text[at - 1] not in "=:"):
                c.eff.uploads.append(Word(text[at + len(sep):], item.dynamic))
                data = True
                break
        else:
            if "==" in text or (":" in text and "=" not in text):
                continue  # query parameter or header
            if "=" in text:
                data = True
    if c.parsed.has(("-d", "--download")):
        c.eff.writes.append(literal("."))
    method = method or ("POST" if data else "GET")
    if method not in ("GET", "HEAD", "OPTIONS"):
        c.eff.mutates.append(f"sends an HTTP {method} request")


def remote_copy(c: Call) -> None:
    eff = c.eff
    ops = c.parsed.operands
    if len(ops) < 2:
        return
    *sources, target = ops
    remote_target = is_remote(target.text)
    remote_source = any(is_remote(s.text) for s in sources)
    if remote_target or remote_source:
        eff.network = True
        eff.reads[:] = [r for r in eff.reads if not is_remote(r.text)]
        if remote_target:
            eff.writes[:] = [w for w in eff.writes if w is not target]
            eff.uploads.extend(s for s in sources if not is_remote(s.text))
            eff.mutates.append(f"copies files to {target.text.split(':', 1)[0]}")
    if c.parsed.has(("--delete", "--delete-before", "--delete-after", "--delete-during", "--delete-excluded",
                               "--del")):
        eff.deletes.append((target, True))
    if c.parsed.has(("--remove-source-files",)):
        eff.deletes.extend((s, False) for s in sources)
