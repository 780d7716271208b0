"""Flows in code we cannot parse (JavaScript, Ruby, Perl, PHP, Julia), for ``interpreters.scripting``:

- payloads decoded from a literal (``Buffer.from('…','base64')``, ``atob('…')``, ``Base64.decode64('…')``,
  ``decode_base64('…')``, ``base64_decode('…')``, ``hex2bin``, ``str_rot13``) are written in the clear;
- the home directory inside an interpolated string (``"$ENV{HOME}/x"``, ``"#{Dir.home}/x"``,
  ```${os.homedir()}/x```) is written ``~``;
- the listings a delete may walk (``Dir.glob('~/*')``, ``readdirSync('~')``, ``glob("~/*")``, ``scandir``);
- the files and environment variables the code reads, which a network call may send.
"""
from __future__ import annotations

import base64
import binascii
import codecs
import re
from typing import Final

_STR = r"""(?:'[^'\\]*'|"[^"\\]*")"""

_DECODES: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "js": (
        (re.compile(rf"""\bBuffer\.from\(\s*({_STR})\s*,\s*['"](base64|base64url|hex|latin1|binary)['"]\s*\)"""
                    r"""(?:\s*\.\s*toString\(\s*(?:['"][\w-]*['"])?\s*\))?"""), ""),
        (re.compile(rf"""\batob\(\s*({_STR})\s*\)"""), "base64"),
        (re.compile(rf"""({_STR})\.split\(\s*(?:''|""|``)\s*\)\.reverse\(\)\.join\(\s*(?:''|""|``)\s*\)"""),
         "reverse"),
    ),
    "ruby": (
        (re.compile(rf"""({_STR})\.reverse\b"""), "reverse"),
        (re.compile(rf"""\bBase64\.(?:strict_|urlsafe_)?decode64\(?\s*({_STR})\s*\)?"""), "base64"),
        (re.compile(rf"""({_STR})\.unpack1?\(\s*['"]m0?['"]\s*\)(?:\.first|\[0\])?"""), "base64"),
        (re.compile(rf"""\[\s*({_STR})\s*\]\.pack\(\s*['"]H\*['"]\s*\)"""), "hex"),
        (re.compile(rf"""({_STR})\.unpack1?\(\s*['"]u['"]\s*\)(?:\.first|\[0\])?"""), "uu"),
    ),
    "perl": (
        (re.compile(rf"""\b(?:scalar\s+)?reverse\s*\(?\s*({_STR})\s*\)?"""), "reverse"),
        (re.compile(rf"""\b(?:MIME::Base64::)?decode_base64\(\s*({_STR})\s*\)"""), "base64"),
        (re.compile(rf"""\bpack\(\s*['"]H\*['"]\s*,\s*({_STR})\s*\)"""), "hex"),
        (re.compile(rf"""\bunpack\(\s*['"]u['"]\s*,\s*q?({_STR}|\{{[^{{}}]*\}}|\([^()]*\))\s*\)"""), "uu"),
    ),
    "php": (
        (re.compile(rf"""\bbase64_decode\(\s*({_STR})\s*\)"""), "base64"),
        (re.compile(rf"""\bhex2bin\(\s*({_STR})\s*\)"""), "hex"),
        (re.compile(rf"""\bstr_rot13\(\s*({_STR})\s*\)"""), "rot13"),
        (re.compile(rf"""\bstrrev\(\s*({_STR})\s*\)"""), "reverse"),
        (re.compile(rf"""\bgzinflate\(\s*base64_decode\(\s*({_STR})\s*\)\s*\)"""), "inflate"),
    ),
}


def _decode(text: str, how: str) -> str | None:
    try:
        if how in ("base64", "base64url"):
            t = text.replace("-", "+").replace("_", "/")
            return base64.b64decode(t + "=" * (-len(t) % 4)).decode("utf-8", "replace")
        if how == "hex":
            return bytes.fromhex(text).decode("utf-8", "replace")
        if how == "uu":  # perl's `unpack("u", …)`, ruby's `.unpack1("u")`: uuencoded lines
            return b"".join(binascii.a2b_uu(line) for line in text.strip().splitlines()).decode("utf-8", "replace")
        if how == "rot13":
            return codecs.encode(text, "rot13")
        if how in ("latin1", "binary"):
            return text
        if how == "reverse":  # perl's `scalar reverse "…"`, ruby's `"…".reverse`, PHP's strrev, JS's split-reverse-join
            return text[::-1]
    except (ValueError, binascii.Error, UnicodeError):
        return None
    return None


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def decode_literals(code: str, lang: str) -> str:
    """``code`` with each decoding of a literal replaced by the decoded text, as a string literal."""
    patterns = _DECODES.get(lang)
    if not patterns or len(code) > 20_000:
        return code

    def sub(how: str):
        def one(m: re.Match[str]) -> str:
            kind = how or m.group(2)
            got = _decode(m.group(1)[1:-1], kind)
            return m.group(0) if got is None else _quoted(got)
        return one

    for pattern, how in patterns:
        code = pattern.sub(sub(how), code)
    return code


_ASSIGNED: dict[str, re.Pattern[str]] = {
    # a name bound to one string literal: `const c = "…"`, `c = '…'`, `my $c = "…"`, `$c = '…'`
    "js": re.compile(rf"""(?:^|[;{{\n]|\b(?:const|let|var)\s)\s*([A-Za-z_$][\w$]*)\s*=\s*({_STR})\s*(?=;|\n|$)"""),
    "ruby": re.compile(rf"""(?:^|[;\n])\s*([a-z_]\w*)\s*=\s*({_STR})\s*(?=;|\n|$)"""),
    "perl": re.compile(rf"""(?:^|[;{{\n]|\bmy\s|\bour\s)\s*(\$[A-Za-z_]\w*)\s*=\s*({_STR})\s*(?=;|\n|$)"""),
    "php": re.compile(rf"""(?:^|[;{{\n])\s*(\$[A-Za-z_]\w*)\s*=\s*({_STR})\s*(?=;|\n|$)"""),
}


def fold_constants(code: str, lang: str) -> str:
    """``code`` with each use of a name bound once, to one string literal, written as that literal:
    ``c = "rm -rf ~"; system(c)`` is ``system("rm -rf ~")``. A name bound more than once (or changed with
    ``+=``, ``.=``, ``<<``) keeps its uses, which stay computed."""
    pattern = _ASSIGNED.get(lang)
    if pattern is None or len(code) > 20_000:
        return code
    found: dict[str, str] = {}
    for m in pattern.finditer(code):
        found[m.group(1)] = m.group(2) if m.group(1) not in found else ""
    for name, value in found.items():
        word = re.escape(name) + (r"(?![\w$])" if name.startswith("$") else r"\b")
        lead = "" if name.startswith("$") else r"(?<![\w$.])"
        bindings = re.findall(lead + word + r"\s*(?:[-+.|&*/]?=(?!=)|<<|\+\+|--)", code)
        if not value or len(bindings) != 1:
            continue
        uses = re.compile(lead + word + r"(?!\s*(?:[-+.|&*/]?=(?!=)|:))")
        code = uses.sub(lambda _: value, code)
    return code


_INTERPOLATED_HOME: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    # (a string that interpolates, the home directory's expression inside it)
    "perl": (re.compile(r'"[^"\\]*"'), re.compile(r"""\$\{?ENV\{\s*['"]?HOME['"]?\s*\}\}?|\$\{?HOME\}?(?=/|")""")),
    "ruby": (re.compile(r'"[^"\\]*"'), re.compile(r"""#\{\s*(?:Dir\.home(?:\(\s*\))?|ENV\[\s*['"]HOME['"]\s*\]|"""
                                                   r"""File\.expand_path\(\s*['"]~['"]\s*\))\s*\}""")),
    "js": (re.compile(r"`[^`\\]*`"), re.compile(r"""\$\{\s*(?:(?:require\(\s*['"](?:node:)?os['"]\s*\)|os)\."""
                                                r"""homedir\(\s*\)|process\.env\.(?:HOME|USERPROFILE))\s*\}""")),
    "php": (re.compile(r'"[^"\\]*"'), re.compile(r"""\{?\$_(?:SERVER|ENV)\[\s*['"]HOME['"]\s*\]\}?""")),
}


def interpolated_home(code: str, lang: str) -> str:
    """The home directory's expressions inside interpolating strings written as ``~``."""
    spec = _INTERPOLATED_HOME.get(lang)
    if spec is None:
        return code
    strings, home = spec
    return strings.sub(lambda m: home.sub("~", m.group(0)), code)


_LISTINGS: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "js": ((re.compile(rf"""\b(?:readdirSync|readdir|opendirSync|opendir)\(\s*({_STR})"""), "children"),
           (re.compile(rf"""\bglob(?:Sync|\.sync)?\(\s*({_STR})"""), "glob")),
    "ruby": ((re.compile(rf"""\bDir\.glob\(\s*({_STR})|\bDir\[\s*({_STR})\s*\]"""), "glob"),
             (re.compile(rf"""\bDir\.(?:children|entries|each_child|foreach)\(\s*({_STR})"""), "children"),
             (re.compile(rf"""\bFind\.find\(\s*({_STR})"""), "tree")),
    "perl": ((re.compile(rf"""\bglob\(?\s*({_STR})"""), "glob"),
             (re.compile(r"""<(~?[\w./~-]*\*[\w./*~-]*)>"""), "glob"),
             (re.compile(rf"""\bopendir\(?\s*(?:my\s+)?[$\w]+\s*,\s*({_STR})"""), "children"),
             (re.compile(rf"""\bfind\(\s*[^,]+,\s*({_STR})"""), "tree")),
    "php": ((re.compile(rf"""\bglob\(\s*({_STR})"""), "glob"),
            (re.compile(rf"""\b(?:scandir|opendir)\(\s*({_STR})"""), "children"),
            (re.compile(rf"""\bRecursiveDirectoryIterator\(\s*({_STR})"""), "tree")),
}
_CALLABLE_DELETES: dict[str, re.Pattern[str]] = {
    "php": re.compile(r"""['"](?:unlink|rmdir)['"]"""),
    "ruby": re.compile(r"""\bmethod\(\s*:(?:delete|unlink|rm|rm_r|rm_rf|rm_f|remove_dir)\s*\)"""),
    "js": re.compile(r"""\.(?:forEach|map)\(\s*(?:fs\.)?(?:unlinkSync|rmSync|rmdirSync)\s*\)"""),
}
"""A delete handed over as a callable: ``array_map("unlink", …)``, ``.each(&File.method(:delete))``."""


def listings(code: str, lang: str) -> list[tuple[str, str]]:
    """(path or pattern, how) of each literal listing in ``code`` (after ``literal_paths``)."""
    out: list[tuple[str, str]] = []
    for pattern, how in _LISTINGS.get(lang, ()):
        for m in pattern.finditer(code):
            text = next(g for g in m.groups() if g is not None)
            path = text[1:-1] if text[:1] in "'\"" else text
            if path and (path, how) not in out:
                out.append((path, how))
    return out


def callable_delete(code: str, lang: str) -> bool:
    pattern = _CALLABLE_DELETES.get(lang)
    return pattern is not None and pattern.search(code) is not None


def listing_delete(root: tuple[str, str], recursive: bool) -> list[str]:
    path, how = root
    if how == "tree":
        return ["rm", "-r", path]
    rm = ["rm", "-r"] if recursive else ["rm"]
    return [*rm, path.rstrip("/") + "/*"] if how == "children" else [*rm, path]


# -- what the code reads that it may send -----------------------------------------------------------

_FILE_READS: dict[str, re.Pattern[str]] = {
    "js": re.compile(rf"""\b(?:readFileSync|readFile|createReadStream|openAsBlob)\(\s*({_STR})"""),
    "ruby": re.compile(rf"""\b(?:File|IO)\.(?:read|binread|readlines|open|foreach)\(?\s*({_STR})"""),
    "perl": re.compile(rf"""\bopen\(?\s*(?:my\s+)?[$\w]+\s*,\s*(?:['"]<['"]\s*,\s*)?({_STR})"""),
    "php": re.compile(rf"""\b(?:file_get_contents|file|fopen|readfile)\(\s*({_STR})"""),
}
_ENV_ALL: dict[str, re.Pattern[str]] = {
    "js": re.compile(r"""\bprocess\.env\b(?!\s*(?:\.\s*\w|\[|\?\.))"""),
    "ruby": re.compile(r"""\bENV\b(?!\s*(?:\[|\.fetch\b|\.key\?))"""),
    "perl": re.compile(r"""%ENV\b"""),
    "php": re.compile(r"""\$_ENV\b(?!\s*\[)|\bgetenv\(\s*\)|\$_SERVER\b(?!\s*\[)"""),
}
_ENV_NAMED: dict[str, re.Pattern[str]] = {
    "js": re.compile(r"""\bprocess\.env(?:\.(\w+)|\[\s*['"](\w+)['"]\s*\])"""),
    "ruby": re.compile(r"""\bENV(?:\[\s*['"](\w+)['"]\s*\]|\.fetch\(\s*['"](\w+)['"])"""),
    "perl": re.compile(r"""\$ENV\{\s*['"]?(\w+)['"]?\s*\}"""),
    "php": re.compile(r"""\bgetenv\(\s*['"](\w+)['"]\s*\)|\$_(?:ENV|SERVER)\[\s*['"](\w+)['"]\s*\]"""),
}


def read_sources(code: str, lang: str) -> tuple[list[str], bool, list[str]]:
    """(literal files read, whether the whole environment is read, environment variables read by name)."""
    files: list[str] = []
    pattern = _FILE_READS.get(lang)
    if pattern is not None:
        for m in pattern.finditer(code):
            path = m.group(1)[1:-1].lstrip("<").strip()
            if path and "://" not in path and path not in files:
                files.append(path)
    whole = lang in _ENV_ALL and _ENV_ALL[lang].search(code) is not None
    names: list[str] = []
    named = _ENV_NAMED.get(lang)
    if named is not None:
        for m in named.finditer(code):
            name = next((g for g in m.groups() if g), "")
            if name and name not in names:
                names.append(name)
    return files, whole, names


_CONCAT: dict[str, str] = {"lua": r"\.\.", "js": r"\+", "ruby": r"\+", "perl": r"\.", "php": r"\."}
_HOME_VALUE: dict[str, re.Pattern[str]] = {  # (js, ruby and perl have their own readings of the home directory)
    "lua": re.compile(r"""os\.getenv\(\s*['"]HOME['"]\s*\)"""),
    "php": re.compile(r"""\bgetenv\(\s*['"]HOME['"]\s*\)|\$_SERVER\[\s*['"]HOME['"]\s*\]"""),
}
_JOINED: dict[str, re.Pattern[str]] = {
    lang: re.compile(rf"""(["'])((?:(?!\1)[^\\\n])*)\1\s*{op}\s*(["'])((?:(?!\3)[^\\\n])*)\3""")
    for lang, op in _CONCAT.items()}
_CHAR_CODES: dict[str, re.Pattern[str]] = {
    "js": re.compile(r"String\.fromCharCode\(\s*((?:\d{1,3}\s*,\s*)*\d{1,3})\s*\)"),
    "lua": re.compile(r"string\.char\(\s*((?:\d{1,3}\s*,\s*)*\d{1,3})\s*\)"),
    "perl": re.compile(r"""\bpack\s*\(?\s*["']H\*["']\s*,\s*["']([0-9A-Fa-f]+)["']\s*\)?"""),
}


def _decoded_chars(m: re.Match[str]) -> str:
    """A char-code or hex call as the string literal it makes (a quote or backslash in it: left as it was)."""
    body = m.group(1)
    try:
        text = bytes.fromhex(body).decode("utf-8") if "," not in body and not body.isdigit() else "".join(
            chr(int(n)) for n in body.split(","))
    except (ValueError, UnicodeDecodeError):
        return m.group(0)
    return m.group(0) if any(c in text for c in "\"\\\n") else f'"{text}"'


_INDEXED_NAME: Final = re.compile(r"""\[\s*["']([A-Za-z_]\w*)["']\s*\]\s*\(""")


def join_literals(code: str, lang: str) -> str:
    """String literals joined by the language's concatenation (``"child_" + "process"``, lua's ``"rm -rf " ..
    os.getenv("HOME")``) written as one literal, the home directory's expression as ``"~"``, and a method
    called by its name in brackets (``cp["exec" + "Sync"](…)``) as a plain call, so the sinks are seen."""
    pattern = _JOINED.get(lang)
    if pattern is None or len(code) > 20_000:
        return code
    home = _HOME_VALUE.get(lang)
    if home is not None:
        code = home.sub('"~"', code)
    codes = _CHAR_CODES.get(lang)
    if codes is not None:  # `String.fromCharCode(114,109)`, lua's `string.char(…)`, perl's `pack "H*", "726d"`
        code = codes.sub(_decoded_chars, code)
    for _ in range(8):
        joined = pattern.sub(lambda m: f'"{m.group(2)}{m.group(4)}"', code)
        if joined == code:
            break
        code = joined
    return _INDEXED_NAME.sub(lambda m: f".{m.group(1)}(", code) if lang in ("js", "ruby") else code
