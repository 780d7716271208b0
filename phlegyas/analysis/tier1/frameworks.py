"""Destruction by verb in application frameworks and hosting CLIs: the commands that drop, wipe or reset a
database, or destroy a hosted app with its data, whatever the database or app is called.

A framework's own command does what ``DROP DATABASE`` does (``rails db:drop``, ``php artisan db:wipe``,
``python manage.py flush``, ``prisma migrate reset``), and a hosting CLI's destroy deletes the app's
data with it (``heroku pg:reset``, ``fly apps destroy``). They are ``sql.destructive`` (deny), as the
statement they stand for is, or ``data.cloud_delete`` for a hosting CLI; commands that only create,
migrate forward or print SQL are left alone (a deploy or a removal of deployments is not data).
The table is data: ``(program, the words that name the operation) → what it destroys``; a ``*`` word
matches anything there (``heroku pg:reset DATABASE``).
"""
from __future__ import annotations

import posixpath
from typing import Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import Out, add
from phlegyas.core.analysis import AnalysisEnv

_RESETS: Final[dict[str, tuple[tuple[tuple[str, ...], str], ...]]] = {
    "manage.py": ((("flush",), "deletes every row of every table"), (("reset_db",), "drops and recreates the database"),
                  (("sqlflush",), ""), (("reset_schema",), "drops the database schema")),
    "django-admin": ((("flush",), "deletes every row of every table"),),
    "rails": tuple(((v,), "drops or reloads the database") for v in (
        "db:drop", "db:drop:all", "db:reset", "db:purge", "db:purge:all", "db:schema:load", "db:migrate:reset",
        "db:truncate_all", "db:structure:load")),
    "artisan": tuple(((v,), "drops every table") for v in (
        "migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe")),
    "prisma": ((("migrate", "reset"), "drops the database and applies every migration again"),),
    "alembic": ((("downgrade", "base"), "reverts every migration (dropping what they created)"),),
    "knex": ((("migrate:rollback", "--all"), "reverts every migration"),),
    "sequelize": ((("db:drop",), "drops the database"), (("db:migrate:undo:all",), "reverts every migration")),
    "typeorm": ((("schema:drop",), "drops every table"),),
    "supabase": ((("db", "reset"), "drops and recreates the database"),),
    "pg_dropcluster": (((), "deletes a PostgreSQL cluster and its data"),),
    "heroku": ((("pg:reset",), "deletes every table of the app's database"),
               (("apps:destroy",), "destroys the app and its add-ons' data"),
               (("addons:destroy",), "destroys an add-on and its data")),
    "fly": ((("apps", "destroy"), "destroys the app, its volumes included"), (("volumes", "destroy"), "destroys a volume"),
            (("postgres", "detach"), "")),
    "firebase": ((("firestore:delete",), "deletes Firestore documents"), (("database:remove",), "deletes data")),
}
_HOSTED: Final = frozenset({"heroku", "fly", "firebase", "supabase"})
"""Hosting CLIs: what they destroy is managed data (``data.cloud_delete``), not a statement."""
_ALIASES: Final = {"flyctl": "fly", "rake": "rails"}
_FORCE_RESET: Final = ("prisma", ("db", "push"), "--force-reset")


def _operation(inv: Invocation) -> tuple[str, list[str]] | None:
    """(the table's program, the words after it) of ``inv``, or None."""
    prog = inv.program
    words = [w.text for w in inv.args]
    if prog.startswith("python") or prog in ("php",):
        script = next((w for w in words if not w.startswith("-")), "")
        name = posixpath.basename(script)
        if name in ("manage.py", "artisan"):
            return name, words[words.index(script) + 1:]
        return None
    prog = _ALIASES.get(prog, prog)
    return (prog, words) if prog in _RESETS or prog == "prisma" else None


_VALUED: Final = frozenset({"-x", "-c", "--config", "-n", "--name", "--schema", "--settings", "--database", "-e"})
"""Options whose value is the next word (``alembic -x dburl=… downgrade base``): no part of the operation."""


def _matches(pattern: tuple[str, ...], words: list[str]) -> bool:
    plain = [w for i, w in enumerate(words) if (not w.startswith("-") or w in pattern)
             and not (i and words[i - 1] in _VALUED and w not in pattern)]
    return len(plain) >= len(pattern) and all(p in ("*", w) for p, w in zip(pattern, plain))


def detect_framework_reset(inv: Invocation, env: AnalysisEnv, out: Out) -> None:
    found = _operation(inv)
    if found is None:
        return
    prog, words = found
    if prog == _FORCE_RESET[0] and _matches(_FORCE_RESET[1], words) and _FORCE_RESET[2] in words:
        add(out, "sql.destructive", inv, "prisma db push --force-reset drops every table before pushing the schema")
        return
    for pattern, what in _RESETS.get(prog, ()):
        if what and _matches(pattern, words):
            klass = "data.cloud_delete" if prog in _HOSTED and pattern != ("db", "reset") else "sql.destructive"
            add(out, klass, inv, f"{prog} {' '.join(pattern)} {what}".replace("  ", " "))
            return


PROGRAMS: Final = tuple(sorted({*_RESETS, *_ALIASES, "php"} - {"manage.py", "artisan"}))
"""The program names ``detect_framework_reset`` is registered for (and every ``python*``)."""
