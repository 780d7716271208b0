#!/usr/bin/env python3
"""Wall time of the Claude Code hook, one process per call, against ``python -c pass``.

Claude Code starts the hook once per tool call, so what counts is the whole process: interpreter
start, imports, the decision and the answer. This runs, side by side and interleaved in one run with
the same interpreter, ``python -c pass`` and the hook deciding a typical event (a Bash ``git status``
PreToolUse event in a fresh project, in an isolated home), and prints the medians and their ratio
(the target is <= 2.0):

- the command ``phlegyas install`` writes (``python -P -c 'from phlegyas.hosts.hook.client import main; …'``), warm:
  the resident decision server is up, the normal case; this is the ratio that counts;
- the ``phlegyas-hook`` console script pip writes (its wrapper imports ``re``), warm;
- ``python -P -m phlegyas.hosts.hook.client`` (runpy), warm;
- the in-process decision with the server turned off (``PHLEGYAS_HOOK_SERVER=off``);
- the first call (cold: no server yet, so it decides in-process and starts one), repeated ``--cold``
  times with a fresh home each time.

Every hook answer is checked (an allow for ``git status``), and the server's log must show that the
warm calls were served by it. ``--compile`` first byte-compiles the package (what a pip install
does; this environment sets PYTHONDONTWRITEBYTECODE=1, so without it every module is compiled from
source at each start).

usage: python benchmarks/hook_latency.py [--rounds 40] [--cold 3] [--compile] [--check]
"""
from __future__ import annotations

import argparse
import compileall
import glob
import json
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import phlegyas

PACKAGE = os.path.dirname(os.path.abspath(phlegyas.__file__))
TARGET = 2.0
COLD = "installed hook command (cold: first call)"


def event(project: str) -> bytes:
    return json.dumps({
        "session_id": "6472bench", "transcript_path": os.path.join(project, "t.jsonl"), "cwd": project,
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "git status", "description": "Show working tree status"},
        "tool_use_id": "toolu_bench",
    }).encode()


class Sandbox:
    """A fresh home and project; the environment the hook sees."""

    def __init__(self, python: str):
        self.root = tempfile.mkdtemp(prefix="phlegyas-hook-bench-")
        self.home = os.path.join(self.root, "home")
        self.project = os.path.join(self.root, "project")
        os.makedirs(self.home)
        os.makedirs(os.path.join(self.project, ".git"))
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("PHLEGYAS_", "ANTHROPIC_", "OPENAI_", "CLAUDE_"))}
        self.env.update(HOME=self.home, PHLEGYAS_HOME=os.path.join(self.home, ".claude", "phlegyas"),
                        PHLEGYAS_HOOK_SERVER_IDLE="300")
        self.python = python

    @property
    def hookd_dir(self) -> str:
        return os.path.join(self.env["PHLEGYAS_HOME"], "hookd")

    def served(self) -> int:
        """How many requests the server logged as served."""
        count = 0
        for log in glob.glob(os.path.join(self.hookd_dir, "*.log")):
            with open(log, encoding="utf-8") as fh:
                count += sum(1 for line in fh if "] request " in line)
        return count

    def wait_for_server(self, timeout: float = 30.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if glob.glob(os.path.join(self.hookd_dir, "*.pid")):
                return True
            time.sleep(0.05)
        return False

    def stop_server(self) -> None:
        for pid_file in glob.glob(os.path.join(self.hookd_dir, "*.pid")):
            try:
                with open(pid_file) as fh:
                    os.kill(int(fh.read().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass

    def cleanup(self) -> None:
        self.stop_server()
        shutil.rmtree(self.root, ignore_errors=True)


def timed(argv: list[str], stdin: bytes, env: dict, cwd: str) -> tuple[float, bytes]:
    started = time.perf_counter()
    proc = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{argv} exited {proc.returncode}: {proc.stderr.decode(errors='replace')}")
    return elapsed, proc.stdout


def check_allow(out: bytes) -> None:
    answer = json.loads(out)["hookSpecificOutput"]
    if answer["permissionDecision"] != "allow":
        raise SystemExit(f"expected an allow for git status, got {answer}")


def installed_command(python: str) -> list[str]:
    """The hook command ``phlegyas install`` writes into Claude Code's settings, as argv."""
    from phlegyas.hosts.claude_code.install import hook_command

    return shlex.split(hook_command(python))


def console_script(python: str) -> list[str]:
    script = os.path.join(os.path.dirname(python), "phlegyas-hook")
    return [script] if os.path.exists(script) else [python, "-m", "phlegyas.hosts.hook.client"]


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def measure(python: str, rounds: int, cold_runs: int) -> dict[str, list[float]]:
    installed = installed_command(python)
    variants = {
        "python -c pass": ([python, "-c", "pass"], None),
        "installed hook command (warm server)": (installed, {}),
        "phlegyas-hook console script (warm server)": (console_script(python), {}),
        "python -P -m phlegyas.hosts.hook.client (warm server)": (
            [python, "-P", "-m", "phlegyas.hosts.hook.client"], {}),
        "in-process (server off)": (installed, {"PHLEGYAS_HOOK_SERVER": "off"}),
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    times[COLD] = []
    for _ in range(cold_runs):
        box = Sandbox(python)
        try:
            elapsed, out = timed(installed, event(box.project), box.env, box.project)
            check_allow(out)
            times[COLD].append(elapsed)
            box.wait_for_server()  # so that cleanup stops the server this first call started
        finally:
            box.cleanup()
    box = Sandbox(python)
    try:
        timed(installed, event(box.project), box.env, box.project)
        if not box.wait_for_server():
            raise SystemExit("the decision server did not start (see its log in the hookd directory)")
        served_before = box.served()
        warm_calls = 0
        for i in range(rounds):
            order = list(variants.items())
            if i % 2:
                order.reverse()
            for name, (argv, extra) in order:
                env = dict(box.env, **(extra or {}))
                elapsed, out = timed(argv, event(box.project), env, box.project)
                if extra is not None:
                    check_allow(out)
                if extra == {}:
                    warm_calls += 1
                times[name].append(elapsed)
        served = box.served() - served_before
        if served < warm_calls:
            print(f"warning: the server served {served} of {warm_calls} warm calls (the others were decided "
                  "in-process: did the code change during the run?)", file=sys.stderr)
    finally:
        box.cleanup()
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=40, help="interleaved rounds of every variant")
    ap.add_argument("--cold", type=int, default=3, help="first calls in fresh homes")
    ap.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    ap.add_argument("--compile", action="store_true", help="byte-compile the package first, as pip does")
    ap.add_argument("--check", action="store_true", help=f"exit 1 when the warm ratio is above {TARGET}")
    args = ap.parse_args()
    if args.compile:
        compileall.compile_dir(PACKAGE, quiet=1)
    times = measure(args.python, args.rounds, args.cold)
    base = median_ms(times["python -c pass"])
    print(f"interpreter {args.python}; {args.rounds} rounds; .pyc: "
          f"{'compiled' if args.compile else 'as found'} (PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')})")
    for name, values in times.items():
        if values:
            ms = median_ms(values)
            print(f"  {name:44s} median {ms:7.1f} ms  ratio {ms / base:4.2f}  (n={len(values)})")
    ratio = median_ms(times["installed hook command (warm server)"]) / base
    print(f"hook / python -c pass = {ratio:.2f} (target <= {TARGET})")
    return 1 if args.check and ratio > TARGET else 0


if __name__ == "__main__":
    sys.exit(main())
