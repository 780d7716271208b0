"""Destructive database statements handed to a client (``psql``, ``mysql``, ``sqlite3``, ``redis-cli``,
``mongosh`` …) by flag, argument, heredoc, here-string or pipe; and mutating statements sent to a
production host.

SQL is tokenized, not searched: string literals, quoted identifiers and comments are skipped, so
``SELECT 'drop table x'`` is a SELECT. Only the verb of each statement (after ``WITH …`` and
``EXPLAIN ANALYZE``) decides.
"""
from __future__ import annotations

import re
from typing import Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add, given_text, is_prod, parse_opts, piped_text
from phlegyas.core.analysis import AnalysisEnv
from phlegyas.core.model import Verdict

# -- tokenizer ---------------------------------------------------------------------------------------

_DOLLAR_TAG: Final = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$")


def statements(sql: str, hash_comments: bool = False) -> list[list[tuple[str, int]]]:
    """Statements of ``sql``, each a list of (UPPERCASE keyword or identifier, paren depth)."""
    out: list[list[tuple[str, int]]] = []
    cur: list[tuple[str, int]] = []
    i, n, depth = 0, len(sql), 0
    line_start = True
    while i < n:
        c = sql[i]
        if c in " \t\r":
            i += 1
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        at_line_start, line_start = line_start, False
        if c == "\\" and at_line_start:  # psql meta-command: \c db, \i file …
            end = sql.find("\n", i)
            i = n if end < 0 else end
        elif c == "'" or c == '"' or c == "`":
            i = _skip_quoted(sql, i, c)
            if c != "'":
                cur.append(("IDENT", depth))
        elif c == "-" and sql.startswith("--", i) or c == "#" and hash_comments:
            end = sql.find("\n", i)
            i = n if end < 0 else end
        elif c == "/" and sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif c == "$" and (m := _DOLLAR_TAG.match(sql, i)):
            end = sql.find(m.group(0), m.end())
            i = n if end < 0 else end + len(m.group(0))
        elif c == ";":
            if cur:
                out.append(cur)
            cur, depth = [], 0
            i += 1
        elif c == "(":
            depth += 1
            i += 1
        elif c == ")":
            depth = max(0, depth - 1)
            i += 1
        elif c.isalpha() or c == "_":
            j = i + 1
            while j < n and (sql[j].isalnum() or sql[j] in "_$"):
                j += 1
            cur.append((sql[i:j].upper(), depth))
            i = j
        else:
            i += 1
    if cur:
        out.append(cur)
    return out


def _skip_quoted(sql: str, i: int, quote: str) -> int:
    j, n = i + 1, len(sql)
    while j < n:
        c = sql[j]
        if c == "\\" and quote != "`":
            j += 2
            continue
        if c == quote:
            if j + 1 < n and sql[j + 1] == quote:  # '' inside a literal
                j += 2
                continue
            return j + 1
        j += 1
    return n


_DROP_DENY: Final = frozenset({"TABLE", "DATABASE", "SCHEMA", "TABLESPACE", "OWNED", "COLLECTION", "KEYSPACE"})
_MUTATING: Final = frozenset({"INSERT", "UPDATE", "DELETE", "DROP", "ALTER", "CREATE", "TRUNCATE", "GRANT", "REVOKE",
                              "REPLACE", "MERGE", "UPSERT", "COPY", "CALL", "DO", "EXEC", "EXECUTE", "RENAME", "LOAD",
                              "VACUUM", "REINDEX", "CLUSTER", "REFRESH", "LOCK", "COMMENT", "SECURITY", "IMPORT"})


_FILE_WRITE: Final = re.compile(r"\b(?:writefile|lo_export|pg_file_write)\s*\(\s*(?:\d+\s*,\s*)?'([^']+)'|"
                                r"\bINTO\s+(?:OUTFILE|DUMPFILE)\s+'([^']+)'", re.I)
_FILE_READERS: Final = frozenset({"PG_READ_FILE", "PG_READ_BINARY_FILE", "PG_LS_DIR", "LO_IMPORT", "LOAD_FILE",
                                  "READFILE"})
_BLOCK_WORDS: Final = frozenset({"BEGIN", "IF", "ELSIF", "ELSE", "FOR", "WHILE", "LOOP"})


def _verb(tokens: list[tuple[str, int]]) -> tuple[str, list[str]]:
    """The statement's verb and the top-level words after it (``WITH x AS (…) DELETE …`` → DELETE)."""
    words = [t for t, d in tokens if d == 0]
    while words and words[0] in _BLOCK_WORDS:  # a PL/pgSQL body: `BEGIN DROP TABLE t`, `… LOOP DELETE FROM t`
        cut = max((k for k, w in enumerate(words) if w in ("THEN", "LOOP", "ELSE")), default=0)
        words = words[cut + 1:] if cut else words[1:]
    if words and words[0] == "EXPLAIN":
        if "ANALYZE" not in words[1:3]:
            return "EXPLAIN", []
        words = words[words.index("ANALYZE") + 1:]
    if words and words[0] == "WITH":
        for k, w in enumerate(words[1:], 1):
            if w in ("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE"):
                return w, words[k + 1:]
        return "WITH", []
    return (words[0], words[1:]) if words else ("", [])


_PASSWORD_TABLES: Final = frozenset({"pg_shadow", "pg_authid", "pg_catalog.pg_shadow", "pg_catalog.pg_authid",
                                    "mysql.user", "authentication_string", "sys.sql_logins", "password_hash"})


_SECRET_COLUMN: Final = re.compile(r"(?i)^[\"`]?\w*(?:password|passwd|secret|api_?key|private_?key|plaintext|"
                                   r"access_?token|refresh_?token|credential)\w*[\"`]?$")
"""Names of columns and tables that hold secrets (``key_plaintext``, ``api_keys``, ``password_hash``)."""


def judge_sql(sql: str, hash_comments: bool = False, depth: int = 0) -> tuple[list[tuple[Verdict, str]], bool]:
    """(destructive statements as (severity, what), whether any statement changes data). The bodies of
    ``DO $$ … $$`` blocks are statements too, and so is what their ``EXECUTE`` builds
    (``EXECUTE 'DR' || 'OP TABLE users'``, ``EXECUTE format('DROP TABLE %I', r.tablename)``): its string
    literals joined, every other operand an identifier."""
    found: list[tuple[Verdict, str]] = []
    mutating = False
    if "$" in sql and depth < 3:
        for body in _dollar_bodies(sql):
            f, m = judge_sql(";\n".join([body, *_executed(body)]), hash_comments, depth + 1)
            found.extend(f)
            mutating |= m
    for write in _FILE_WRITE.finditer(sql):  # `SELECT writefile('~/.ssh/authorized_keys', …)`, `INTO OUTFILE '…'`
        path = next(g for g in write.groups() if g)
        planted = _PLANTED_DIR.search(path.rsplit("/", 1)[0]) or _PLANTED_NAME.search(path.rsplit("/", 1)[-1])
        found.append((Verdict.DENY if planted else Verdict.ASK,
                      f"a write of {path}{' (a file that grants logins or runs later)' if planted else ''}"))
        mutating = True
    made = generated_ddl(sql) if "gexec" in sql else None
    if made is not None:  # `SELECT format('DROP TABLE %I', …) FROM pg_tables \gexec`: psql runs each row it returns
        found.append((Verdict.DENY, f"the {made} statements it generates (\\gexec runs them)"))
        mutating = True
    for tokens in statements(sql, hash_comments):
        verb, rest = _verb(tokens)
        mutating |= verb in _MUTATING
        if verb == "DROP":
            kind = next((w for w in rest if w not in ("TEMPORARY", "TEMP")), "")
            sev = Verdict.DENY if kind in _DROP_DENY else Verdict.ASK
            found.append((sev, f"DROP {kind}".strip()))
        elif verb == "TRUNCATE":
            found.append((Verdict.DENY, "TRUNCATE"))
        elif verb == "DELETE":
            if "WHERE" in rest:
                found.append((Verdict.ASK, "DELETE … WHERE"))
            else:
                found.append((Verdict.DENY, "DELETE without WHERE (every row)"))
        elif verb == "UPDATE" and "WHERE" not in rest:
            found.append((Verdict.ASK, "UPDATE without WHERE (every row)"))
        elif verb == "ALTER" and "DROP" in rest:
            found.append((Verdict.DENY, "ALTER … DROP"))
        elif verb in ("ALTER", "CREATE") and ("ROLE" in rest or "USER" in rest) and "SUPERUSER" in rest:
            found.append((Verdict.DENY, f"{verb} {'ROLE' if 'ROLE' in rest else 'USER'} … SUPERUSER (a superuser can run "
                                        "programs on the server)"))
        elif verb == "COPY" and "PROGRAM" in rest:
            found.append((Verdict.DENY, "COPY … PROGRAM (a shell command run on the database server)"))
        elif any(t.lower().strip('"`') in _PASSWORD_TABLES for t, _ in tokens):
            found.append((Verdict.ASK, "the accounts' password hashes read (pg_shadow, pg_authid, mysql.user)"))
        elif verb == "SELECT" and (column := next((t for t, _ in tokens if _SECRET_COLUMN.search(t)), None)):
            name = column.strip(chr(34) + "`").lower()
            found.append((Verdict.ASK, f"{name}, a column or table that holds secrets, read"))
        elif any(w in _FILE_READERS for w in (t for t, _ in tokens)) or verb == "COPY" and "FROM" in rest:
            found.append((Verdict.ASK, "a file of the database server read (pg_read_file, LOAD_FILE, COPY FROM)"))
    return found, mutating


def _dollar_bodies(sql: str) -> list[str]:
    """The texts between ``$$ … $$`` (or ``$tag$ … $tag$``) quotes after ``DO``: the blocks that run at once (a
    function's body runs only when called)."""
    out: list[str] = []
    i = 0
    while (m := _DOLLAR_TAG.search(sql, i)) is not None:
        end = sql.find(m.group(0), m.end())
        if end < 0:
            break
        if _BODY_START.search(sql, 0, m.start()):  # `DO $$ … $$` runs now; `SELECT $$…$$` is a string
            out.append(sql[m.end():end])
        i = end + len(m.group(0))
    return out


_BODY_START: Final = re.compile(r"\bDO\s*(?:LANGUAGE\s+\w+\s*)?$", re.I)  # (a function body only runs when called)


_EXECUTE: Final = re.compile(r"\bEXECUTE\s+(?:IMMEDIATE\s+)?((?:'(?:[^']|'')*'|[^;'])+)", re.I)
_LITERAL_SQL: Final = re.compile(r"'((?:[^']|'')*)'")


def _executed(body: str) -> list[str]:
    """The statements a PL/pgSQL (or T-SQL) body's ``EXECUTE`` builds, literals joined: ``'DR' || 'OP TABLE t'``
    → ``DROP TABLE t``, ``'DROP TABLE ' || quote_ident(r.name)`` → ``DROP TABLE x``."""
    out: list[str] = []
    for m in _EXECUTE.finditer(body):
        expr = m.group(1).strip()
        if expr.lower().startswith("format"):
            first = _LITERAL_SQL.search(expr)
            out.append(re.sub(r"%[ILs]", "x", first.group(1)) if first else "")
            continue
        parts = re.split(r"\|\|", expr)
        out.append("".join(lit.group(1).replace("''", "'") if (lit := _LITERAL_SQL.fullmatch(p.strip())) else " x "
                           for p in parts))
    return [o + ";" for o in out if o.strip()]


# -- other stores --------------------------------------------------------------------------------------

_MONGO_DENY = re.compile(r"\.\s*(dropDatabase|drop|dropAllUsers|dropUser)\s*\(|\.\s*(deleteMany|remove)\s*\(\s*\{\s*\}\s*\)")
_MONGO_ASK: Final = re.compile(r"\.\s*(deleteMany|remove|findOneAndDelete|deleteOne|updateMany)\s*\(")
_MONGO_READ = re.compile(r"^\s*(db\.\w+\.(find|count|countDocuments|aggregate|findOne|distinct)\b|show |db\.(stats|version)\b)")


def judge_mongo(code: str) -> tuple[list[tuple[Verdict, str]], bool]:
    if m := _MONGO_DENY.search(code):
        return [(Verdict.DENY, m.group(0).strip(". ("))], True
    if m := _MONGO_ASK.search(code):
        return [(Verdict.ASK, m.group(0).strip(". ("))], True
    return [], not _MONGO_READ.match(code)


_PLANTED_DIR: Final = re.compile(r"/\.ssh/?$|/cron(?:\.d|tabs)?/?$|/etc/?$|/profile\.d/?$|/\.config/autostart/?$|"
                                 r"/systemd/(?:system|user)/?$|/www|/html/?$|^/root/?$")
_PLANTED_NAME: Final = re.compile(r"^(?:authorized_keys2?|\.bashrc|\.profile|\.zshrc|crontab|root|[\w.-]+\.(?:php|jsp|sh))$")
_REDIS_READ = frozenset({"GET", "MGET", "KEYS", "SCAN", "INFO", "TTL", "PTTL", "TYPE", "EXISTS", "HGET", "HGETALL",
                         "HKEYS", "HLEN", "LRANGE", "LLEN", "SMEMBERS", "SCARD", "ZRANGE", "ZCARD", "PING", "DBSIZE",
                         "MONITOR", "STRLEN", "SISMEMBER", "HMGET", "XRANGE", "XLEN", "MEMORY", "SLOWLOG",
                         "CLIENT", "CONFIG", "COMMAND", "ECHO", "TIME", "LASTSAVE", "ROLE", "CLUSTER"})


def judge_redis(words: list[str]) -> tuple[list[tuple[Verdict, str]], bool]:
    if not words:
        return [], False
    cmd = words[0].upper()
    if cmd in ("FLUSHALL", "FLUSHDB"):
        return [(Verdict.DENY, cmd)], True
    if cmd == "CONFIG" and len(words) > 1 and words[1].upper() == "SET":
        if len(words) > 3 and words[2].lower() == "dir" and _PLANTED_DIR.search(words[3]) or len(words) > 3 and \
                words[2].lower() == "dbfilename" and _PLANTED_NAME.search(words[3]):
            return [(Verdict.DENY, f"CONFIG SET {words[2]} {words[3]} (redis writes its database where a login, a "
                                   "shell or the scheduler reads it)")], True
        return [(Verdict.ASK, "CONFIG SET")], True
    return [], cmd not in _REDIS_READ


# -- clients -------------------------------------------------------------------------------------------


class _Query:
    """What one client invocation sends: statements, whether some input is unknown, and its host."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.files: list[str] = []  # files (or process substitutions) it reads statements from
        self.unknown = False
        self.hosts: list[str] = []


def _psql(inv: Invocation) -> _Query:
    q = _Query()
    opts = parse_opts(inv.args, short_values="cdfhpUvoLPTFR", long_values=frozenset({
        "--command", "--dbname", "--file", "--host", "--port", "--username", "--set", "--variable", "--output",
        "--log-file", "--pset", "--field-separator", "--record-separator", "--table-attr"}))
    q.texts = opts.values("-c", "--command")
    q.files = opts.values("-f", "--file")
    q.hosts = opts.values("-h", "--host", "-d", "--dbname") + [w.text for w in opts.operands]
    return q


def _mysql(inv: Invocation) -> _Query:
    q = _Query()
    opts = parse_opts(inv.args, short_values="eDhPuS", long_values=frozenset({
        "--execute", "--database", "--host", "--port", "--user", "--socket"}))
    q.texts = opts.values("-e", "--execute")
    q.hosts = opts.values("-h", "--host") + [w.text for w in opts.operands]
    return q


_SQLITE_VALUE_OPTS: Final = frozenset({"-cmd", "-init", "-separator", "-nullvalue", "-newline", "-vfs", "-maxsize",
                                       "-mmap", "-pagecache", "-lookaside", "-heap", "-c", "-s", "-f"})


def _sqlite(inv: Invocation) -> _Query:
    """``sqlite3 [opts] DB [SQL…]`` (also duckdb): SQL in ``-cmd``/``-c`` and after the database file."""
    q = _Query()
    operands: list[str] = []
    args = inv.args
    i = 0
    while i < len(args):
        t = args[i].text
        if t.startswith("-") and len(t) > 1:
            if t in _SQLITE_VALUE_OPTS and i + 1 < len(args):
                if t in ("-cmd", "-c", "-s"):
                    q.texts.append(args[i + 1].text)
                elif t in ("-init", "-f"):
                    q.files.append(args[i + 1].text)
                i += 1
        else:
            operands.append(t)
        i += 1
    q.texts.extend(operands[1:])
    return q


def _clickhouse(inv: Invocation) -> _Query:
    q = _Query()
    args = inv.args[1:] if inv.program == "clickhouse" and inv.args and inv.args[0].text == "client" else inv.args
    opts = parse_opts(args, short_values="qhdu", long_values=frozenset({"--query", "--host", "--database", "--user",
                                                                       "--port", "--password", "--queries-file"}))
    q.texts = opts.values("-q", "--query")
    q.files = opts.values("--queries-file")
    q.hosts = opts.values("-h", "--host")
    return q


def _cockroach(inv: Invocation) -> _Query:
    q = _Query()
    if not inv.args or inv.args[0].text != "sql":
        return q
    opts = parse_opts(inv.args[1:], short_values="ef", long_values=frozenset({"--execute", "--url", "--host",
                                                                              "--database", "--file"}))
    q.texts = opts.values("-e", "--execute")
    q.files = opts.values("-f", "--file")
    q.hosts = opts.values("--url", "--host")
    return q


def _sqlcmd(inv: Invocation) -> _Query:
    q = _Query()
    opts = parse_opts(inv.args, short_values="QqSdUPi")
    q.texts = opts.values("-Q", "-q")
    q.files = opts.values("-i")
    q.hosts = opts.values("-S")
    return q


def _cqlsh(inv: Invocation) -> _Query:
    """Cassandra's ``cqlsh [HOST [PORT]] -e STATEMENT`` / ``-f FILE``: CQL is judged as SQL (DROP KEYSPACE …)."""
    q = _Query()
    opts = parse_opts(inv.args, short_values="eufkpb", long_values=frozenset({
        "--execute", "--file", "--keyspace", "--username", "--password", "--cqlshrc", "--cqlversion",
        "--request-timeout", "--connect-timeout", "--encoding", "--credentials"}))
    q.texts = opts.values("-e", "--execute")
    q.files = opts.values("-f", "--file")
    q.hosts = [w.text for w in opts.operands[:1]]
    return q


def _prisma(inv: Invocation) -> _Query:
    """``prisma db execute --url URL (--stdin | --file F)``: the statements go to the database URL names."""
    q = _Query()
    texts = [w.text for w in inv.args]
    q.files = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t == "--file"]
    q.hosts = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t == "--url"]
    q.unknown = "--stdin" not in texts and not q.files
    return q


_CLIENTS: Final = {
    "prisma": _prisma, "psql": _psql, "mysql": _mysql, "mariadb": _mysql, "sqlite3": _sqlite, "sqlite": _sqlite,
    "duckdb": _sqlite,
    "clickhouse-client": _clickhouse, "clickhouse": _clickhouse, "cockroach": _cockroach, "sqlcmd": _sqlcmd,
    "cqlsh": _cqlsh,
}
_HASH_COMMENTS: Final = frozenset({"mysql", "mariadb", "clickhouse-client", "clickhouse"})


def _report(inv: Invocation, found: list[tuple[Verdict, str]], mutating: bool, unknown: bool,
            hosts: list[str], out: Out) -> None:
    seen = set()
    for sev, what in found:
        if what not in seen:
            seen.add(what)
            add(out, "sql.destructive", inv, f"{inv.program} runs {what}", sev)
    prod = next((h for h in hosts if is_prod(h)), None)
    if prod is None:
        return
    if mutating:
        add(out, "prod.target", inv, f"{inv.program} changes data on the production database {prod}")
    elif unknown:
        add(out, "prod.target", inv, f"{inv.program} runs statements the gate cannot see on production ({prod})",
            Verdict.ASK)


_GENERATED: Final = re.compile(r"""(?i)\bselect\b.*?'\s*(drop\s+(?:table|database|schema|keyspace)|truncate|"""
                               r"""delete\s+from)\b""", re.S)


_PRINTED_DDL: Final = re.compile(r"""(?i)(?:print|printf)\b[^;}]*?["']\s*(drop\s+(?:table|database|schema|keyspace)|"""
                                 r"""truncate|delete\s+from)\b""")
_TEXT_MAKERS: Final = frozenset({"awk", "gawk", "mawk", "perl", "sed", "python3", "python", "ruby", "jq"})


def generated_ddl(sql: str) -> str | None:
    """The destructive statement a query builds as text (``SELECT CONCAT('TRUNCATE TABLE ', t) …``), if any."""
    m = _GENERATED.search(sql)
    return " ".join(m.group(1).upper().split()) if m else None


def detect_sql_client(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    if inv.program == "prisma" and [w.text for w in inv.args[:2]] != ["db", "execute"]:
        return
    q = _CLIENTS[inv.program](inv)
    for up in inv.upstream:  # `mysql -N -e "SELECT CONCAT('TRUNCATE TABLE ', …)" | mysql`: one builds, one runs
        made = next((g for t in _CLIENTS[up.program](up).texts if (g := generated_ddl(t))), None) if (
            up.program in _CLIENTS) else next((" ".join(hit.group(1).upper().split()) for w in up.args if (
                hit := _PRINTED_DDL.search(w.text))), None) if up.program in _TEXT_MAKERS else None
        if made is not None:
            add(out, "sql.destructive", inv, f"{inv.program} runs the {made} statements {up.program} generates")
            return
    piped, piped_unknown = piped_text(inv)
    texts = q.texts + piped
    for name in q.files:  # `psql -f <(echo 'DROP TABLE t')`, `psql -f migrate.sql`: what the file holds
        text = given_text(name, env)
        if text is None:
            q.unknown = True
        else:
            texts.append(text)
    hash_comments = inv.program in _HASH_COMMENTS
    found: list[tuple[Verdict, str]] = []
    mutating = False
    for text in texts:
        f, m = judge_sql(text, hash_comments)
        found.extend(f)
        mutating |= m
    unknown = q.unknown or piped_unknown or not texts
    _report(inv, found, mutating, unknown, q.hosts, out)


def detect_mongo(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    opts = parse_opts(inv.args, long_values=frozenset({"--eval", "--host", "--port", "--username", "--password",
                                                       "--authenticationDatabase", "--file"}))
    codes = opts.values("--eval") + piped_text(inv)[0]
    found: list[tuple[Verdict, str]] = []
    mutating = False
    for code in codes:
        f, m = judge_mongo(code)
        found.extend(f)
        mutating |= m
    hosts = opts.values("--host") + [w.text for w in opts.operands]
    _report(inv, found, mutating, not codes, hosts, out)


def detect_redis(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    opts = parse_opts(inv.args, short_values="hpsaunrid",
                      long_values=frozenset({"--user", "--pass", "--tls", "--cacert", "--cert", "--key"}))
    words = [w.text for w in opts.operands]
    found, mutating = judge_redis(words)
    for text in piped_text(inv)[0]:
        for line in text.splitlines():
            f, m = judge_redis(line.split())
            found.extend(f)
            mutating |= m
    if "--eval" in words[:1] or any(w.text == "--eval" for w in inv.args):  # a Lua script: its redis.call(…)s
        texts = [w.text for w in inv.args]
        script = texts[texts.index("--eval") + 1] if texts.index("--eval") + 1 < len(texts) else ""
        lua = given_text(script, env)
        for name in _LUA_CALL.findall(lua or ""):
            f, m = judge_redis([name])
            found.extend(f)
            mutating |= m
    keyspace = _listed_keys(inv) if words and words[0].upper() in ("DEL", "UNLINK") else None
    if keyspace is not None:
        found.append((Verdict.DENY if keyspace == "*" else Verdict.ASK,
                      f"{words[0].upper()} on every key {'' if keyspace == '*' else f'matching {keyspace} '}"
                      "that redis-cli lists"))
    hosts = opts.values("-h", "-u")
    _report(inv, found, mutating, not words, hosts, out)


_LUA_CALL: Final = re.compile(r"""redis\.p?call\s*\(\s*['"]([A-Za-z]+)['"]""")
_RAW_PORTS: Final = {"6379": "redis", "11211": "memcached"}


def detect_raw_protocol(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``printf '*1\\r\\n$8\\r\\nFLUSHALL\\r\\n' | nc cache 6379``: a data store's own protocol typed
    through a raw socket is judged as its client would be (Redis's RESP or inline commands, memcached's
    ``flush_all``)."""
    texts = [w.text.rsplit(":", 1)[-1] for w in inv.args if not w.text.startswith("-")]
    service = next((_RAW_PORTS[t] for t in texts if t in _RAW_PORTS), None)
    if service is None:
        return
    found: list[tuple[Verdict, str]] = []
    mutating = False
    for text in piped_text(inv)[0]:
        lines = [line.strip() for line in text.replace("\\r\\n", "\n").replace("\r", "").splitlines()]
        if service == "memcached":
            if any(line.split()[:1] == ["flush_all"] for line in lines if line):
                found.append((Verdict.DENY, "flush_all"))
            continue
        words = [line for line in lines if line and line[0] not in "*$"]  # RESP: the bulk strings, in order
        inline = [line.split() for line in lines if line and line[0] not in "*$"]
        for command in ([words] if any(line.startswith("*") for line in lines) else inline):
            f, m = judge_redis(command)
            found.extend(f)
            mutating |= m
    hosts = [w.text for w in inv.args if not w.text.startswith("-")][:1]
    _report(inv, found, mutating, False, hosts, out)


def _listed_keys(inv: Invocation) -> str | None:
    """``redis-cli --scan | xargs redis-cli del``: the pattern of the key listing fed to the deletion
    (``*`` for all keys), or None when its keys come from elsewhere."""
    if not any(v.startswith("xargs") for v in inv.via):
        return None
    for up in inv.upstream:
        if up.program != "redis-cli":
            continue
        texts = [w.text for w in up.args]
        upper = [t.upper() for t in texts]
        if "--scan" in texts:
            return texts[texts.index("--pattern") + 1] if "--pattern" in texts[:-1] else "*"
        if "KEYS" in upper and upper.index("KEYS") + 1 < len(texts):
            return texts[upper.index("KEYS") + 1]
    return None


def _whole(key: str) -> bool:
    return key in ("", "/", "\x00")


def detect_etcdctl(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``etcdctl del "" --prefix``, ``etcdctl del --from-key ""``: every key of the cluster (deny); a prefix
    or a range asks."""
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    texts = [w.text for w in inv.args]
    if words[:1] != ["del"]:
        return
    key = words[1] if len(words) > 1 else ""
    flags = {t.split("=", 1)[0] for t in texts if t.split("=", 1)[-1] not in ("false", "0")}  # `--from-key=true`
    if flags & {"--prefix", "--from-key"}:
        how = "--prefix" if "--prefix" in flags else "--from-key"
        if _whole(key):
            add(out, "sql.destructive", inv, f"etcdctl del {how} {key!r} deletes every key of the cluster")
        else:
            add(out, "sql.destructive", inv, f"etcdctl del {how} {key} deletes every key under {key}", Verdict.ASK)
    elif len(words) > 2:
        add(out, "sql.destructive", inv, f"etcdctl del deletes the key range {key} to {words[2]}", Verdict.ASK)


def detect_consul(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    """``consul kv delete -recurse [PREFIX]``: every key (no prefix: deny) or a tree of keys (ask)."""
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if words[:2] != ["kv", "delete"] or not any(w.text in ("-recurse", "--recurse") for w in inv.args):
        return
    prefix = words[2] if len(words) > 2 else ""
    if _whole(prefix):
        add(out, "sql.destructive", inv, "consul kv delete -recurse without a prefix deletes every key")
    else:  # a tree of keys: asks, but not on a production cluster (`-http-addr=https://consul.prod.internal`)
        prod = next((w.text for w in inv.args if is_prod(w.text)), None)
        add(out, "sql.destructive", inv, f"consul kv delete -recurse deletes every key under {prefix}"
            + (f" on production ({prod})" if prod else ""), None if prod else Verdict.ASK)


def detect_dropdb(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    if any(w.text in ("--help", "-?", "--version", "-V") for w in inv.args):
        return
    names = [w.text for w in inv.args if not w.text.startswith("-")]
    add(out, "sql.destructive", inv, f"dropdb drops the database {names[-1] if names else ''}".strip())


def detect_mysqladmin(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    words = [w.text for w in inv.args if not w.text.startswith("-")]
    if "drop" in words:
        add(out, "sql.destructive", inv, "mysqladmin drop drops a database")

