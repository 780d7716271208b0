"""``phlegyas-trust``: trust a script by the SHA-256 of its content, list, revoke and verify.

Exit status: 0 done; 1 ``--verify`` found a changed or missing script, a script to revoke was not
trusted, or trusting was declined; 2 a usage error, an unreadable script or a broken trust store.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import pwd
import sys
from typing import Sequence, TextIO

from phlegyas.analysis.paths import normalize
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.engine import MAX_COMMAND_BYTES
from phlegyas.core.model import ToolCall
from phlegyas.policy.settings import ConfigError, Settings
from phlegyas.trust.checker import resolve_script
from phlegyas.trust.store import (
    ScriptFileError,
    TrustEntry,
    TrustStatus,
    TrustStore,
    TrustStoreError,
    read_script,
    utc_now,
    verify_all,
)

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2
SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh", ".dash")
SHELL_NAMES = ("sh", "bash", "zsh", "ksh", "dash")


class TrustCliError(Exception):
    """A problem to print as one line; exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="phlegyas-trust",
        description="Trust a script once, by the SHA-256 of its content: afterwards phlegyas lets the agent "
                    "run it (./x.sh, bash x.sh, python3 x.py, source x.sh … with any arguments) without "
                    "asking, for as long as its content is unchanged. Symlinks are resolved: the file "
                    "trusted is the target. Before trusting a shell script, its content goes through "
                    "phlegyas's Tier 1 analysis and every finding is shown as a warning.",
        epilog="examples:\n"
               "  phlegyas-trust ./deploy.sh --note 'release script, reviewed'\n"
               "  phlegyas-trust --list\n"
               "  phlegyas-trust --verify            # exit 1 if a trusted script changed or vanished\n"
               "  phlegyas-trust --revoke ./deploy.sh\n\n"
               "Only the file itself is trusted: what it runs, sources or imports (other scripts, a module\n"
               "next to a Python script) is not covered by the hash. Review those too.\n\n"
               "The store is $PHLEGYAS_TRUST_STORE (default ~/.claude/trusted-scripts.json); every change\n"
               "is also appended to a log next to it (trusted-scripts.log).\n"
               "Exit status: 0 done, 1 verify found changes / not trusted / declined, 2 error.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("path", nargs="?", metavar="PATH", help="the script to trust")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--list", action="store_true", help="list the trusted scripts")
    action.add_argument("--revoke", metavar="PATH", help="stop trusting a script")
    action.add_argument("--verify", action="store_true",
                        help="hash every trusted script again; report each changed or missing one (exit 1 if any)")
    parser.add_argument("--note", metavar="TEXT", default="", help="why it is trusted (kept in the store)")
    parser.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    parser.add_argument("--by", metavar="NAME", help="who trusts or revokes it, for the store and its log (default: your user name)")
    parser.add_argument("--json", action="store_true", help="with --list or --verify: print JSON")
    parser.add_argument("--store", metavar="FILE", help="the trust store (default: $PHLEGYAS_TRUST_STORE)")
    parser.add_argument("--log", metavar="FILE", help="the change log (default: next to the store, .log)")
    return parser


def _check_args(parser: argparse.ArgumentParser, args) -> None:
    other = args.list or args.verify or args.revoke is not None
    if args.path is None and not other:
        parser.error("give a PATH to trust, or one of --list, --verify, --revoke PATH")
    if args.path is not None and other:
        parser.error("PATH cannot be combined with --list, --verify or --revoke")
    if args.json and not (args.list or args.verify):
        parser.error("--json goes with --list or --verify")
    if (args.note or args.yes) and args.path is None:
        parser.error("--note and --yes go with a PATH to trust")


# -- context ---------------------------------------------------------------------------------------

class _Context:
    """What every action needs: where the store is, the home and cwd paths are resolved against."""

    def __init__(self, args, environ) -> None:
        self.cwd = os.getcwd()
        try:
            settings = Settings.load(environ, cwd=self.cwd)
        except ConfigError as exc:
            raise TrustCliError(f"configuration error: {exc}") from None
        self.home = settings.home
        store_path = self.absolute(args.store) if args.store else settings.trust_store
        log_path = self.absolute(args.log) if args.log else None
        self.store = TrustStore(store_path, log_path)
        self.by = args.by or _user_name()

    def resolve(self, written: str) -> str:
        """The script's absolute path, symlinks resolved."""
        return resolve_script(written, self.cwd, self.home)

    def absolute(self, written: str) -> str:
        """The absolute, normalized path, symlinks kept."""

        return normalize(written, self.cwd, self.home)


def _user_name() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return f"uid {os.getuid()}"


# -- trust -----------------------------------------------------------------------------------------

def cmd_trust(args, ctx: _Context, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    path = ctx.resolve(args.path)
    try:
        data = read_script(path)
    except ScriptFileError as exc:
        raise TrustCliError(f"cannot trust {path}: {exc}") from None
    entries = ctx.store.load()
    digest = hashlib.sha256(data).hexdigest()
    shown = path if path == ctx.absolute(args.path) else f"{args.path} → {path}"
    out.write(f"{shown}\n  sha256 {digest}, {len(data)} bytes\n")
    _report_previous(entries.get(path), digest, out)
    warnings = content_warnings(path, data, ctx)
    for line in warnings:
        err.write(f"phlegyas-trust: {line}\n")
    if not args.yes and not _confirm(warnings, err, stdin):
        return EXIT_FAILED
    entry = TrustEntry(path, digest, len(data), ctx.by, utc_now(), args.note)
    ctx.store.add(entry)
    out.write(f"trusted by {entry.trusted_by} at {entry.trusted_at} (store: {ctx.store.path})\n")
    return EXIT_OK


def _report_previous(previous: TrustEntry | None, digest: str, out: TextIO) -> None:
    if previous is None:
        return
    since = f"trusted by {previous.trusted_by} on {previous.day}"
    if previous.sha256 == digest:
        out.write(f"  already {since} with this content; the entry is renewed\n")
    else:
        out.write(f"  was {since} with other content ({previous.sha256[:12]}…); the new content replaces it\n")


def _confirm(warnings: list[str], err: TextIO, stdin: TextIO) -> bool:
    if not _is_tty(stdin):
        err.write("phlegyas-trust: not trusted: confirmation needed and there is no terminal to ask on; "
                  "read the script, then run again with --yes\n")
        return False
    findings = any(w.startswith("warning:") for w in warnings)
    err.write("Trust it anyway? [y/N] " if findings else "Trust it? [y/N] ")
    err.flush()
    answer = stdin.readline().strip().lower()
    if answer in ("y", "yes"):
        return True
    err.write("phlegyas-trust: not trusted\n")
    return False


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def script_kind(path: str, data: bytes) -> str:
    """``shell``, ``python`` or ``other``, from the ``#!`` line, else the file name."""
    first = data.split(b"\n", 1)[0]
    if first.startswith(b"#!"):
        words = first[2:].decode("utf-8", "replace").split()
        names = [w.rsplit("/", 1)[-1] for w in words if not w.startswith("-")]
        if names and names[0] == "env":
            names = names[1:]
        if names:
            if names[0] in SHELL_NAMES:
                return "shell"
            if names[0].startswith("python"):
                return "python"
            return "other"
    if path.endswith(SHELL_SUFFIXES):
        return "shell"
    if path.endswith(".py"):
        return "python"
    return "other"


def content_warnings(path: str, data: bytes, ctx: _Context) -> list[str]:
    """``warning: …`` per Tier 1 finding in a shell script's content, or a note that it was not analysed."""
    kind = script_kind(path, data)
    if kind != "shell":
        what = "a Python script" if kind == "python" else "not a shell script"
        return [f"note: the content of {path} was not analysed ({what}); read it before trusting it"]

    if len(data) > MAX_COMMAND_BYTES:
        return [f"note: the content of {path} was not analysed (larger than {MAX_COMMAND_BYTES // 1024} KiB)"]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return [f"note: the content of {path} was not analysed (not UTF-8 text)"]
    return _analyse_shell(path, text.replace("\x00", ""), ctx)


def _analyse_shell(path: str, text: str, ctx: _Context) -> list[str]:
    from phlegyas.analysis.dispatch import analyze  # lean start-up: only trusting a script analyses it

    directory = os.path.dirname(path)
    env = AnalysisEnv(cwd=directory, home=ctx.home, project_root=directory)
    try:
        analysis = analyze(ToolCall("Bash", {"command": text}, cwd=directory), env)
    except Exception as exc:  # noqa: BLE001 - a bug in the analysis must not hide the script from review
        return [f"note: the content of {path} could not be analysed ({type(exc).__name__}: {exc}); read it yourself"]
    out = [f"warning: {f.message} [{f.id}, {f.severity}] in: {f.subject}" for f in analysis.findings]
    if not analysis.understood:
        out.append("note: parts of the script could not be analysed; read them yourself")
    return out


# -- list, revoke, verify --------------------------------------------------------------------------

def cmd_list(args, ctx: _Context, out: TextIO, err: TextIO) -> int:
    entries = ctx.store.load()
    if args.json:
        rows = [{"path": p, **entries[p].to_json()} for p in sorted(entries)]
        out.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        return EXIT_OK
    if not entries:
        out.write(f"no trusted scripts (store: {ctx.store.path})\n")
        return EXIT_OK
    for path in sorted(entries):
        e = entries[path]
        note = f"  note: {e.note}" if e.note else ""
        out.write(f"{path}\n  sha256 {e.sha256[:16]}…  {e.size} bytes  trusted by {e.trusted_by} "
                  f"at {e.trusted_at}{note}\n")
    return EXIT_OK


def cmd_revoke(args, ctx: _Context, out: TextIO, err: TextIO) -> int:
    entries = ctx.store.load()
    key = next((k for k in (ctx.resolve(args.revoke), ctx.absolute(args.revoke)) if k in entries), None)
    if key is None:
        err.write(f"phlegyas-trust: {ctx.resolve(args.revoke)} is not trusted; nothing to revoke\n")
        return EXIT_FAILED
    removed = ctx.store.remove(key, ctx.by)
    if removed is None:  # revoked by someone else meanwhile
        err.write(f"phlegyas-trust: {key} is not trusted; nothing to revoke\n")
        return EXIT_FAILED
    out.write(f"revoked {key} (was trusted by {removed.trusted_by} on {removed.day})\n")
    return EXIT_OK


_LABELS = {"trusted": "ok", "changed": "CHANGED", "missing": "MISSING", "unreadable": "UNREADABLE"}


def cmd_verify(args, ctx: _Context, out: TextIO, err: TextIO) -> int:
    statuses = verify_all(ctx.store.load())
    bad = [s for s in statuses if not s.trusted]
    if args.json:
        out.write(json.dumps([_status_json(s) for s in statuses], indent=2, ensure_ascii=False) + "\n")
    elif not statuses:
        out.write(f"no trusted scripts (store: {ctx.store.path})\n")
    else:
        for s in statuses:
            out.write(f"{_LABELS[s.state]:<10} {_status_line(s)}\n")
        out.write(f"{len(statuses)} trusted, {len(statuses) - len(bad)} unchanged, {len(bad)} changed or missing\n")
    return EXIT_FAILED if bad else EXIT_OK


def _status_line(s: TrustStatus) -> str:
    if s.state == "trusted":
        return s.path
    return s.describe()


def _status_json(s: TrustStatus) -> dict:
    e = s.entry
    return {"path": s.path, "state": s.state, "trusted_sha256": e.sha256 if e else None, "sha256_now": s.sha256,
            "problem": s.problem, "trusted_by": e.trusted_by if e else None, "trusted_at": e.trusted_at if e else None}


# -- main ------------------------------------------------------------------------------------------

def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None,
         stdin: TextIO | None = None, environ=None) -> int:
    out, err, stdin = out or sys.stdout, err or sys.stderr, stdin or sys.stdin
    parser = build_parser()
    args = parser.parse_args(argv)
    _check_args(parser, args)
    try:
        ctx = _Context(args, os.environ if environ is None else environ)
        if args.list:
            return cmd_list(args, ctx, out, err)
        if args.verify:
            return cmd_verify(args, ctx, out, err)
        if args.revoke is not None:
            return cmd_revoke(args, ctx, out, err)
        return cmd_trust(args, ctx, out, err, stdin)
    except (TrustCliError, TrustStoreError) as exc:
        err.write(f"phlegyas-trust: {exc}\n")
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        err.write("phlegyas-trust: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
