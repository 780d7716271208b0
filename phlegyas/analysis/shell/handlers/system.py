"""System settings: commands that change something once given an operand (``hostname``, ``mount``,
``ifconfig``, ``sysctl``), ``ip`` objects and verbs, system configuration tools and ``service``."""
from __future__ import annotations

from typing import Final

from phlegyas.analysis.shell.handlers.base import Call, operand_texts, read_only


def operand_mutates(c: Call) -> None:
    ops = c.parsed.operands
    limit = 1 if c.name in ("ifconfig", "iwconfig", "route", "arp") else 0
    if len(ops) > limit:
        c.eff.mutates.append(c.spec.does or f"runs {c.name}")


def assign_operand_mutates(c: Call) -> None:
    if any("=" in t for t in operand_texts(c)):
        c.eff.mutates.append(c.spec.does or "changes settings")


_IP_READ: Final = frozenset({"", "show", "list", "ls", "lst", "sh", "get", "help", "s", "l"})


def ip(c: Call) -> None:
    ops = operand_texts(c)
    if len(ops) >= 2 and ops[0] == "netns" and ops[1] == "exec":
        c.eff.runs.append("executes a command in a network namespace")
        return
    verb = ops[1] if len(ops) > 1 else ""
    if ops and ops[0] in ("monitor", "mon"):
        return
    if verb not in _IP_READ:
        c.eff.mutates.append("changes network settings")


def system_config(c: Call) -> None:
    ops = operand_texts(c)
    names = {n for n, _ in c.parsed.opts}
    read_verbs = {"status", "show", "list", "list-timezones", "list-locales", "list-keymaps", "list-sessions",
                  "list-users", "list-seats", "show-session", "show-user", "--version", "help", "tree", "introspect"}
    if c.name in ("iptables", "ip6tables", "ebtables", "arptables"):
        readonly = bool(names & {"-L", "--list", "-S", "--list-rules"}) and not (
            names & {"-A", "-D", "-I", "-R", "-F", "-X", "-N", "-P", "-Z", "-E", "--append", "--delete", "--insert",
                     "--flush", "--policy", "--zero"})
    elif c.name == "ldconfig":
        readonly = bool(names & {"-p", "--print-cache"})
    elif c.name in ("nft", "ufw", "firewall-cmd"):
        readonly = bool(ops) and ops[0] in ("list", "status", "--list-all", "--state") or bool(
            names & {"--list-all", "--state", "--get-zones", "--list-services"})
    else:
        readonly = not ops or ops[0] in read_verbs
    if readonly:
        read_only(c)


def service(c: Call) -> None:
    ops = operand_texts(c)
    if c.parsed.has(("--status-all",)) or (len(ops) >= 2 and ops[1] == "status"):
        read_only(c)
