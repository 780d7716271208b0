"""Whether a sed script runs shell commands: GNU sed's ``e`` command, and the ``e`` flag of ``s///e``
(``tier1.network.detect_sed`` reports either as running what sed reads).

The regex below is the definition; it backtracks over every ``s`` of a script, so ``sed_runs`` tries it only
where it can match (``tests/test_fast_paths.py`` checks that both agree)."""
from __future__ import annotations

import re
from typing import Final

SED_RUNS: Final = re.compile(r"(?:^|[;{}\n]\s*)e(?:\s|$|;)|s(.)(?:(?!\1).|\\.)*\1(?:(?!\1).|\\.)*\1[gpiImM0-9w]*e")
_SED_FLAGS: Final = frozenset("gpiImM0123456789w")


def sed_runs(script: str) -> bool:
    """``SED_RUNS.search(script)``, with the regex run only where it can match: an ``e`` command at a
    command's start, or an ``e`` after a delimiter (and flags) that some ``s`` before it opened. The regex
    backtracks over every ``s`` of the script; tried on every sed script, it cost more than the rest of a
    call (issue 11's latency bar)."""
    if "e" not in script:
        return False
    at = script.find("e")
    while at >= 0:
        p = at - 1
        while p >= 0 and script[p] in _SED_FLAGS:
            p -= 1
        if p <= 0 or script[p] in ";{}\n \t":
            return SED_RUNS.search(script) is not None  # an `e` command may start here
        for q in range(p, at):  # the delimiter before the flags (a flag letter can be the delimiter: `sg…g…ge`)
            if script.find("s" + script[q], 0, q - 1) >= 0:
                return SED_RUNS.search(script) is not None  # an `s///e` may end here
        at = script.find("e", at + 1)
    return False
