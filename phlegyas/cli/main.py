"""``phlegyas``: decide and explain tool calls from a terminal, score batches, read the audit log.

Exit status of ``phlegyas check``: 0 allow, 1 ask, 2 deny, 3 usage or configuration error.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from typing import Sequence, TextIO

from phlegyas.ai.llm.base import off_reason
from phlegyas.cli import approvals as approvals_cli
from phlegyas.cli import dashboard as dashboard_cli
from phlegyas.cli import db as db_cli
from phlegyas.cli import doctor as doctor_cli
from phlegyas.cli import install as install_cli
from phlegyas.cli import slack as slack_cli
from phlegyas.cli.common import EXIT_ERROR, CliError
from phlegyas.core.analysis import explain_lines, not_understood
from phlegyas.core.model import MODE_ALIASES, MODES, Decision, InvalidCall, ToolCall, Verdict, canonical_mode
from phlegyas.policy.settings import ConfigError
from phlegyas.store.audit import AuditError, AuditLog, compute_stats, format_stats, parse_since, summarize
from phlegyas.trust.store import TrustStore

EXIT_BY_VERDICT = {Verdict.ALLOW: 0, Verdict.ASK: 1, Verdict.DENY: 2}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2, which `check` uses for deny
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


class _Version(argparse.Action):
    """``--version``: the string is made when asked for, not at every start of the CLI."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from phlegyas import __version__, analysis_build, analysis_hint  # only for --version

        print(f"phlegyas {__version__} (analysis: {analysis_build()})")
        hint = analysis_hint()  # pure Python where the build meant to compile it: say how to get it
        if hint:
            print(f"hint: {hint}")
        parser.exit(0)


# -- check -----------------------------------------------------------------------------------------

def _runtime(args, *, interactive: bool = True):
    from phlegyas.runtime import load_runtime  # lean start-up: the other subcommands do not load the whole gate

    cwd = os.path.abspath(args.cwd or os.getcwd())
    try:
        return load_runtime(os.environ, cwd, policy_files=args.policy or (), interactive=interactive)
    except ConfigError as exc:
        raise CliError(f"configuration error: {exc}") from None


def _audit(runtime, args):
    if args.no_audit or not runtime.settings.enable_audit_log:
        return None

    return AuditLog(runtime.settings.audit_log_file)


def _record(audit, call: ToolCall, decision: Decision, mode: str, err: TextIO) -> None:
    if audit is None:
        return

    try:
        audit.record(call, decision, mode=mode, extra=decision.audit)
    except AuditError as exc:
        print(f"phlegyas: warning: audit log not written: {exc}", file=err)


def cmd_check(args, out: TextIO, err: TextIO) -> int:
    if args.jsonl:
        return _check_jsonl(args, out, err)
    call = _call_from_args(args)
    runtime = _runtime(args, interactive=not args.headless)
    gate = runtime.gate(call.cwd)
    decision, ctx = gate.explain(call)
    mode = ctx.mode if ctx else gate.mode_for(call)
    _record(_audit(runtime, args), call, decision, mode, err)
    if decision.tier in ("fallback", "human"):  # the call went past the tiers: say once if Tier 3 was off

        note = off_reason(runtime.settings)
        if note:
            print(f"phlegyas: note: {note}", file=err)
    if args.json:
        out.write(json.dumps(_explain_json(decision, ctx, mode), ensure_ascii=False) + "\n")
    else:
        out.write(_explain_text(call, decision, ctx, mode, runtime.settings.trust_store))
    return EXIT_BY_VERDICT[decision.verdict]


def _call_from_args(args) -> ToolCall:
    cwd = os.path.abspath(args.cwd or os.getcwd())
    if args.tool:
        if args.command:
            raise CliError("give either --tool/--input or a command after --, not both")
        try:
            tool_input = json.loads(args.input or "{}")
        except json.JSONDecodeError as exc:
            raise CliError(f"--input is not valid JSON: {exc}") from None
        except RecursionError:
            raise CliError("--input is nested too deeply to read") from None
        if not isinstance(tool_input, dict):
            raise CliError("--input must be a JSON object")
        return ToolCall(args.tool, tool_input, cwd=cwd, mode=args.mode)
    if not args.command:
        raise CliError("nothing to check: give a command after --, --tool NAME --input JSON, or --jsonl FILE")
    command = args.command[0] if len(args.command) == 1 else " ".join(args.command)
    return ToolCall("Bash", {"command": command}, cwd=cwd, mode=args.mode)


def _explain_json(decision: Decision, ctx, mode: str) -> dict:
    out = decision.to_json()
    out["mode"] = mode
    if ctx is not None and ctx._analysis is not None:
        out["subcommands"] = [
            {"text": s.text, "program": s.program, "effects": s.effects, "safe": s.safe,
             "findings": [f.to_json() for f in s.findings]}
            for s in ctx.analysis.subcommands
        ]
    return out


def _explain_text(call: ToolCall, decision: Decision, ctx, mode: str, trust_store: str | None = None) -> str:
    lines = [f"{str(decision.verdict).upper()}  ({decision.tier}, mode {mode}, {decision.elapsed_us} µs)",
             f"  reason: {decision.reason}"]
    if decision.rule:
        lines.append(f"  rule:   {decision.rule}")
    lines.extend(f"  warning: {w}" for w in (decision.audit or {}).get("warnings", ()))
    analysis = ctx._analysis if ctx is not None else None
    if analysis is not None:
        if analysis.subcommands:
            lines.append("  what it does:")
        indent = "    " if analysis.subcommands else "  "
        lines.extend(indent + line for line in explain_lines(analysis))
        note = not_understood(analysis)  # why the call is not understood as a whole
        if note:
            lines.append(f"  {note}")
    if call.command is not None and ctx is not None and trust_store:  # Tier 2.5: which scripts are trusted
        from phlegyas.trust.checker import explain  # lean start-up: the other subcommands do not load the whole gate

        store = TrustStore(trust_store)
        lines.extend(f"  {line}" for line in explain(call, ctx.env, store, ctx.analysis, ctx.script))
    return "\n".join(lines) + "\n"


def _check_jsonl(args, out: TextIO, err: TextIO) -> int:
    if args.command or args.tool:
        raise CliError("--jsonl takes its calls from the file; do not also give a command or --tool")
    try:
        stream = sys.stdin if args.jsonl == "-" else open(args.jsonl, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise CliError(f"cannot read {args.jsonl}: {exc.strerror}") from None
    runtime = _runtime(args, interactive=not args.headless)
    audit = _audit(runtime, args)
    default_cwd = runtime.cwd
    with stream:
        for lineno, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                row_id, result = _decide_line(runtime, line, lineno, default_cwd, args.mode, audit, err)
            except Exception as exc:  # noqa: BLE001 - one bad line is a deny row; the batch goes on
                row_id, result = lineno, _error_row(f"line {lineno}: internal error: {type(exc).__name__}: "
                                                    f"{str(exc)[:200]}")
            result = {"id": row_id, **result}
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
            out.flush()  # one answer per line as it is decided: a reader streaming the batch is not kept waiting
    return 0


def _decide_line(runtime, line: str, lineno: int, default_cwd: str, mode: str | None, audit, err):
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return lineno, _error_row(f"line {lineno}: not valid JSON: {exc.msg}")
    except RecursionError:
        return lineno, _error_row(f"line {lineno}: JSON nested too deeply to read")
    row_id = data.get("id", lineno) if isinstance(data, dict) else lineno
    try:
        call = ToolCall.from_json(data)
    except InvalidCall as exc:
        return row_id, _error_row(f"line {lineno}: {exc}")
    if call.cwd is None or (mode and call.mode is None):
        call = replace(call, cwd=call.cwd or default_cwd, mode=call.mode or mode)
    gate = runtime.gate(call.cwd)
    decision = gate.decide(call)
    _record(audit, call, decision, gate.mode_for(call), err)
    row = {"decision": str(decision.verdict), "tier": decision.tier, "reason": decision.reason}
    if decision.rule:
        row["rule"] = decision.rule
    if decision.findings:
        row["findings"] = [f.id for f in decision.findings]
    return row_id, row


def _error_row(message: str) -> dict:
    return {"decision": "deny", "tier": "error", "reason": message, "error": message}


# -- stats -----------------------------------------------------------------------------------------

def cmd_stats(args, out: TextIO, err: TextIO) -> int:
    since = None
    if args.since:
        try:
            since = parse_since(args.since)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    if args.log:
        path = args.log
    else:
        runtime = _runtime(args)
        settings = runtime.settings_for(runtime.cwd)
        if settings.database_url and not args.local:
            stats = _fleet_stats(settings, since)
            out.write(json.dumps(stats, indent=2) + "\n" if args.json else format_stats(stats) + "\n")
            if stats.get("warning") and not args.json:
                err.write(f"phlegyas: warning: {stats['warning']}\n")
            return 0
        path = settings.audit_log_file
    if not os.path.exists(path):
        raise CliError(f"no audit log at {path} yet (decisions are logged by `phlegyas check` and the hook)")
    stats = compute_stats(path, since=since)
    out.write(json.dumps(stats, indent=2) + "\n" if args.json else format_stats(stats) + "\n")
    return 0


def _fleet_stats(settings, since) -> dict:
    """The statistics of the shared audit trail (every machine's decisions, counted by machine too)."""
    from phlegyas.store.approvals import StoreError  # (same: the shared database's modules)
    from phlegyas.store.backends import database, ship_now  # psycopg: only with a shared database
    from phlegyas.store.pg_audit import fleet_entries

    problem = ship_now(settings)  # this machine's latest decisions count too
    db = database(settings)
    try:
        stats = summarize(fleet_entries(db, since=since), since=since)
    except StoreError as exc:
        raise CliError(f"{exc} (`phlegyas stats --local` reads this machine's log)") from None
    finally:
        db.close()
    stats["source"] = db.shown
    if problem:
        stats["warning"] = problem
    return stats


# -- the parser ------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="phlegyas",
        description="A permission gate for AI coding agents: allow, ask or deny each tool call, "
                    "with a reason, and log it.",
        epilog="Run `phlegyas COMMAND --help` for the options of each command.",
    )
    parser.add_argument("--version", action=_Version, help="print the version and whether the analysis is compiled")
    sub = parser.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=_Parser)

    check = sub.add_parser(
        "check", help="decide and explain a shell command or tool call",
        description="Decide a call and explain why: the verdict, the tier that decided it, and per "
                    "subcommand what it does and what was found. Exit status: 0 allow, 1 ask, 2 deny, "
                    "3 error.",
        epilog="examples:\n"
               "  phlegyas check -- 'git status && rm -rf build'\n"
               "  phlegyas check --mode plan -- npm test\n"
               "  phlegyas check --tool Write --input '{\"file_path\": \"/etc/hosts\", \"content\": \"\"}'\n"
               "  phlegyas check --jsonl calls.jsonl --no-audit > decisions.jsonl\n\n"
               "--jsonl input lines: {\"id\"?, \"tool_name\", \"tool_input\", \"cwd\"?, \"permission_mode\"?}\n"
               "or the shorthand {\"id\"?, \"command\"}; one output line per input line, in order.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("command", nargs="*", help="the shell command (put it after --)")
    check.add_argument("--tool", metavar="NAME", help="check a call of this tool (Read, Write, WebFetch, mcp__x__y …)")
    check.add_argument("--input", metavar="JSON", help="the tool input for --tool, as a JSON object")
    check.add_argument("--jsonl", metavar="FILE", help="decide one call per line of FILE (- for stdin)")
    check.add_argument("--mode", choices=MODES + tuple(MODE_ALIASES), type=canonical_mode, metavar="MODE",
                       help=f"permission mode: {', '.join(MODES)} (manual = default; default: the policy's, "
                            "else $PHLEGYAS_MODE)")
    check.add_argument("--cwd", metavar="DIR", help="working directory of the call (default: here)")
    check.add_argument("--policy", metavar="FILE", action="append", help="extra policy file (repeatable)")
    check.add_argument("--json", action="store_true", help="print the decision as JSON")
    check.add_argument("--no-audit", action="store_true", help="do not write the audit log")
    check.add_argument("--headless", action="store_true", help="no human can answer: ask becomes deny")
    check.set_defaults(func=cmd_check)

    stats = sub.add_parser("stats", help="statistics of the audit log",
                           description="Totals of the audit log by decision, tier and tool; with a shared "
                                       "database (PHLEGYAS_DATABASE_URL), of every machine's, by machine too.")
    stats.add_argument("--since", metavar="WHEN", help="only decisions since: 30m, 2h, 7d, 2026-11-01 …")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.add_argument("--log", metavar="FILE", help="the audit log (default: $AUDIT_LOG_FILE)")
    stats.add_argument("--local", action="store_true", help="this machine's log, not the shared database's "
                                                            "audit trail (with PHLEGYAS_DATABASE_URL)")
    stats.add_argument("--cwd", metavar="DIR", help=argparse.SUPPRESS)
    stats.add_argument("--policy", action="append", help=argparse.SUPPRESS)
    stats.set_defaults(func=cmd_stats)
    install_cli.register(sub)  # install, uninstall, hook
    approvals_cli.register(sub)  # pending, approve, deny, mcp
    doctor_cli.register(sub)  # doctor
    slack_cli.register(sub)  # slack test
    dashboard_cli.register(sub)  # dashboard
    db_cli.register(sub)  # db upgrade, status, prune, flush
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(out)
        return EXIT_ERROR
    try:
        return args.func(args, out, err)
    except CliError as exc:
        print(f"phlegyas: {exc}", file=err)
        return EXIT_ERROR
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("phlegyas: interrupted", file=err)
        return 130
    except Exception as exc:  # noqa: BLE001 - never a traceback; `check` fails closed (deny's exit 2)
        print(f"phlegyas: internal error: {type(exc).__name__}: {str(exc)[:300]}", file=err)
        return EXIT_BY_VERDICT[Verdict.DENY] if args.func is cmd_check else EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
