"""What a pipe or a heredoc feeds a command: the literal text on its stdin, when it can be known.

``sh <<EOF``, ``echo 'rm -rf ~' | bash``, ``printf … | at now``: a heredoc or here-string body, or the
output of a lone ``echo``/``printf``/``cat <<EOF`` producer upstream.
"""
from __future__ import annotations

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import SimpleCommand, decode_ansi_c


def stdin_text(cmd: SimpleCommand, ups_of: dict[int, list[Invocation]]) -> tuple[str | None, str]:
    """The literal text ``cmd`` reads on stdin, and where it comes from (``<heredoc``, ``pipe from echo``
    …); ``(None, "")`` when it is not known. ``ups_of`` maps a command's id to the producers piped in."""
    if cmd.stdin_text is not None:
        return (None, "") if cmd.stdin_dynamic else (cmd.stdin_text, "<heredoc")
    ups = ups_of.get(id(cmd), ())
    if len(ups) != 1:
        return None, ""
    return literal_output(ups[0])


def literal_output(producer: Invocation | None) -> tuple[str | None, str]:
    """What ``producer`` writes when that is literal: ``echo``/``printf`` of literal words, ``cat`` of a
    heredoc."""
    if producer is None or producer.via:
        return None, ""
    words = producer.args
    if producer.program == "echo" and not any(w.dynamic for w in words):
        texts = [w.text for w in words]
        while texts and texts[0] in ("-n", "-e", "-E", "-ne", "-en"):
            texts = texts[1:]
        return " ".join(texts), "pipe from echo"
    if producer.program == "printf" and words and not any(w.dynamic for w in words):
        return decode_ansi_c(words[0].text).replace("%s", " ".join(w.text for w in words[1:])), "pipe from printf"
    if producer.program == "cat" and not words and producer.stdin_text is not None \
            and not producer.command.stdin_dynamic:
        return producer.stdin_text, "pipe from cat"
    return None, ""
