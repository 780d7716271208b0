"""What a pipe or a heredoc feeds a command: the literal text on its stdin, when it can be known.

``sh <<EOF``, ``echo 'rm -rf ~' | bash``, ``printf … | at now``: a heredoc or here-string body, or the
output of a lone ``echo``/``printf``/``cat <<EOF`` producer upstream.
"""
from __future__ import annotations

import base64
import binascii
import bz2
import lzma
import re
import zlib
from typing import Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.shell.parse import SimpleCommand, Word, parse
from phlegyas.analysis.shell.printed import PRINTERS, printed
from phlegyas.analysis.shell.readvars import printf_format
from phlegyas.analysis.shell.syntax import decode_ansi_c


def stdin_text(cmd: SimpleCommand, ups_of: dict[int, list[Invocation]]) -> tuple[str | None, str]:
    """The literal text ``cmd`` reads on stdin, and where it comes from (``<heredoc``, ``pipe from echo``
    …); ``(None, "")`` when it is not known. ``ups_of`` maps a command's id to the producers piped in."""
    if cmd.stdin_text is not None:
        return (None, "") if cmd.stdin_dynamic else (cmd.stdin_text, "<heredoc")
    for r in cmd.redirects:  # `xargs cat < <(echo ~/.ssh/id_rsa)`: what a process substitution prints
        target = r.target
        if r.op == "<" and r.fd in (None, "0") and target is not None and target.dynamic \
                and target.text.startswith("<(") and target.text.endswith(")"):
            produced = substitution_output("$(" + target.text[2:])
            return (produced, "<(…)") if produced is not None else (None, "")
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
        escapes = False
        while texts and texts[0] in ("-n", "-e", "-E", "-ne", "-en"):
            escapes = "e" in texts[0]
            texts = texts[1:]
        joined = " ".join(texts)  # `echo -e '\x72\x6d -rf ~'`: the escapes decoded, as echo -e prints them
        return (decode_ansi_c(_ECHO_OCTAL.sub(lambda m: "\\" + m.group(1), joined)) if escapes and "\\" in joined
                else joined), "pipe from echo"
    if producer.program == "printf" and words and not any(w.dynamic for w in words):
        formatted = printf_format(words[0].text, [w.text for w in words[1:]])
        return (formatted, "pipe from printf") if formatted is not None else (None, "")
    if producer.program == "cat" and all(w.text == "-" and not w.dynamic for w in words) and len(words) <= 1 \
            and producer.stdin_text is not None \
            and not producer.command.stdin_dynamic:
        return producer.stdin_text, "pipe from cat"
    if producer.program == "jq" and not any(w.dynamic for w in words):  # `jq -rn '"Y3Vy…" | @base64d'`
        texts = [w.text for w in words]
        flags = "".join(t[1:] for t in texts if t.startswith("-") and not t.startswith("--"))
        programs = [t for t in texts if not t.startswith("-")]
        m = _JQ_LITERAL.fullmatch(programs[0].strip()) if "n" in flags and len(programs) == 1 else None
        if m is not None and "r" in flags:
            text = m.group(1)
            if m.group(2):
                try:
                    text = base64.b64decode(text + "=" * (-len(text) % 4)).decode("utf-8", "replace")
                except (ValueError, binascii.Error):
                    return None, ""
            return text, "pipe from jq"
    if producer.program in PRINTERS and not any(w.dynamic for w in words):  # `python3 -c 'print("rm -rf ~")'`
        got = printed(producer.program, [w.text for w in words])
        return (got, f"pipe from {producer.program}") if got is not None else (None, "")
    if producer.program in _DECODERS and len(producer.upstream) <= 1:
        source = producer.upstream[0] if producer.upstream else None
        given = producer.stdin_text if source is None and not producer.command.stdin_dynamic else None
        text = given if given is not None else literal_output(source)[0]
        decoded = decode(producer.program, [w.text for w in words], text) if text is not None else None
        if decoded is not None:
            return decoded, f"pipe from {producer.program}"
    return None, ""


_DECODERS: Final = frozenset({"base64", "base32", "xxd", "rev", "basenc", "tr", "sed", "openssl", "gunzip", "zcat",
                              "gzip", "gzcat", "bunzip2", "bzcat", "bzip2", "unxz", "xzcat", "xz", "unlzma", "lzcat"})
_PRODUCERS: Final = frozenset({"echo", "printf", "cat", "jq", *_DECODERS, *PRINTERS})
DECODERS: Final = _DECODERS
"""The programs ``literal_output`` knows the output of: a substitution starting with any other is not parsed."""


_JQ_LITERAL: Final = re.compile(r'"([^"\\]*)"\s*(\|\s*@base64d)?')
_ECHO_OCTAL: Final = re.compile(r"\\0([0-7]{1,3})")  # echo -e's octal escape: \0NNN (ANSI-C's is \NNN)


def decode(program: str, args: list[str], text: str) -> str | None:
    """What a decoder makes of literal ``text`` (``base64 -d``, ``base32 -d``, ``xxd -r -p``, ``rev``): the
    obfuscated command comes out in the clear. None when the options say it encodes, or the text is not
    valid input."""
    flags = set(args)
    try:
        if program in ("base64", "basenc") and flags & {"-d", "--decode", "-D", "-di", "-id"}:
            raw = base64.b64decode("".join(text.split()) + "==", validate=False)
        elif program == "base32" and flags & {"-d", "--decode"}:
            cleaned = "".join(text.split()).upper()
            raw = base64.b32decode(cleaned + "=" * (-len(cleaned) % 8))
        elif program == "xxd" and "-r" in flags and ("-p" in flags or "-ps" in flags or "-plain" in flags):
            raw = binascii.unhexlify("".join(text.split()))
        elif program == "rev":
            return "\n".join(line[::-1] for line in text.split("\n"))
        elif program == "tr":
            return _translate(args, text)
        elif program == "sed":
            return _substitute(args, text)
        elif program == "openssl" and args[:1] in (["base64"], ["enc"]) and "-d" in flags and (
                args[0] == "base64" or flags & {"-base64", "-a"}):
            raw = base64.b64decode("".join(text.split()) + "==", validate=False)
        elif program in _DECOMPRESSORS and (program in _ALWAYS_DECOMPRESS or flags & _DECOMPRESS_FLAGS):
            raw = _decompress(_DECOMPRESSORS[program], text.encode("latin-1"))
        else:
            return None
    except (ValueError, binascii.Error, EOFError, OSError, LookupError, zlib.error, lzma.LZMAError):
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:  # binary (a compressed stream on its way to gunzip): one character per byte
        return raw.decode("latin-1")


_DECOMPRESSORS: Final = {"gunzip": "gzip", "zcat": "gzip", "gzip": "gzip", "gzcat": "gzip", "bunzip2": "bzip2",
                         "bzcat": "bzip2", "bzip2": "bzip2", "unxz": "xz", "xzcat": "xz", "xz": "xz", "unlzma": "xz",
                         "lzcat": "xz"}
_ALWAYS_DECOMPRESS: Final = frozenset({"gunzip", "zcat", "gzcat", "bunzip2", "bzcat", "unxz", "xzcat", "unlzma",
                                       "lzcat"})
_DECOMPRESS_FLAGS: Final = frozenset({"-d", "--decompress", "--uncompress", "-dc", "-cd", "-df", "-dcf"})
_MAX_DECOMPRESSED: Final = 1 << 20  # a payload is a command line, not a bomb: stop reading after 1 MiB


def _decompress(kind: str, data: bytes) -> bytes:
    """``echo H4sI… | base64 -d | gunzip | sh``: what a literal compressed stream holds, at most 1 MiB."""
    if kind == "gzip":
        return zlib.decompressobj(wbits=47).decompress(data, _MAX_DECOMPRESSED)  # gzip or zlib header
    if kind == "bzip2":
        return bz2.BZ2Decompressor().decompress(data, _MAX_DECOMPRESSED)
    return lzma.LZMADecompressor().decompress(data, _MAX_DECOMPRESSED)


_REGEX_CHARS: Final = frozenset("\\.*[]^$+?(){}|")


def _substitute(args: list[str], text: str) -> str | None:
    """``sed 's/@/ /g'`` of literal text: one ``s`` command whose pattern and replacement are plain
    characters (no regular expression, no ``&``); None for any other script."""
    scripts = [a for a in args if not a.startswith("-")] if "-e" not in args else [args[args.index("-e") + 1]] \
        if args.index("-e") + 1 < len(args) else []
    if len(scripts) != 1 or len(scripts[0]) < 4 or scripts[0][0] != "s" or any(
            a.startswith("-") and a not in ("-e", "-E", "-r") for a in args):
        return None
    d = scripts[0][1]
    parts = scripts[0][2:].split(d)
    if len(parts) != 3 or set(parts[2]) - {"g"} or _REGEX_CHARS & set(parts[0]) or not parts[0] or \
            set("&\\") & set(parts[1]):
        return None
    if parts[2] == "g":
        return text.replace(parts[0], parts[1])
    return "\n".join(line.replace(parts[0], parts[1], 1) for line in text.split("\n"))


_TR_CLASSES: Final = {"[:lower:]": "abcdefghijklmnopqrstuvwxyz", "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                       "[:digit:]": "0123456789"}


def _tr_set(spec: str) -> str | None:
    """The characters of a ``tr`` set: ranges (``a-z``), classes (``[:upper:]``) and plain characters."""
    for name, chars in _TR_CLASSES.items():
        spec = spec.replace(name, chars)
    if "[" in spec or "\\" in spec:
        return None  # [=c=], [c*n], escapes: not read here
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-" and spec[i] <= spec[i + 2]:
            out.extend(chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out) if len(out) <= 512 else None


def _translate(args: list[str], text: str) -> str | None:
    """``tr SET1 SET2`` of literal text (``tr 'a-z' 'n-za-m'``: rot13) and ``tr -d SET`` (``rXm`` → ``rm``);
    None with other options or odd sets."""
    if len(args) == 2 and args[0] == "-d":
        gone = _tr_set(args[1])
        return text.translate({ord(c): None for c in gone}) if gone else None
    if len(args) != 2 or any(a.startswith("-") for a in args):
        return None
    first, second = _tr_set(args[0]), _tr_set(args[1])
    if not first or not second:
        return None
    second = second + second[-1] * max(0, len(first) - len(second))  # GNU tr pads SET2 with its last character
    return text.translate({ord(a): b for a, b in zip(first, second)})


_HOME_WORDS: Final = frozenset({"$HOME", "${HOME}"})


def substitution_output(text: str) -> str | None:
    """What ``$(…)`` prints when its pipeline only prints and decodes literals
    (``$(echo cm0gLXJmIH4= | base64 -d)`` is ``rm -rf ~``); None otherwise."""
    if not (text.startswith("$(") and text.endswith(")")) or text.startswith("$(("):
        return None
    first = text[2:-1].lstrip(" \t\n").split(None, 1)
    if not first or first[0] not in _PRODUCERS:  # only these print literals: no parse for `$(find …)`
        return None
    script = parse(text[2:-1])
    if script.problems or not script.commands or len(script.commands) > 4:
        return None
    out: str | None = None
    for i, cmd in enumerate(script.commands):
        if i and cmd.upstream != [i - 1] or not cmd.words or any(
                w.dynamic and w.text not in _HOME_WORDS for w in cmd.words):  # `printf '%s/.ssh' "$HOME"` stays $HOME
            return None
        prog, args = cmd.program or "", [w.text for w in cmd.words[1:]]
        if i == 0:
            given = [Word(w.text, False, w.glob, True) if w.dynamic else w for w in cmd.words[1:]]
            producer = Invocation(prog, given, cmd, stdin_text=cmd.stdin_text)
            out = literal_output(producer)[0]
        elif prog in _DECODERS and out is not None:
            out = decode(prog, args, out)
        else:
            return None
        if out is None:
            return None
    return out
