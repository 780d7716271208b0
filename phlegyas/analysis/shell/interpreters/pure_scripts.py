"""One-liners in JavaScript, Ruby, Perl and PHP that only compute and print:
``node -p "require('./package.json').version"``, ``node -e 'console.log(process.version)'``,
``ruby -e 'puts RUBY_VERSION'``, ``perl -e 'print 1+1'``, ``php -r 'echo PHP_VERSION;'``.

These languages are not parsed here, so purity is an allow-list over tokens, never a deny-list: every
name in the code must be a known printing, arithmetic, string, collection or version name of the
language, a name the code itself declares (``const x = …``, ``|x|``, ``x => …``), or a property of a
known value that reads data. Anything else (``require('child_process')``, ``system``, ``eval``,
``File``, backquotes, string interpolation that runs code such as Ruby's ``#{…}`` or Perl's ``@{[…]}``,
JavaScript's ``obj['constructor']``) makes the code not pure, and it stays "executes code".

``require`` of a literal ``.json`` path (JavaScript) reads that file: it is reported, so the read is
checked for secrets like any other.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from phlegyas.analysis.programs.spec import opts

_JS_GLOBALS = opts(
    "console JSON Math Number String Boolean Array Object Date Map Set Intl BigInt parseInt parseFloat isNaN "
    "isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI process Buffer Error undefined null true "
    "false NaN Infinity new typeof instanceof of in for if else return const let var break continue try catch "
    "finally throw void delete")
_JS_ATTRS = opts(
    "log info warn error debug dir table version versions node v8 uv openssl modules platform arch release pid "
    "ppid uptime argv execPath memoryUsage hrtime bigint stringify parse keys values entries assign fromEntries "
    "from of isArray isInteger isSafeInteger length map filter reduce forEach some every find findIndex join split "
    "slice substring substr trim trimStart trimEnd toUpperCase toLowerCase includes indexOf lastIndexOf startsWith "
    "endsWith replace replaceAll padStart padEnd repeat concat sort reverse flat flatMap toString toFixed "
    "toPrecision toISOString toLocaleString toLocaleDateString toLocaleTimeString toJSON getTime getFullYear "
    "getMonth getDate getDay getHours getMinutes getSeconds getTimezoneOffset now floor ceil round trunc max min "
    "abs sqrt cbrt pow random sign log2 log10 PI E MAX_SAFE_INTEGER MIN_SAFE_INTEGER EPSILON cpus totalmem "
    "freemem hostname type homedir tmpdir EOL username loadavg endianness basename dirname extname relative "
    "normalize sep delimiter isAbsolute resolve format inspect randomUUID createHash update digest getHashes "
    "resolvedOptions DateTimeFormat NumberFormat timeZone locale size has get add push pop shift unshift at "
    "name description dependencies devDependencies peerDependencies optionalDependencies scripts engines main "
    "types exports bin workspaces packageManager private license repository author keywords homepage stdout "
    "stderr write model speed toUpperCase localeCompare charAt charCodeAt codePointAt fromCharCode")
_MEMBERS_ONLY = frozenset({"process", "Buffer"})
"""JavaScript globals that may appear only as ``process.version``: as a value they carry functions that act."""
_JS_MODULES = frozenset({"os", "path", "util", "url", "querystring", "string_decoder", "punycode", "assert",
                         "node:os", "node:path", "node:util", "node:url", "node:querystring", "node:assert"})
"""Node modules whose functions (of the names above) compute and return, never touch files or processes."""

_RUBY_GLOBALS = opts(
    "puts print p pp printf format sprintf RUBY_VERSION RUBY_PLATFORM RUBY_RELEASE_DATE RUBY_PATCHLEVEL "
    "RUBY_ENGINE RUBY_ENGINE_VERSION RUBY_COPYRIGHT RUBY_DESCRIPTION Gem Dir JSON Math Time Date DateTime Integer "
    "Float String Array Hash Set Rational Complex BigDecimal Digest SecureRandom RbConfig true false nil if else "
    "elsif end unless do then and or not in for case when begin rescue ensure exit self rand gets loop")
_RUBY_ATTRS = opts(
    "to_s to_i to_f to_a to_h to_r to_c to_sym inspect length size count sum min max minmax sort sort_by reverse "
    "map collect select filter reject each each_with_index each_slice each_cons with_index times upto downto "
    "step first last take drop join split strip lstrip rstrip chomp chop upcase downcase capitalize swapcase "
    "include? start_with? end_with? empty? nil? zero? positive? negative? even? odd? round floor ceil abs now "
    "year month day hour min sec wday yday strftime iso8601 to_json generate pretty_generate parse keys values "
    "key? has_key? fetch dig merge group_by tally uniq flatten compact zip sqrt cbrt PI E VERSION ruby_version "
    "version CONFIG ljust rjust center chars bytes lines freeze dup hex oct ord chr sub gsub tr squeeze "
    "reduce inject sum each_char hexdigest base64digest SHA256 SHA1 MD5 uuid hex_number random_number today "
    "new succ pred div modulo divmod fdiv pow gcd lcm digits bit_length rationalize numerator denominator "
    "real imaginary any? all? none? find detect find_index partition chunk_while slice_when each_pair "
    "transform_values transform_keys filter_map sum_by max_by min_by sort! reverse! map! select! uniq! "
    "concat push pop shift unshift insert delete_at first rotate shuffle sample home pwd")
_RUBY_MODULES = frozenset({"json", "set", "date", "time", "bigdecimal", "digest", "securerandom", "pp",
                           "rbconfig"})
PURE_RUBY_LIBRARIES = _RUBY_MODULES
"""Ruby standard libraries that only define data classes and functions (``require 'json'``, ``ruby -rjson``)."""
_RUBY_VARS = frozenset({"$stdout", "$stderr", "$0", "$PROGRAM_NAME", "$VERBOSE"})

_PERL_WORDS = opts(
    "print say printf sprintf join map grep sort reverse keys values each length uc lc ucfirst lcfirst int abs "
    "sqrt scalar localtime gmtime time if unless else elsif for foreach my our split substr index rindex chomp "
    "chop defined exists ref x eq ne lt gt le ge cmp and or not xor hex oct ord chr sprintf exit STDOUT STDERR "
    "STDIN last next lc uc")
_PERL_BAD_VARS = frozenset({"ENV", "INC", "SIG"})  # %ENV shows secrets; @INC/%SIG change what runs

_PHP_WORDS = opts(
    "echo print printf print_r var_dump var_export PHP_VERSION PHP_OS PHP_OS_FAMILY PHP_EOL PHP_INT_MAX "
    "PHP_INT_SIZE PHP_MAJOR_VERSION PHP_MINOR_VERSION PHP_RELEASE_VERSION phpversion json_encode json_decode "
    "strlen strtoupper strtolower ucfirst lcfirst trim rtrim ltrim implode explode count array_sum array_keys "
    "array_values in_array max min round floor ceil abs intdiv sqrt pow date time microtime str_repeat str_pad "
    "sprintf number_format true false null if else elseif foreach as for array extension_loaded "
    "get_loaded_extensions memory_get_usage zend_version JSON_PRETTY_PRINT JSON_UNESCAPED_SLASHES")
"""PHP names that only compute and print. Not ``array_map``, ``usort`` and the like: a string is a callable
in PHP (``array_map('system', ['id'])``)."""

_LANGS = {
    "js": (_JS_GLOBALS, _JS_ATTRS),
    "ruby": (_RUBY_GLOBALS, _RUBY_ATTRS),
    "perl": (_PERL_WORDS, frozenset()),
    "php": (_PHP_WORDS, frozenset()),
}


@dataclass(slots=True)
class PureScript:
    """The verdict on one piece of code: ``pure`` and the files it reads (``require('./package.json')``)."""

    pure: bool
    reads: list[str] = field(default_factory=list)


_NOT_PURE = PureScript(False)


class _Impure(Exception):
    """Raised by the tokenizer on syntax that may run code (backquotes, interpolation of code, comments)."""


def _string(code: str, i: int, lang: str) -> tuple[str, int]:
    """The literal starting at ``code[i]`` (a quote) and the index after it; interpolation that runs code
    raises ``_Impure``."""
    q = code[i]
    j = i + 1
    buf: list[str] = []
    while j < len(code) and code[j] != q:
        if code[j] == "\\" and j + 1 < len(code):
            buf.append(code[j + 1])
            j += 2
            continue
        buf.append(code[j])
        j += 1
    if j >= len(code):
        raise _Impure("unterminated string")
    text = "".join(buf)
    if q == "`" and (lang != "js" or "${" in text):
        raise _Impure("backquotes or a template with code")
    if q == '"' and lang == "ruby" and "#{" in text:
        raise _Impure("ruby interpolation")
    if q == '"' and lang == "perl" and any(m in text for m in ("@{", "${", "@$", "$(")):
        raise _Impure("perl interpolation of code")
    if q == '"' and lang == "php" and ("{$" in text or "${" in text):
        raise _Impure("php interpolation of an expression")
    return text, j + 1


_PERL_BEFORE_REGEX = frozenset({"if", "unless", "=~", "!~", "(", ",", "and", "or", "not", "split", "grep", "&&",
                                "||", "!", "while", "until", "{", ";"})
"""Tokens after which a Perl ``/`` opens a match (``print if /TODO/``) rather than divides."""


def _perl_regex(code: str, i: int) -> int:
    """The index after the match ``/…/flags`` at ``code[i]``; code inside it (``(?{…})``) raises ``_Impure``."""
    j = i + 1
    while j < len(code) and code[j] != "/":
        j += 2 if code[j] == "\\" else 1
    if j >= len(code):
        raise _Impure("unterminated regex")
    body = code[i + 1:j]
    if "(?{" in body or "(??{" in body or "@{" in body or "${" in body:
        raise _Impure("code in a regex")
    j += 1
    while j < len(code) and code[j] in "imsxgcnoadlu":
        j += 1
    return j


_PERL_QUOTELIKE = {"s": 2, "tr": 2, "y": 2, "m": 1, "qr": 1}
"""Perl's regex operators and how many delimited parts each has."""
_PERL_DELIMITERS = frozenset("/|#!,:%")


def _perl_quotelike(code: str, op: str, i: int) -> int:
    """The index after ``s/PAT/REPL/FLAGS`` (or ``tr``, ``y``, ``m``, ``qr``) with ``code[i]`` its delimiter.
    Code in it raises ``_Impure``: the ``e`` flag (the replacement is evaluated), ``(?{…})``, ``@{[…]}``,
    ``${\…}``; a replacement may name only the match's groups (``$1``, ``$&``)."""
    delim = code[i]
    parts: list[str] = []
    j = i + 1
    for _ in range(_PERL_QUOTELIKE[op]):
        start = j
        while j < len(code) and code[j] != delim:
            j += 2 if code[j] == "\\" else 1
        if j >= len(code):
            raise _Impure("unterminated regex")
        parts.append(code[start:j])
        j += 1
    flags_start = j
    while j < len(code) and code[j].isalpha():
        j += 1
    flags = code[flags_start:j]
    if "e" in flags and op == "s":
        raise _Impure("a substitution whose replacement is code (s///e)")
    for part in parts:
        if any(m in part for m in ("(?{", "(??{", "@{", "${", "`")):
            raise _Impure("code in a regex")
    if op == "s" and len(parts) == 2 and re.search(r"[$@](?![0-9&])", parts[1].replace("\\$", "").replace("\\@", "")):
        raise _Impure("a replacement that interpolates a variable")
    return j


def _tokens(code: str, lang: str) -> list[tuple[str, str]]:
    """(kind, text): ``s`` string, ``n`` number, ``i`` name, ``v`` sigil variable, ``p`` punctuation."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(code)
    while i < n:
        ch = code[i]
        if ch.isspace():
            i += 1
        elif ch in "'\"`":
            text, i = _string(code, i, lang)
            out.append(("s", text))
        elif ch.isdigit():
            j = i
            while j < n and (code[j].isalnum() or code[j] in "._") and not code.startswith("..", j):
                j += 1
            out.append(("n", code[i:j]))
            i = j
        elif ch.isalpha() or ch == "_" or (ch == "$" and lang == "js"):
            j = i
            while j < n and (code[j].isalnum() or code[j] in "_$" or (lang != "js" and code.startswith("::", j))):
                j += 2 if code.startswith("::", j) else 1
            if lang == "ruby" and j < n and code[j] in "?!" and not code.startswith("!=", j):
                j += 1
            if lang == "perl" and code[i:j] in _PERL_QUOTELIKE and j < n and code[j] in _PERL_DELIMITERS:
                i = _perl_quotelike(code, code[i:j], j)  # `s/a/b/g`, `tr/a-z/A-Z/`, `m|x|`
                out.append(("s", "regex"))
                continue
            out.append(("i", code[i:j]))
            i = j
        elif (ch in "$@%" and lang in ("perl", "ruby") or ch == "$" and lang == "php") and i + 1 < n and (
                code[i + 1].isalnum() or code[i + 1] == "_"):
            j = i + 1
            while j < n and (code[j].isalnum() or code[j] == "_"):
                j += 1
            out.append(("v", code[i:j]))
            i = j
        elif ch == "$" and lang == "perl" and i + 1 < n and code[i + 1] in "]0_,/\\;!^":
            j = i + 3 if code[i + 1] == "^" else i + 2
            out.append(("v", code[i:j]))
            i = j
        elif ch == "/" and lang == "perl" and (not out or out[-1][1] in _PERL_BEFORE_REGEX):
            i = _perl_regex(code, i)
            out.append(("s", "regex"))
        elif ch == "#" or (ch == "%" and lang == "ruby" and i + 1 < n and code[i + 1].isalpha()):
            raise _Impure("a comment or a %-literal")
        else:
            for punct in ("...", "=>", "==", "!=", "=~", "&&", "||", "->", "?.", "**", "<=", ">="):
                if code.startswith(punct, i):
                    out.append(("p", punct))
                    i += len(punct)
                    break
            else:
                out.append(("p", ch))
                i += 1
    return out


def _declared(toks: list[tuple[str, str]], lang: str) -> set[str]:
    """Names the code binds itself: ``const x``, ``x = …``, ``x => …``, ``(a, b) => …``, ``|a, b|``."""
    names: set[str] = set()
    for k, (kind, text) in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else ("", "")
        prev = toks[k - 1] if k else ("", "")
        if kind == "i" and prev[1] not in (".", "?.", "::"):
            if nxt == ("p", "=") or nxt == ("p", "=>") or prev in (("i", "const"), ("i", "let"), ("i", "var")):
                names.add(text)
        if (kind, text) == ("p", "=>") and prev == ("p", ")") and lang == "js":
            depth = 0
            for back in range(k - 1, -1, -1):
                t = toks[back]
                depth += {")": 1, "(": -1}.get(t[1], 0) if t[0] == "p" else 0
                if depth == 0:
                    break
                if t[0] == "i":
                    names.add(t[1])
    if lang == "ruby":
        inside = False
        for k, (kind, text) in enumerate(toks):
            if (kind, text) == ("p", "|") and (inside or (k and toks[k - 1][1] in ("{", "do"))):
                inside = not inside
            elif inside and kind == "i":
                names.add(text)
    return names


def _require(toks: list[tuple[str, str]], k: int, lang: str, reads: list[str]) -> int:
    """``require('x')`` / ``require 'x'`` at ``toks[k]``: the index after it, or -1 when it loads code."""
    j = k + 1
    paren = j < len(toks) and toks[j] == ("p", "(")
    if paren:
        j += 1
    if j >= len(toks) or toks[j][0] != "s":
        return -1
    name = toks[j][1]
    j += 1
    if paren:
        if j >= len(toks) or toks[j] != ("p", ")"):
            return -1
        j += 1
    if lang == "js" and name.endswith(".json") and name.startswith(("./", "../", "/")):
        reads.append(name)
        return j
    if lang == "ruby" and name in _RUBY_MODULES:
        return j
    if lang == "js" and name in ("fs", "node:fs"):
        return _fs_read(toks, j, reads)
    if lang == "js" and name in _JS_MODULES and j < len(toks) and toks[j] == ("p", "."):
        return j  # ``require('os').cpus()``: the module itself as a value (``Object.values(require('os'))``) is not
    return -1


_FS_READS = frozenset({"readFileSync", "existsSync", "readdirSync", "statSync"})


def _fs_read(toks: list[tuple[str, str]], j: int, reads: list[str]) -> int:
    """``require('fs').readFileSync('package.json', 'utf8')``: a read of one literal path, the only use of
    ``fs`` that is pure; the index of the token after the path, or -1."""
    want = [("p", "."), ("i", ""), ("p", "(")]
    if j + 3 >= len(toks) or any(toks[j + k][0] != kind for k, (kind, _) in enumerate(want)):
        return -1
    if toks[j][1] != "." or toks[j + 1][1] not in _FS_READS or toks[j + 2][1] != "(" or toks[j + 3][0] != "s":
        return -1
    reads.append(toks[j + 3][1])
    return j + 4


def pure_script(code: str, lang: str) -> PureScript:
    """Whether ``code`` in ``lang`` (``js``, ``ruby``, ``perl``) only computes and prints (see the module
    docstring), with the files it reads."""
    vocab = _LANGS.get(lang)
    if vocab is None or len(code) > 2000:
        return _NOT_PURE
    words, attrs = vocab
    try:
        toks = _tokens(code, lang)
    except _Impure:
        return _NOT_PURE
    own = _declared(toks, lang)
    reads: list[str] = []
    k = 0
    while k < len(toks):
        kind, text = toks[k]
        prev = toks[k - 1] if k else ("", "")
        nxt = toks[k + 1] if k + 1 < len(toks) else ("", "")
        if kind == "i":
            if text == "require" and lang in ("js", "ruby") and prev[1] not in (".", "?.", "::"):
                k = _require(toks, k, lang, reads)
                if k < 0:
                    return _NOT_PURE
                continue
            if not _name_ok(text, prev, nxt, words, attrs, own, lang):
                return _NOT_PURE
            if text in _MEMBERS_ONLY and lang == "js" and prev[1] not in (".", "?.") and nxt != ("p", "."):
                return _NOT_PURE  # ``Object.values(process)`` would hand over process.kill and friends
        elif kind == "v" and not _var_ok(text, lang):
            return _NOT_PURE
        elif kind == "p" and not _punct_ok(text, prev, nxt, lang):
            return _NOT_PURE
        k += 1
    return PureScript(True, reads)


def _name_ok(text: str, prev: tuple[str, str], nxt: tuple[str, str], words: frozenset[str],
             attrs: frozenset[str], own: set[str], lang: str) -> bool:
    """A name: an attribute after ``.`` must read data; any other must be the language's or the code's own."""
    if lang == "perl" and prev == ("p", "->"):
        return False  # a method call on an object we cannot see
    if prev[1] in (".", "?.") and lang != "php":  # PHP's ``.`` joins strings; its members are ``->``
        return text in attrs
    if lang == "php" and prev == ("p", "->"):
        return False
    if lang == "ruby" and prev == ("p", ":") and nxt[1] != ":":
        return text in attrs  # a symbol: ``map(&:to_s)`` calls it
    parts = text.split("::")
    if len(parts) > 1:
        return lang == "ruby" and parts[0] in words and all(p in attrs for p in parts[1:])
    if text in words or text in own:
        return True
    return lang != "perl" and nxt == ("p", ":") and prev[1] in ("{", ",", "(")  # a literal's key: ``{a: 1}``


def _var_ok(text: str, lang: str) -> bool:
    if lang == "php":
        return not text.startswith("$_") and text != "$GLOBALS"  # $_ENV, $_SERVER hold the environment
    if lang == "ruby":
        return text[0] == "@" or text in _RUBY_VARS
    return text[1:] not in _PERL_BAD_VARS


def _punct_ok(text: str, prev: tuple[str, str], nxt: tuple[str, str], lang: str) -> bool:
    """Punctuation that cannot reach code: no JavaScript ``x['name']`` (any property by name), no Perl
    ``&sub``, no ``\\`` line continuation tricks."""
    if text == "\\":
        return lang == "perl"
    if lang == "js" and text == "[" and (prev[0] in ("i", "s") or prev[1] in (")", "]")):
        return nxt[0] == "n"
    if lang == "ruby" and text == "[" and prev == ("i", "Dir"):
        return False  # ``Dir["~/.ssh/*"]`` lists files by a pattern
    if lang == "php" and (text == "$" or (text == "(" and (prev[0] in ("v", "s") or prev[1] in (")", "]")))):
        return False  # ``$$name``, ``$f('id')``, ``'system'('id')``: a function called by its name as data
    if lang == "perl" and (text == "&" or (text in "$@%*" and nxt == ("p", "{")) or (text == "->" and nxt[1] == "(")):
        return False  # ``&sub``, ``*{"name"}``/``%{"ENV"}`` (symbols by name), ``$ref->(…)`` (a code reference)
    return True
