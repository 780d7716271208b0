"""A shell command line → every simple command that will run, on tree-sitter-bash.

The walk knows a fixed set of node kinds (Codex's "plain bash" idea). What it understands becomes a
``SimpleCommand`` with its argv resolved (quotes and escapes removed, ``$'…'`` decoded); the rest is recorded in
``Script.problems`` so no caller can treat it as understood. Nested scripts (``$(…)``, backticks, ``<(…)``, heredoc
bodies, array subscripts) add their commands, marked with where they came from. Types: ``shell.syntax``'s.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell import lexfix as _lexfix
from phlegyas.analysis.shell import plain as _plain
from phlegyas.analysis.shell.grammar import FIRST_UNPARSEABLE, PARSE_BUDGET_SECONDS, bash_parser, tree_of
from phlegyas.analysis.shell.syntax import (
    EXPANDS,
    Redirect,
    Script,
    SimpleCommand,
    Word,
    decode_ansi_c,
    is_glob,
    unescape_double,
    unescape_unquoted,
)

MAX_DEPTH: Final = 150  # deeper nesting is reported as a problem instead of being walked (no RecursionError)

_COMMAND_KINDS: Final = frozenset({
    "command", "pipeline", "list", "redirected_statement", "subshell", "compound_statement",
    "negated_command", "if_statement", "while_statement", "for_statement", "c_style_for_statement",
    "case_statement", "function_definition", "declaration_command", "unset_command", "test_command",
    "variable_assignment", "variable_assignments",
})
# Nodes whose children are walked for commands and that add nothing of their own.
_CONTAINERS: Final = frozenset({
    "program", "list", "subshell", "compound_statement", "do_group", "if_statement", "elif_clause",
    "else_clause", "while_statement", "for_statement", "c_style_for_statement", "case_statement",
    "case_item", "negated_command", "test_command", "binary_expression", "unary_expression",
    "parenthesized_expression", "ternary_expression", "postfix_expression", "arithmetic_expansion",
    "array", "subscript", "expansion", "string", "concatenation", "heredoc_body",
})
_IGNORED: Final = frozenset({
    "comment", "heredoc_start", "heredoc_end", "heredoc_content", "string_content", "word", "number",
    "raw_string", "ansi_c_string", "variable_name", "special_variable_name", "simple_expansion",
    "test_operator", "file_descriptor", "regex", "extglob_pattern", "translated_string", "brace_expression"})

ARRAY_SEPARATOR: Final = "\x00"  # between the elements of an array's value (``a=(rm -fr /)``); no word holds a NUL

# reserved words tree-sitter takes as a command name where bash sees a syntax error (`env if true; then …`)
_MISPLACED_RESERVED: Final = frozenset({"then", "else", "elif", "fi", "do", "done", "esac", "}"})


class _Walker:
    def __init__(self, source: bytes, script: Script, errors: bool = True, read_write: frozenset[int] = frozenset()):
        self.src = source
        self.script = script
        self.errors = errors  # the tree has error or missing nodes somewhere
        self.read_write = read_write  # byte offsets of `<>` the parser was given as `< ` (shell.lexfix)
        self.feeds: list[tuple[SimpleCommand, int, int]] = []  # `cmd > >(sh)`: cmd, the reader's command indices

    # -- helpers -------------------------------------------------------------------------------
    def text(self, node) -> str:
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def problem(self, message: str) -> None:
        if message not in self.script.problems:
            self.script.problems.append(message)

    # -- words -----------------------------------------------------------------------------------
    def word(self, node, depth: int, origin: str) -> Word:
        """Resolve one word-like node; commands inside it are collected as nested."""
        kind = node.type
        if kind == "word" or kind == "number":  # the common case, without the general machinery
            raw = self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")
            return Word(unescape_unquoted(raw), False, is_glob(raw), False)
        if kind == "raw_string":
            return Word(self.src[node.start_byte + 1:node.end_byte - 1].decode("utf-8", "replace"), False, False, True)
        if kind == "string":  # "text": one content node between two one-byte quotes, again without the machinery
            children = node.children
            if len(children) == 3:
                left, content, right = children
                if content.type == "string_content" and left.end_byte - left.start_byte == 1 \
                        and right.end_byte - right.start_byte == 1 and content.start_byte == left.end_byte \
                        and content.end_byte == right.start_byte:  # nothing between the nodes (no newline)
                    text = self.src[content.start_byte:content.end_byte].decode("utf-8", "replace")
                    return Word(unescape_double(text), False, False, True)
        parts: list[str] = []
        flags = [False, False, False, False]  # dynamic, glob, quoted, a lone `$` in it
        self._word_into(node, parts, flags, depth, origin)
        text = "".join(parts)  # a lone `$` is a dollar sign unless an expansion follows (`/tmp/.$$` is the pid)
        return Word(text, flags[0] or flags[3] and EXPANDS.search(text) is not None, flags[1], flags[2])

    def _word_into(self, node, parts: list[str], flags: list[bool], depth: int, origin: str) -> None:
        kind = node.type
        if kind == "word" or kind == "number":
            raw = self.text(node)
            if not flags[1] and is_glob(raw):
                flags[1] = True
            parts.append(unescape_unquoted(raw))
        elif kind == "raw_string":
            flags[2] = True
            parts.append(self.text(node)[1:-1])
        elif kind == "ansi_c_string":
            flags[2] = True
            parts.append(decode_ansi_c(self.text(node)[2:-1]))
        elif kind in ("string", "translated_string"):
            flags[2] = True
            children = node.children
            last = len(children) - 1
            prev_end = -1
            for i, child in enumerate(children):
                if 0 <= prev_end < child.start_byte:  # text between two nodes (a newline): part of the string
                    parts.append(unescape_double(self.src[prev_end:child.start_byte].decode("utf-8", "replace")))
                prev_end = child.end_byte
                ck = child.type
                if ck == '"':
                    # tree-sitter folds whitespace next to a quote into the quote token (`" "`).
                    if child.end_byte - child.start_byte > 1:
                        t = self.text(child)
                        extra = t[1:] if i == 0 else (t[:-1] if i == last else t)
                        if extra:
                            parts.append(unescape_double(extra))
                    continue
                if ck == "$":  # a lone `$` in a string is a dollar sign (`"^$"`); `$"…"`'s leading one is not
                    parts.extend(["$"] if kind == "string" else [])
                    flags[3] = flags[3] or kind == "string"
                    continue
                if ck == "string_content":
                    parts.append(unescape_double(self.text(child)))
                else:
                    self._word_into(child, parts, flags, depth, origin)
        elif kind == "concatenation":
            texts = [self.text(c) for c in node.children]
            if "{" in texts and "}" in texts:
                flags[1] = True
            for child in node.children:
                self._word_into(child, parts, flags, depth, origin)
        elif kind in ("simple_expansion", "expansion"):
            flags[0] = True
            parts.append(self.text(node))
            for child in node.children:  # ${x:-$(cmd)} runs cmd
                if child.type not in _IGNORED and child.type not in ("${", "}", "$"):
                    self.collect(child, depth + 1, origin)
        elif kind in ("command_substitution", "process_substitution"):
            flags[0] = True
            parts.append(self.text(node))
            self.nested(node, depth, "substitution" if kind == "command_substitution" else kind)
        elif kind == "arithmetic_expansion":
            flags[0] = True
            parts.append(self.text(node))
            self.nested(node, depth, origin)
        elif kind == "brace_expression":
            flags[1] = True
            parts.append(self.text(node))
        elif kind in ("extglob_pattern", "regex", "variable_name", "special_variable_name", "test_operator", "$"):
            parts.append(self.text(node))  # (`-run=^$`: a `$` on its own is a dollar sign)
            flags[3] = flags[3] or kind == "$"
        elif kind in ("ERROR",) or node.is_missing:
            self.problem("syntax error")
            parts.append(self.text(node))
        else:
            flags[0] = True
            parts.append(self.text(node))
            self.problem(f"unsupported construct {kind!r} in a word")

    def nested(self, node, depth: int, origin: str) -> None:
        for child in node.children:
            if child.type not in ("$(", ")", "`", "<(", ">(", "$((", "))", "$[", "]"):
                self.collect(child, depth + 1, origin)

    # -- commands --------------------------------------------------------------------------------
    def collect(self, node, depth: int, origin: str) -> list[int]:
        """Walk ``node`` and append every simple command in it; returns their indices."""
        if depth > MAX_DEPTH:
            self.problem(f"nesting deeper than {MAX_DEPTH} levels")
            return []
        kind = node.type
        start = len(self.script.commands)
        if kind == "ERROR" or (self.errors and (node.is_error or node.is_missing)):
            self.problem("syntax error")
            for child in node.children:
                self.collect(child, depth + 1, origin)
        elif kind == "command":
            self.command(node, depth, origin)
        elif kind == "redirected_statement":
            return self.redirected(node, depth, origin)
        elif kind == "pipeline":
            self.pipeline(node.children, depth, origin)
        elif kind == "function_definition":
            name = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            if name is not None:
                self.script.functions.append(self.text(name))
                if body is not None:  # a call later in the line runs it with its arguments (shell.analyze)
                    self.script.bodies[self.text(name)] = self.text(body)
            if body is not None:
                self.collect(body, depth + 1, "function")
        elif kind in ("declaration_command", "unset_command"):
            self.declaration(node, depth, origin)
        elif kind in ("variable_assignment", "variable_assignments"):
            self.bare_assignments(node, depth, origin)
        elif kind in ("for_statement", "select_statement"):
            if not self.loop_copies(node, depth, origin):
                self.loop_binding(node, depth, origin)
                for child in node.children:
                    if child.type not in ("variable_name",):
                        self.collect(child, depth + 1, origin)
        elif kind in _CONTAINERS:
            for child in node.children:
                self.collect(child, depth + 1, origin)
        elif kind in ("command_substitution", "process_substitution"):
            self.nested(node, depth, "substitution" if kind == "command_substitution" else "process_substitution")
        elif kind in _IGNORED or not node.is_named:
            if kind in ("word", "concatenation", "string", "simple_expansion", "expansion"):
                self.word(node, depth, origin)  # reaches substitutions inside
        elif kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
            self.problem(f"redirection {self.text(node)[:40]!r} outside a command")
        else:
            self.problem(f"unsupported construct {kind!r}")
            for child in node.children:
                self.collect(child, depth + 1, origin)
        return list(range(start, len(self.script.commands)))

    def command(self, node, depth: int, origin: str) -> SimpleCommand:
        cmd = SimpleCommand([], [], [], None, False, [], origin, self.text(node))
        words = cmd.words
        follow: list = []
        last_end = -1  # where the last word ended: a word starting right there is, for bash, the same word
        for child in node.children:
            kind = child.type
            n = len(words)
            if kind == "word":  # the commonest argument, resolved here (what word() does for it)
                raw = self.src[child.start_byte:child.end_byte].decode("utf-8", "replace")
                words.append(Word(unescape_unquoted(raw) if "\\" in raw else raw, False, is_glob(raw), False))
            elif kind == "variable_assignment":
                cmd.assignments.append(self.assignment(child, depth, origin))
            elif kind == "command_name":
                words.append(self.word(child.children[0] if child.children else child, depth, origin))
                if self.text(child) in _MISPLACED_RESERVED:
                    self.problem(f"syntax error: {self.text(child)!r} where a command should be (bash rejects the line)")
            elif kind in ("file_redirect", "herestring_redirect", "heredoc_redirect"):
                follow.extend(self.redirect(child, cmd, depth, origin))
            elif kind == "subshell":
                self.problem("subshell used as an argument")
                self.collect(child, depth + 1, origin)
            elif child.is_named and kind != "comment":
                words.append(self.word(child, depth, origin))
            elif kind == "$":  # `-x$`: tree-sitter makes a lone `$` token of the whole word
                words.append(Word(self.text(child), True, False, False))
                self.problem("unsupported construct '$' in a word")
            grew = len(words) > n
            if grew and child.start_byte == last_end:  # `rm$IFS-rf$IFS/`: tree-sitter ends a word at `$I`
                _lexfix.join_last(words, None if n else cmd.assignments)
            last_end = child.end_byte if grew or kind == "variable_assignment" else -1
        self.script.commands.append(cmd)
        if follow:
            self.follow(follow, [len(self.script.commands) - 1], depth, origin)
        return cmd

    def assignment(self, node, depth: int, origin: str) -> tuple[str, Word]:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        key = self.text(name) if name is not None else ""
        if name is not None and name.type == "subscript":  # `a[$(cmd)]=1` runs cmd; the name is `a`
            self.collect(name, depth + 1, origin)
            key = self.text(name.children[0])
        if value is None:
            return key, Word("")
        if value.type == "array":  # elements joined by NUL: ``shell.variables`` splits ``"${a[@]}"`` again
            parts = [self.word(c, depth, origin) for c in value.children if c.is_named]
            if (texts := _lexfix.indexed_elements([p.text for p in parts])) is not None:  # `a=([2]=/srv [0]=r)`
                return key, Word(ARRAY_SEPARATOR.join(texts), any(p.dynamic for p in parts) or _lexfix.globbed(texts))
            return key, Word(ARRAY_SEPARATOR.join(p.text for p in parts), any(p.dynamic or p.glob for p in parts))
        return key, self.word(value, depth, origin)

    def declaration(self, node, depth: int, origin: str) -> None:
        cmd = SimpleCommand(words=[], origin=origin, text=self.text(node))
        for child in node.children:
            if not child.is_named:
                cmd.words.append(Word(self.text(child)))  # export / local / declare / unset
            elif child.type == "variable_assignment":
                key, value = self.assignment(child, depth, origin)
                cmd.assignments.append((key, value))
                cmd.words.append(Word(f"{key}={value.text.replace(ARRAY_SEPARATOR, ' ')}", value.dynamic))
            else:
                cmd.words.append(self.word(child, depth, origin))
        self.script.commands.append(cmd)

    def bare_assignments(self, node, depth: int, origin: str) -> None:
        """``x=1`` alone: no program runs, but the values may hold substitutions."""
        cmd = SimpleCommand(words=[], origin=origin, text=self.text(node))
        nodes = [node] if node.type == "variable_assignment" else [c for c in node.children if c.is_named]
        for child in nodes:
            cmd.assignments.append(self.assignment(child, depth, origin))
        self.script.commands.append(cmd)

    def loop_copies(self, node, depth: int, origin: str) -> bool:
        """``for p in / ~; do rm -fr "$p"; done`` over 2 to 8 literal words: the body once per value, each copy
        after an assignment of its value (origin ``loop``: a later value replaces the earlier one, not making
        the variable unknown). False when the values are not all plain words (the variable stays unknown)."""
        var = node.child_by_field_name("variable")
        values = node.children_by_field_name("value")
        body = node.child_by_field_name("body")
        if var is None or body is None or not 2 <= len(values) <= 8:
            return False
        if any(v.type not in ("word", "raw_string", "string", "number") for v in values):
            return False
        words = [self.word(v, depth, origin) for v in values]
        if any(w.dynamic or (not w.quoted and w.text[:1] in ("*", "?", "[", "-", "")) or w.glob for w in words):
            return False
        name = self.text(var)
        for w in words:
            cmd = SimpleCommand(words=[], origin="loop", text=f"{name}={w.text}")
            cmd.assignments.append((name, w))
            self.script.commands.append(cmd)
            self.collect(body, depth + 1, origin)
        return True

    def loop_binding(self, node, depth: int, origin: str) -> None:
        """``for f in src/*.py; do wc -l "$f"; done``: with one plain value (a glob: each file it matches; a
        ``$(…)``: each word it prints, read as it), the loop variable is that word for the body, recorded as
        an assignment. Not for a value starting with a glob character (``*.md`` may match ``-rf.md``)."""
        var = node.child_by_field_name("variable")
        values = node.children_by_field_name("value")
        if var is None or len(values) != 1 or values[0].type not in ("word", "raw_string", "command_substitution"):
            return
        value = self.word(values[0], depth, origin)
        if values[0].type == "command_substitution":  # `for ns in $(kubectl get ns); do kubectl delete $ns`
            origin = "loop"
        elif value.dynamic or value.text[:1] in ("*", "?", "[", "-", ""):
            return
        name = self.text(var)
        cmd = SimpleCommand(words=[], origin=origin, text=f"{name}={value.text}")
        cmd.assignments.append((name, value))
        self.script.commands.append(cmd)

    def redirect(self, node, cmd: SimpleCommand, depth: int, origin: str) -> list:
        """Record one redirection on ``cmd``; returns what tree-sitter hung under a heredoc."""
        kind = node.type
        if kind == "herestring_redirect":
            body = [c for c in node.children if c.is_named]
            if body:
                w = self.word(body[-1], depth, origin)
                cmd.stdin_text = w.text
                cmd.stdin_dynamic = w.dynamic
            cmd.redirects.append(Redirect("<<<", None))
            return []
        if kind == "heredoc_redirect":
            return self.heredoc(node, cmd, depth, origin)
        op, fd, target, extra = ">", None, None, []
        for child in node.children:
            ck = child.type
            if ck == "file_descriptor":
                fd = self.text(child)
            elif not child.is_named:
                op = self.text(child)
                if op == "<" and child.start_byte in self.read_write:
                    op = "<>"
            elif target is None:
                before = len(self.script.commands)
                target = self.word(child, depth, origin)
                if child.type == "process_substitution" and op in (">", ">>", ">|", "&>"):
                    self.feeds.append((cmd, before, len(self.script.commands)))
            else:
                extra.append(self.word(child, depth, origin))  # `cmd >f arg`: arg belongs to cmd
        cmd.redirects.append(Redirect(op, target, fd))
        cmd.words.extend(extra)
        return []

    def heredoc(self, node, cmd: SimpleCommand, depth: int, origin: str) -> list:
        cmd.redirects.append(Redirect("<<", None))
        quoted = False
        after: list = []
        piped = False
        for child in node.children:
            ck = child.type
            if ck == "heredoc_start":
                start = self.text(child)
                quoted = any(q in start for q in "'\"\\")
            elif ck == "heredoc_body":
                body = self.text(child)
                cmd.stdin_text = body
                if not quoted:
                    dynamic = any(c.type not in ("heredoc_content",) for c in child.children)
                    cmd.stdin_dynamic = dynamic
                    for sub in child.children:
                        if sub.type in ("command_substitution", "simple_expansion", "expansion",
                                        "arithmetic_expansion"):
                            self.word(sub, depth + 1, "heredoc")
            elif ck == "|" or ck == "|&":
                piped = True
            elif ck in ("file_redirect", "herestring_redirect"):
                self.redirect(child, cmd, depth, origin)  # `cat <<EOF > f`
            elif child.is_named and ck not in ("heredoc_end", "heredoc_content"):
                after.append((piped, child))
                piped = False
        # tree-sitter hangs the rest of the line (`| bash`, `&& rm x`) under the heredoc node.
        return after

    def follow(self, after: list, upstream: list[int], depth: int, origin: str) -> None:
        """Walk the commands that come after a heredoc on its line, wiring up pipes."""
        for piped, child in after:
            if child.type == "pipeline" and child.children and child.children[0].type in ("|", "|&"):
                got = self.pipeline(child.children, depth + 1, origin, upstream)
                upstream = got
                continue
            got = self.collect(child, depth + 1, origin)
            if piped:
                for idx in got:
                    self.script.commands[idx].upstream.extend(upstream)
            upstream = got

    def redirected(self, node, depth: int, origin: str) -> list[int]:
        """A statement with redirections; returns the indices of the commands they apply to."""
        body = node.child_by_field_name("body")
        first = len(self.script.commands)
        target_cmd = None
        last_stage = None
        if body is not None and body.type == "command":
            target_cmd = self.command(body, depth + 1, origin)
            if not _lexfix.restore_dropped(self.src, node, body, target_cmd):  # `make -f - <<EOF`
                self.problem("the parser skipped part of the command before a redirection")
        elif body is not None and body.type in ("pipeline", "list"):
            last_stage = self._last_part(body, depth + 1, origin)
        elif body is not None:
            self.collect(body, depth + 1, origin)
        owned = list(range(first, len(self.script.commands)))
        if last_stage is not None:  # `a | b > f`: the redirection belongs to the last stage only
            owned = last_stage
        # `{ …; } > f` or `(…) > f`: the redirection applies to every command of the body.
        holder = target_cmd or SimpleCommand(words=[], origin=origin)
        follow: list = []
        for child in node.children:
            if child.type in ("file_redirect", "herestring_redirect", "heredoc_redirect") and child != body:
                follow.extend(self.redirect(child, holder, depth + 1, origin))
        if target_cmd is None and body is None:
            # `> f` alone truncates f: keep it as a command without words so its redirection is seen.
            holder.text = self.text(node)
            self.script.commands.append(holder)
            owned = [len(self.script.commands) - 1]
        elif target_cmd is None:
            for idx in owned:
                c = self.script.commands[idx]
                c.redirects.extend(holder.redirects)
                if holder.stdin_text is not None and c.stdin_text is None:
                    c.stdin_text, c.stdin_dynamic = holder.stdin_text, holder.stdin_dynamic
        self.follow(follow, owned, depth, origin)
        return [len(self.script.commands) - 1] if target_cmd is not None else owned

    def _last_part(self, body, depth: int, origin: str) -> list[int]:
        """A trailing redirection tree-sitter hangs on a whole ``a | b`` or ``a && b`` is the last command's."""
        if body.type == "pipeline":
            return self.pipeline(body.children, depth, origin)
        named = [c for c in body.children if c.is_named]
        for child in named[:-1]:
            self.collect(child, depth + 1, origin)
        if not named:
            return []
        last = named[-1]
        if last.type in ("pipeline", "list"):
            return self._last_part(last, depth + 1, origin)
        return self.collect(last, depth + 1, origin)

    def pipeline(self, children, depth: int, origin: str, upstream: list[int] | None = None) -> list[int]:
        """Walk a pipeline's stages (each reads what the one before wrote); the last stage's command indices."""
        upstream = list(upstream or [])
        for child in children:
            if not child.is_named:
                continue
            if child.type == "list" and upstream:  # `a | b | c && d` comes as `a | (b | c && d)`: the pipe feeds
                named = [c for c in child.children if c.is_named]  # `b | c`; `&& d` is a command of its own
                head = named[0] if named else child
                got = self.pipeline(head.children, depth + 1, origin, upstream) if head.type == "pipeline" else \
                    self.pipeline([head], depth + 1, origin, upstream)
                for rest in named[1:]:
                    self.collect(rest, depth + 1, origin)
                return got
            got = self.collect(child, depth + 1, origin)
            if upstream:
                for idx in got:
                    cmd = self.script.commands[idx]
                    if cmd.origin == origin:
                        cmd.upstream.extend(upstream)
            upstream = [i for i in got if self.script.commands[i].origin == origin] or got
        return upstream


def parse(source: str) -> Script:
    """Parse a command line; never raises for any input string."""
    if "\x00" not in source:
        plain = _plain.parse_plain(source)
        if plain is not None:
            return plain
        if "\\\n" in source:  # `r\<newline>m`: bash joins the word before it splits the line
            source = _lexfix.join_continuations(source)
            plain = _plain.parse_plain(source)
            if plain is not None:
                return plain
    script = Script(source=source)
    if "\x00" in source:
        script.problems.append("NUL byte in the command")
        source = source.replace("\x00", "")
    if source and max(source) >= FIRST_UNPARSEABLE:
        script.problems.append("characters beyond U+3FFFF (unassigned or private use), which the parser cannot take")
        return script
    data = source.encode("utf-8", "surrogatepass")
    tree, cut = tree_of(data)
    if cut:
        script.problems.append(f"too slow to parse (more than {PARSE_BUDGET_SECONDS:g} s): only a prefix was read")
    root = tree.root_node
    if root.has_error and "{" in source and _BRACE_WORD.search(source):
        retry = _brace_words(source)
        if retry is not None:
            return retry
    read_write: frozenset[int] = frozenset()
    if root.has_error and not cut and (b"<>" in data or b"<<<" in data):
        repaired = _lexfix.repair(data, root, lambda d: bash_parser().parse(d).root_node)
        if repaired is not None:
            data, root, read_write = repaired
    walker = _Walker(data, script, root.has_error, read_write)
    if root.has_error:
        script.problems.append("syntax error")
    try:
        walker.collect(root, 0, "top")
    except RecursionError:
        script.problems.append("nesting too deep to analyse")
    _lexfix.wire_feeds(script, walker.feeds)
    return script


_BRACE_WORD: Final = re.compile(r"(?:^|(?<=[\s;&|(]))\{(?=[^\s{}'\"]*,[^\s{}'\"]*\})")
_BRACE_MARK: Final = "\ue000"


def _brace_words(source: str) -> Script | None:
    """``{rm,-fr,/}``: bash reads a ``{`` that is not followed by a blank as part of a word, which brace
    expansion then splits (``rm -fr /``); tree-sitter takes it for a group and fails. The line is parsed
    again with each such ``{`` marked, and the marked words get their ``{`` back as brace expansions
    (``glob``), which ``shell.braces`` expands. None when the line still does not parse."""
    if _BRACE_MARK in source:
        return None
    marked = _BRACE_WORD.sub(_BRACE_MARK, source)
    data = marked.encode("utf-8", "surrogatepass")
    tree, cut = tree_of(data)
    if tree.root_node.has_error or cut:
        return None
    root, script = tree.root_node, Script(source=source)
    try:
        _Walker(data, script, False).collect(root, 0, "top")
    except RecursionError:
        return None
    for cmd in script.commands:
        cmd.words = [_lexfix.unmark(w, _BRACE_MARK) for w in cmd.words]
        cmd.assignments = [(k, _lexfix.unmark(v, _BRACE_MARK)) for k, v in cmd.assignments]
        cmd.text = cmd.text.replace(_BRACE_MARK, "{")
    return script


__all__ = ["MAX_DEPTH", "Redirect", "Script", "SimpleCommand", "Word", "decode_ansi_c", "parse"]
