"""Text shown to a person: one line, nothing that could rewrite their terminal or page."""
from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with newlines, tabs, escape sequences and other unprintable characters shown escaped, so a
    command cannot rewrite the terminal of the person reading it."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable():
            out.append(ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)
