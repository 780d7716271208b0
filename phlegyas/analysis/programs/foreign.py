"""Programs that run code of a language the gate has no model of (``shell.foreign_code`` reads it for
shell commands and recursive deletes), with the options that take that code; their literal stdin counts too.
"""
from __future__ import annotations

from typing import Final

FOREIGN: Final[dict[str, tuple[str, ...]]] = {
    "elixir": ("-e", "--eval"), "iex": ("-e", "--eval"), "mix": ("-e", "--eval"),
    "erl": ("-eval", "-s"), "escript": ("-e",),
    "sbcl": ("--eval",), "clisp": ("-x",), "ecl": ("-eval",), "racket": ("-e", "--eval"),
    "guile": ("-c",), "chez": (), "scheme": (), "csi": ("-e", "-eval"), "gosh": ("-e",),
    "ghc": ("-e",), "ghci": ("-e",), "runghc": ("-e",), "swipl": ("-g", "-t"), "gprolog": ("--query-goal",),
    "octave": ("--eval",), "tclsh": (), "wish": (), "julia": ("-e", "--eval"), "jshell": (),
    "jrunscript": ("-e",), "groovy": ("-e",), "kotlin": ("-e",), "scala": ("-e",), "clojure": ("-e", "--eval"),
    "clj": ("-e", "--eval"), "bb": ("-e", "--eval"), "nim": (), "crystal": ("eval",), "dart": (),
    "puppet": ("-e", "--execute"), "chef-apply": ("-e", "--execute"), "salt-call": (),
    "mlr": ("-s",), "bpftrace": ("-e",),
    "rake": ("-e", "--execute", "-p", "--execute-print", "-E", "--execute-continue"),
    "rails": ("runner", "r"),  # `rails runner CODE`: Ruby run in the application
}
"""Programs whose code ``shell.foreign_code`` reads: the options that take code (``-e CODE``); stdin too."""
FOREIGN_LANGUAGES: Final = {"rake": "ruby", "rails": "ruby"}
"""Of those, the programs whose code is of a language the gate does read (``rake -e``: Ruby)."""
FOREIGN_OPERANDS: Final = frozenset({"mlr"})
"""Of those, the programs whose operands are code too (``mlr -n put 'end { system("…") }'``)."""


__all__ = ["FOREIGN", "FOREIGN_LANGUAGES", "FOREIGN_OPERANDS"]
