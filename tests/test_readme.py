"""The README shows what the commands print: its first sample is run and compared line by line (the
microseconds aside), so a change in wording fails here instead of surprising a newcomer."""
from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _blocks() -> list[str]:
    return re.findall(r"```(?:sh)?\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _try_it() -> tuple[str, str]:
    """The command of the "Try it" section and the output block after it."""
    blocks = _blocks()
    at = next(i for i, b in enumerate(blocks) if "phlegyas check -- " in b and "pip install ." in b)
    command = re.search(r"phlegyas check -- '([^']*)'", blocks[at]).group(1)
    return command, blocks[at + 1]


def _normal(text: str) -> list[str]:
    return [re.sub(r"\d+ µs", "N µs", line).rstrip() for line in text.strip().splitlines()]


def test_the_try_it_sample_is_what_check_prints(run_cli, tmp_path):
    command, shown = _try_it()
    home = tmp_path / "home" / "you"  # the sample's home is /home/you: print it as such
    home.mkdir(parents=True)
    proc = run_cli("check", "--no-audit", "--", command, env_extra={"HOME": "/home/you",
                                                                      "PHLEGYAS_HOME": str(home / ".phlegyas")})
    assert proc.returncode == 2
    assert _normal(proc.stdout) == _normal(shown)
