"""The parser: quoting, redirections, pipes, heredocs, and the plain fast path agreeing with tree-sitter."""
from __future__ import annotations

import pytest
from conftest import benchmarks_common, require_corpus
from hypothesis import given, settings
from hypothesis import strategies as st

from phlegyas.analysis.shell import parse as P
from phlegyas.analysis.shell.grammar import bash_parser
from phlegyas.analysis.shell.plain import parse_plain


def tree_sitter_parse(src: str) -> P.Script:
    """The full parse, bypassing the plain fast path."""
    script = P.Script(source=src)
    data = src.encode("utf-8", "surrogatepass")
    root = bash_parser().parse(data).root_node
    walker = P._Walker(data, script, root.has_error)
    if root.has_error:
        script.problems.append("syntax error")
    walker.collect(root, 0, "top")
    return script


def assert_fast_path_agrees(src: str) -> None:
    """The plain fast path either refuses ``src`` or builds exactly what the tree-sitter walk builds."""
    got = parse_plain(src)
    if got is not None:
        assert shape(got) == shape(tree_sitter_parse(src)), src


def shape(s: P.Script):
    return (s.problems, s.functions, [
        (c.argv, [(w.dynamic, w.glob, w.quoted) for w in c.words], c.assignments,
         [(r.op, r.target and (r.target.text, r.target.dynamic, r.target.glob, r.target.quoted), r.fd)
          for r in c.redirects], c.stdin_text, c.upstream, c.origin, c.text) for c in s.commands])


@pytest.mark.parametrize("src,argvs", [
    ("ls -la", [["ls", "-la"]]),
    ("\\rm -rf x", [["rm", "-rf", "x"]]),
    ("r''m x", [["rm", "x"]]),
    ("'r'\"m\" x", [["rm", "x"]]),
    ("$'\\x72\\x6d' x", [["rm", "x"]]),
    ("cut -d \" \" -f1", [["cut", "-d", " ", "-f1"]]),
    ("tr \" \" \"=\"", [["tr", " ", "="]]),
    ("awk -F\" \" '{print}'", [["awk", "-F ", "{print}"]]),
    ("echo \"a  b\" 'c d'", [["echo", "a  b", "c d"]]),
    ("echo a\\ b", [["echo", "a b"]]),
    ("a && b || c; d & e", [["a"], ["b"], ["c"], ["d"], ["e"]]),
])
def test_words(src, argvs):
    assert [c.argv for c in P.parse(src).commands] == argvs


def test_substitutions_are_collected():
    s = P.parse("echo $(rm -rf x) `ls` <(cat y)")
    assert [c.argv[0] for c in s.commands] == ["rm", "ls", "cat", "echo"]
    assert [c.origin for c in s.commands] == ["substitution", "substitution", "process_substitution", "top"]
    assert s.commands[-1].words[1].dynamic


@pytest.mark.parametrize("src,redirected", [
    ("a | b > f", ["b"]),
    ("a && b > f", ["b"]),
    ("a | b | c > f", ["c"]),
    ("{ a; b; } > f", ["a", "b"]),
    ("(a; b) > f", ["a", "b"]),
    ("a > f", ["a"]),
])
def test_redirection_belongs_to_the_right_commands(src, redirected):
    s = tree_sitter_parse(src)
    assert [c.argv[0] for c in s.commands if c.redirects] == redirected


def test_redirection_alone_is_a_command():
    s = P.parse("> /etc/passwd")
    assert len(s.commands) == 1 and s.commands[0].words == []
    assert s.commands[0].redirects[0].target.text == "/etc/passwd"


def test_heredoc_with_a_redirection_and_a_pipe():
    s = P.parse("cat <<EOF > notes.txt\nhello\nEOF")
    assert s.understood and s.commands[0].stdin_text == "hello\n"
    assert [r.op for r in s.commands[0].redirects] == ["<<", ">"]
    s = P.parse("cat <<EOF | bash\nrm -rf /\nEOF")
    assert s.commands[1].argv == ["bash"] and s.commands[1].upstream == [0]


def test_pipes_record_upstream():
    s = P.parse("a | b | c")
    assert [c.upstream for c in s.commands] == [[], [0], [1]]


@pytest.mark.parametrize("src", ["ls (", "echo \"x", "if then fi", "a &&", "echo $((", "case x in"])
def test_syntax_errors_are_problems(src):
    assert not P.parse(src).understood


def test_nul_byte_is_a_problem():
    assert "NUL byte in the command" in P.parse("ls\x00rm").problems


@pytest.mark.parametrize("src,plain", [
    ("git status", True), ("ls -la | grep foo 2>/dev/null", True), ("echo 'a b' \"c\"", True),
    ("npm test && npm run build", True), ("ls > out.txt", True), ("cmd 2>&1", True),
    ("echo $HOME", True), ("echo `ls`", False), ("a\nb", False), ("x=1 ls", False), ("export A=1", False),
    ("if true; then ls; fi", False), ("echo {a,b}", False), ("cat <<EOF", False), ("echo a>f", False),
    ("ls [ab]", False), ("echo é", False), ("echo \"$x\"", True), ("echo a\\ b", False), ("cmd > f arg", False),
    # found by the agreement properties: `2>&-` is one token to tree-sitter (a close, with no target word),
    # which reads `0<f` as the word `0` and `<f`; the walk reads a lone surrogate's bytes as U+FFFD
    ("ls 2>&-", False), ("ls 2<&-;ls", False), ("ls 2>&-x", False), ("ls 2>& -", True), ("ls 0<f", False),
    ("ls 0>&1", False), ("ls 00>f", False), ("ls 10>f", True), ("ls '\ud800'", False), ("ls \"a\udfffb\"", False),
    ("ls 'é'", True),
])
def test_plain_subset(src, plain):
    got = parse_plain(src)
    assert (got is not None) is plain
    if got is not None:
        assert shape(got) == shape(tree_sitter_parse(src))


# The three agreement properties below generate lines from a grammar of what the fast path takes, with a
# near miss (an atom just outside the subset) now and then, so that most examples are really compared:
# each asserts that at least half of its examples were taken by the fast path (a property over lines the
# fast path declines would pass whatever the fast path builds).

_WORD_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,@%+*?~^!-"
_ASCII = _WORD_CHARS + " \t'\"$`\\|&;<>(){}[]#"


def _quoted(quote: str, bad: str) -> st.SearchStrategy[str]:
    """A single- or double-quoted string of up to six characters but ``bad``: ASCII (blanks, operators …), or
    any character below U+40000, lone surrogates too (tree-sitter-bash may crash on higher ones, which
    parse() refuses before it)."""
    ascii_text = st.text("".join(c for c in _ASCII if c not in bad), max_size=6)
    any_text = st.text(st.characters(max_codepoint=0x3FFFF, exclude_characters="\x00\n\r" + bad), max_size=6)
    return (ascii_text | any_text).map(lambda s: quote + s + quote)


_PROGRAM = st.sampled_from(["ls", "git", "echo", "grep", "find", "cat", "npm", "a", "x.sh", "./run", "/bin/ls",
                            "a-b", "x.y", "~/bin/x", "py3", "_x", "a,b", "+x", "1"])
_UNQUOTED = st.sampled_from(["-la", "--opt=v", "src/x.py", "*.py", "a?b", "~/f", "a:b", "@scope/pkg", "-", ".",
                             "..", "x=1", "a,b", "+x", "^x", "%s", "!", "a!b", "1", "2", "a-b", "-n=3", "=x"]) | \
    st.text(alphabet=_WORD_CHARS, min_size=1, max_size=6)
_SINGLE = _quoted("'", "'")
_DOUBLE = _quoted('"', '"$`\\!')  # what the fast path takes in double quotes (and `$NAME`: _DOUBLE_DOLLAR)
_BLANK = st.sampled_from([" ", " ", " ", "  ", "\t"])
_LIST_OPERATOR = st.sampled_from([" | ", "|", " && ", "&&", " || ", "||", "; ", ";", " ; ", " & ", "&"])


def _word(*pieces: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A word: one to three pieces (unquoted runs, quotes, expansions …) written next to each other."""
    return st.lists(st.one_of(*pieces), min_size=1, max_size=3).map("".join)


@st.composite
def _line(draw, program, word, near_miss, redirect=None):
    """One to four commands of a program and words (then redirections, when given) joined by ``| || && ; &``,
    maybe with a last ``;`` or ``&``. About one line in six has a near miss in one of its words (the program too).
    At most one pipe in a list (the fast path leaves ``a | b | c && d`` to tree-sitter)."""
    commands = []
    for _ in range(draw(st.integers(1, 4))):
        words = [draw(program)] + [draw(word) for _ in range(draw(st.integers(0, 4)))]
        redirects = [draw(redirect) for _ in range(draw(st.integers(0, 2)))] if redirect is not None else []
        commands.append((words, redirects))
    if draw(st.integers(0, 3)) == 3:  # (not 0: hypothesis draws the least value more often than the others)
        words = commands[draw(st.integers(0, len(commands) - 1))][0]
        words[draw(st.integers(0, len(words) - 1))] = draw(near_miss)
    operators = [draw(_LIST_OPERATOR) for _ in commands[1:]]
    if sum(o.strip() == "|" for o in operators) > 1:
        operators = [o if o.strip() not in ("&&", "||") else ";" for o in operators]
    line = ""
    for k, (words, redirects) in enumerate(commands):
        line += (operators[k - 1] if k else "") + "".join(
            (draw(_BLANK) if i else "") + w for i, w in enumerate(words + redirects))
    if draw(st.integers(0, 5)) == 0:
        line += draw(st.sampled_from([";", " ;", "&", " & ", "; "]))
    return line


def _agreement(lines: st.SearchStrategy[str], examples: int) -> tuple[int, int]:
    """Runs ``assert_fast_path_agrees`` over ``examples`` generated lines; returns (taken by the fast path, all)."""
    counts = [0, 0]

    @settings(max_examples=examples, deadline=None)
    @given(lines)
    def agrees(src):
        counts[0] += parse_plain(src) is not None
        counts[1] += 1
        assert_fast_path_agrees(src)

    agrees()
    return counts[0], counts[1]


def assert_mostly_compared(taken: int, total: int) -> None:
    assert total and taken >= total / 2, f"the fast path took only {taken} of {total} generated lines"


# Atoms just outside the general lexer's subset (and a few inside), as near misses.
_ATOM = st.sampled_from(["{}", "\\;", "x{}", "ls", "git", "-la", "a.txt", "src/x.py", "*.py", "'a b'", "\"c d\"", "x=1",
                         "--opt=v", "~/f", "a-b", "'it''s'", "\"\"", "''", "@scope/pkg", "%s", "1", "2", "-", ".", "..",
                         "a:b", "a,b", "+x", "^x", "a?b", "$A", "${B}x", "\"$C\"", "\"x ${D}.t\"", "$E/$F", "--opt=$G",
                         "'$H'", "$I*", "$", "$1", "${J:-x}", "\"$?\"", "==", "=~x", "a|&b", "a;;", "a>f", "[ab]",
                         "{a,b}", "\\ ", "é", "#x", "(x)", "`x`", "2>&-", "0<f", ">&2", "<<EOF", "<>f", ">|f", "if",
                         "then", "!"])
_FD = st.sampled_from(["", "", "", "1", "2", "2", "3", "10"])
_TARGET = _word(_UNQUOTED, _SINGLE, _DOUBLE).filter(lambda w: w.replace("'", "").replace('"', ""))  # not empty
_REDIRECT_NEAR_MISS = st.one_of(  # forms the fast path leaves to tree-sitter, which reads some of them oddly
    st.tuples(st.sampled_from(["0", "00", "01"]), st.sampled_from([">", "<", ">&", "<&", ">>"]),
              st.sampled_from(["1", "f"])),
    st.tuples(_FD, st.sampled_from([">&", "<&"]), st.sampled_from(["-", "-x", "-''", "'-'", "''"])),
    st.tuples(st.just(""), st.sampled_from([">&", "<&", ">|", "<>", "<<", "<<<", ">>&"]), st.sampled_from(["1", "f"])),
    st.tuples(_FD, st.sampled_from([">", "<"]), st.sampled_from(["''", '""', "-", "-x"])),
).map("".join)
_REDIRECT_USUAL = st.one_of(
    st.tuples(_FD, st.sampled_from([">", ">>", "<", ">", "2>"]), _BLANK | st.just(""), _TARGET),
    st.tuples(st.just(""), st.sampled_from(["&>", "&>>"]), _BLANK | st.just(""), _TARGET),
    st.tuples(st.sampled_from(["1", "2", "2", "3", "10"]), st.sampled_from([">&", "<&"]),
              st.sampled_from(["1", "2", "0", "10", " 1", " -"])),  # `2>& -` closes, and the parsers agree on it
    st.sampled_from(["2>/dev/null", "> /dev/null"]).map(lambda r: (r,)),
).map("".join)


@st.composite
def _redirect(draw):
    return draw(_REDIRECT_NEAR_MISS if draw(st.integers(0, 7)) == 7 else _REDIRECT_USUAL)


def plainish():
    return _line(_PROGRAM, _word(_UNQUOTED, _UNQUOTED, _SINGLE, _DOUBLE), _ATOM, _redirect())


def test_plain_fast_path_agrees_with_tree_sitter():
    assert_mostly_compared(*_agreement(plainish(), 300))


@pytest.mark.parametrize("src,plain", [
    # the list fast path (words joined by | || && ; &, no redirection) and what it leaves to tree-sitter
    ("grep -r foo src | sort | uniq -c", True), ("git log --oneline | grep 'fix bug'", True), ("a | b && c", True),
    ("find . -name \"*.c\" -exec grep -l x {} \\;", True), ("find /tmp -type f -exec rm {} +", True),
    ("ls -la ;  ", True), ("a & b", True), ("echo \\; x", True),
    ("cat x |", False), ("a |& b", False), ("a ;; b", False), ("a {};", False), ("x{} y", False),
    ("a | b | c && d", False),
    # escapes outside quotes (`find \( … \)`), but not of blanks, nor mixed with quotes in one word
    ("find . \\( -name a -o -name b \\) -print", True), ("ls \\*.c foo\\.bar | wc -l", True), ("echo x\\;", True),
    ("echo \\' x", False), ("echo a\\'b'", False), ("echo \\\\ x", False),
    # `!` inside a command is a word; at its start it negates
    ("find . ! -name '*.c' -print", True), ("echo a!b !", True), ("! ls", False), ("ls | !x", False),
    # tree-sitter reads a lone `-` program oddly (`- x=1` is an assignment to it), and `1²>f` is a word
    ("- x=1", False), ("ls && - a?b", False), ("- a?b", False), ("echo '' 1²>f", False),
    # … and `==`, `=~` as test operators, which the walk drops
    ("echo a == b", False), ("ls =~ x", False), ("echo =='x'", False), ("echo ==x", False),
])
def test_plain_list_path(src, plain):
    got = parse_plain(src)
    assert (got is not None) is plain
    if got is not None:
        assert shape(got) == shape(tree_sitter_parse(src))


# Atoms just outside the list path's subset (and a few inside), as near misses.
_LIST_ATOM = st.sampled_from(["ls", "-la", "'a b'", "\"c d\"", "''", "x'y'z", "if", "'if'", "-", "*.py", "a?b", "{}",
                              "\\;", "x{}", "a\\;", "=x", "2", "x=1", "-x", "--", "a:b", "~/f", "é", "$x", "'*.c'",
                              "\\(", "\\!", "a\\.b", "\\\\", "\\'", "\\{a,b\\}", "\\$x", "\\ ", "x\\", "==",
                              "${x}", "\"$x y\"", "a$x.c", "$x\\;", "'$1'", "$@", "$(x)",
                              "=~", "==x", "=='q'", "!", "a!b", "!=", ";;", "|&", " > f", " 2>&1 ", "{a,b}", "a\\'b'",
                              "\\>", "x\\<"])
_ESCAPED = st.sampled_from(["\\(", "\\)", "\\!", "\\;", "\\*", "\\.", "\\|", "\\&",
                            "\\#", "\\~", "\\[", "\\]", "\\-", "\\a"])
# what `find` and friends write: standalone `{}` and `\;`, words with escapes (`\(`, `foo\.bar`)
_LIST_WORD = st.one_of(_word(_UNQUOTED, _UNQUOTED, _SINGLE, _DOUBLE), _word(_UNQUOTED, _ESCAPED),
                       st.sampled_from(["{}", "\\;", "{}", "+"]))


def listish():
    return _line(_PROGRAM, _LIST_WORD, _LIST_ATOM)


def test_plain_list_path_agrees_with_tree_sitter():
    assert_mostly_compared(*_agreement(listish(), 300))


@pytest.mark.parametrize("src,route", [
    # simple parameter expansions, unquoted (alone or inside a word) and in double quotes
    ("top -p $PID", "fast"), ("find \"$DIR\" -name x", "fast"), ("echo ${HOME}/x | wc -c", "fast"),
    ("grep foo \"$file\"", "fast"), ("echo a$B $A/x $A$B ${A}x", "fast"), ("echo \"x $A y\" \"${A}.txt\"", "fast"),
    ("echo \" $A \" \"a  $B\tc\"", "fast"),  # blanks next to a quote: tree-sitter folds them into the quote token
    ("echo $A-x $A:x $A.b $A=x --opt=$A ~/$A", "fast"), ("ls $A* x$B?", "fast"),
    ("echo \"$A\"x'y' $A'q' \"\"$B", "fast"), ("echo '$1 $(ls)' $A", "fast"),  # `$` in single quotes is a literal
    ("scp $USER@$HOST:$SRC $DEST", "fast"), ("echo $A.${B}.c", "fast"),  # no split: `=:@%` after, or `${B}`
    ("find $D -name '*.c' -exec rm {} \\;", "fast"), ("cat $F > \"$OUT\" 2>&1 && echo $_ok", "fast"),
    ("cd \"$D\" | sort -k2 $F; wc $F &", "fast"),
    ("echo \\$A", "fast"),  # the escaped `$` is a literal, on the older escape route (not dynamic)
    # any other `$`, and expansions where tree-sitter reads the line oddly
    ("echo $", "tree-sitter"), ("echo a$", "tree-sitter"), ("echo \"$A$\"", "tree-sitter"),
    ("echo $1", "tree-sitter"), ("echo $@", "tree-sitter"), ("echo $#", "tree-sitter"), ("echo $?", "tree-sitter"),
    ("echo $$", "tree-sitter"), ("echo $!", "tree-sitter"), ("echo $-", "tree-sitter"), ("echo $0", "tree-sitter"),
    ("echo $*", "tree-sitter"), ("echo \"$1\"", "tree-sitter"), ("echo \"$@\"", "tree-sitter"),
    ("echo ${A:-x}", "tree-sitter"), ("echo ${#A}", "tree-sitter"), ("echo ${A[0]}", "tree-sitter"),
    ("echo ${A}}", "tree-sitter"), ("echo ${1}", "tree-sitter"), ("echo ${ A}", "tree-sitter"),
    ("echo $(ls)", "tree-sitter"), ("echo $((1+2))", "tree-sitter"), ("echo $'x'", "tree-sitter"),
    ("echo $\"x\"", "tree-sitter"), ("echo $[1+2]", "tree-sitter"), ("echo \"$(ls)\"", "tree-sitter"),
    ("echo \\$A $B", "tree-sitter"), ("echo \"\\$A\"", "tree-sitter"), ("echo $A\\;", "tree-sitter"),
    ("$cmd args", "tree-sitter"), ("\"$cmd\" args", "tree-sitter"), ("${cmd} x", "tree-sitter"),
    ("ls | $A", "tree-sitter"), ("x$A y", "tree-sitter"),
    ("A=$B cmd", "tree-sitter"), ("export A=$B", "tree-sitter"), ("A=1 ls $B", "tree-sitter"),
    ("ls $A/$B/x", "tree-sitter"), ("echo $A.$B.c", "tree-sitter"), ("echo a\"b\"$C*", "tree-sitter"),
    ("ls $A[0]", "tree-sitter"), ("echo $A{x}", "tree-sitter"), ("echo $A x>$B", "tree-sitter"),
    ("echo $A 'x", "tree-sitter"), ("echo \"$A `ls`\"", "tree-sitter"), ("echo \"$A!\"", "tree-sitter"),
])
def test_plain_expansions(src, route):
    got = parse_plain(src)
    assert ("fast" if got is not None else "tree-sitter") == route
    if got is not None:
        assert shape(got) == shape(tree_sitter_parse(src))


def test_expansions_are_dynamic_in_their_source_form():
    got = parse_plain("cp \"${A}.txt\" $B/x '$C' \"*\"$D")
    assert got is not None
    assert [(w.text, w.dynamic, w.glob, w.quoted) for w in got.commands[0].words] == [
        ("cp", False, False, False), ("${A}.txt", True, False, True), ("$B/x", True, False, False),
        ("$C", False, False, True), ("*$D", True, False, True)]


_NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}", fullmatch=True) | st.sampled_from(["A", "HOME", "_x1", "PWD"])
_EXPANSION = st.one_of(_NAME.map(lambda n: f"${n}"), _NAME.map(lambda n: f"${{{n}}}"))
_DOUBLE_DOLLAR = st.lists(st.one_of(_EXPANSION, st.sampled_from([" ", "a", ".t", "\t", "x y", "-", "/", "'"])),
                          max_size=4).map(lambda parts: '"' + "".join(parts) + '"')
_DOLLAR_PIECE = st.one_of(_EXPANSION, _EXPANSION, _UNQUOTED, _SINGLE, _DOUBLE, _DOUBLE_DOLLAR,
                          st.sampled_from(["'$C'", "'$(x) $1'", "/", ".", ":", "=", "@", "%", "~", "*", "?"]))
_DOLLAR_NEAR_MISS = st.sampled_from([  # other `$` forms, escapes, brackets and braces next to an expansion
    "$", "$1", "$@", "$?", "$$", "${G:-x}", "${#G}", "$(ls)", "$((1))", "$'x'", "$\"x\"", "$[1]", "\\$H", "\\;", "\\(",
    "\"$1\"", "\"$\"", "\"\\$A\"", "[0]", "{x}", "{}", "==", "$A[0]", "$A{x}", "$A/$B/x", "$A.$B.c", "a\"b\"$C*",
    "\"$A!\"", "\"$A `ls`\"", "\"$A\"", "x$A", "A=$B", "${A}",  # the last four: near misses as the program
])
_DOLLAR_REDIRECT = st.tuples(st.sampled_from([">", ">>", "<", "2>", "&>"]), st.sampled_from(["", " "]),
                             _word(_EXPANSION, _UNQUOTED, _DOUBLE_DOLLAR)).map("".join) | st.just("2>&1")


def dollarish():
    """Lines whose words are concatenations of expansions, literals and quotes, now and then with a near miss
    in a word or as the program (``$A``, ``A=$B``)."""
    return _line(_PROGRAM, _word(_DOLLAR_PIECE), _DOLLAR_NEAR_MISS, _DOLLAR_REDIRECT)


def test_plain_expansions_agree_with_tree_sitter():
    assert_mostly_compared(*_agreement(dollarish(), 300))


def test_a_long_line_the_fast_path_refuses_is_refused_at_once():
    # the word pattern is atomic: without that, refusing this line backtracks through 2**40 ways to split it
    assert parse_plain("ls 'x' " + "a" * 40 + " $") is None
    assert parse_plain("ls \"$A\" " + "a$B" * 40 + " $") is None  # and the pattern for lines with expansions


@pytest.mark.parametrize("src", ["{\U00100000", "echo -{\U001054c4 x", "ls {\U000f0000"])
def test_characters_the_parser_cannot_take_are_refused(src):
    # tree-sitter-bash 0.25 crashes the process on `{` followed by a code point of plane 5 and up
    script = P.parse(src)
    assert not script.understood and not script.commands
    assert "U+3FFFF" in script.problems[-1]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_parse_never_raises(src):
    script = P.parse(src)
    assert isinstance(script.problems, list)


def test_plain_fast_path_agrees_on_the_corpora():
    corpora = ("nl2bash", "tldr", "dcg")
    require_corpus(*corpora)
    checked = dynamic = 0
    for name in corpora:
        for row in benchmarks_common.load_corpus(name):
            src = row["command"]
            got = parse_plain(src)
            if got is not None:
                checked += 1
                dynamic += any(w.dynamic for c in got.commands for w in c.words)
                assert shape(got) == shape(tree_sitter_parse(src)), src
    assert checked > 10000
    assert dynamic > 500  # lines with `$NAME` or `${NAME}` take the fast path too


@pytest.mark.parametrize("body,decoded", [
    ("\\x72\\x6d", "rm"), ("\\162\\155", "rm"), ("a\\tb", "a\tb"), ("\\u00e9", "é"), ("\\cA", "\x01"),
    ("\\q", "\\q"), ("x\\", "x\\"),
])
def test_ansi_c(body, decoded):
    assert P.decode_ansi_c(body) == decoded


@pytest.mark.parametrize("command, understood", [
    ("env if true; then rm -rf /; fi", False),   # bash: syntax error near `then`; tree-sitter: a command `then`
    ("ls; done", False),
    ("x; esac", False),
    ("env { rm -rf /; }", False),              # `{` is env's argument, so the `}` has no group to close
    ("if true; then ls; else pwd; fi", True),
    ("while read l; do echo $l; done < f", True),
    ('"then" arg', True),                        # quoted: a program named then, as bash runs it
])
def test_reserved_words_where_bash_wants_a_command_are_not_understood(command, understood):
    assert P.parse(command).understood is understood


@pytest.mark.parametrize("source, word", [
    ('bash -c "echo hi\nrm -rf ~"', "echo hi\nrm -rf ~"),  # was read as `echo hirm -rf ~`, and allowed
    ('echo "x\n"', "x\n"), ('echo "\nx"', "\nx"), ('echo "a $x\n  b"', "a $x\n  b"),
    ("bash -c \"alias x='rm -rf ~'\nx\"", "alias x='rm -rf ~'\nx"),
])
def test_a_newline_inside_double_quotes_is_kept(source, word):
    """tree-sitter leaves a newline inside a double-quoted string out of every node: the walk puts the
    text between the string's nodes back."""
    assert P.parse(source).commands[0].words[-1].text == word


def test_a_command_after_a_newline_in_bash_c_is_seen():
    from phlegyas.analysis.report import analyze_command
    from phlegyas.core.analysis import AnalysisEnv

    env = AnalysisEnv(cwd="/home/u/proj", home="/home/u", project_root="/home/u/proj")
    found = analyze_command('bash -c "echo hi\nrm -rf ~"', env).findings
    assert any(f.id == "delete.catastrophic" for f in found)
