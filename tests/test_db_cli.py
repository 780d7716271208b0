"""``phlegyas db upgrade / status / prune / flush``, ``phlegyas doctor``'s shared-database line and
``phlegyas stats`` of the fleet, as real processes against the suite's PostgreSQL server."""
from __future__ import annotations

import json

import psycopg

from phlegyas.store import pg_schema


def test_without_a_database_the_db_commands_say_how_to_configure_one(run_cli):
    for action in ("upgrade", "status", "flush"):
        done = run_cli("db", action)
        assert done.returncode == 3 and "PHLEGYAS_DATABASE_URL" in done.stderr, (action, done.stderr)


def test_upgrade_then_status_on_a_new_database(run_cli, fresh_database):
    env = {"PHLEGYAS_DATABASE_URL": fresh_database}
    before = run_cli("db", "status", env_extra=env)
    assert before.returncode == 0 and "schema        version 0 (this phlegyas needs" in before.stdout
    pending = run_cli("pending", env_extra=env)
    assert pending.returncode == 3 and "phlegyas db upgrade" in pending.stderr  # not usable until upgraded
    upgraded = run_cli("db", "upgrade", env_extra=env)
    assert upgraded.returncode == 0, upgraded.stderr
    assert f"schema version 0 → {pg_schema.SCHEMA_VERSION}" in upgraded.stdout and "applied 1:" in upgraded.stdout
    again = run_cli("db", "upgrade", env_extra=env)
    assert again.returncode == 0 and "up to date" in again.stdout
    status = json.loads(run_cli("db", "status", "--json", env_extra=env).stdout)
    assert status["schema_version"] == pg_schema.SCHEMA_VERSION and status["rows"]["phlegyas_requests"] == 0
    assert run_cli("pending", env_extra=env).stdout == "No pending approval requests.\n"


def test_the_password_never_reaches_the_output(run_cli):
    env = {"PHLEGYAS_DATABASE_URL": "postgresql://fleet:hunter2-s3cret@127.0.0.1:1/phlegyas?connect_timeout=2"}
    for args in (("db", "status"), ("db", "upgrade"), ("pending",), ("doctor",)):
        done = run_cli(*args, env_extra=env)
        assert "hunter2" not in done.stdout + done.stderr, args
        assert "127.0.0.1:1" in done.stdout + done.stderr, args


def test_flush_sends_this_machines_rows_and_status_counts_what_waits(run_cli, postgres_url):
    env = {"PHLEGYAS_DATABASE_URL": postgres_url, "PHLEGYAS_MACHINE": "laptop-7"}
    for command in ("ls", "git status", "rm -rf /"):
        run_cli("check", "--", command, env_extra={"PHLEGYAS_MACHINE": "laptop-7"})  # logged locally only
    status = run_cli("db", "status", env_extra=env)
    assert "laptop-7: 3 audit rows not sent yet" in status.stdout, status.stdout
    doctor = run_cli("doctor", env_extra=env)
    assert "3 audit rows of this machine (laptop-7) not sent yet" in doctor.stdout, doctor.stdout
    flushed = run_cli("db", "flush", env_extra=env)
    assert flushed.returncode == 0 and flushed.stdout.startswith("sent 3 audit rows"), flushed.stdout
    assert "0 audit rows not sent yet" in run_cli("db", "status", env_extra=env).stdout
    stats = json.loads(run_cli("stats", "--json", env_extra=env).stdout)
    assert stats["total"] == 3 and stats["by_machine"] == {"laptop-7": 3} and stats["denied"] == 1
    local = json.loads(run_cli("stats", "--json", "--local", env_extra=env).stdout)
    assert local["total"] == 3 and "by_machine" not in local


def test_prune_reports_what_it_deleted_and_refuses_a_bad_age(run_cli, postgres_url):
    env = {"PHLEGYAS_DATABASE_URL": postgres_url}
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("INSERT INTO phlegyas_audit (machine, source, position, at, entry) VALUES "
                     "('m', 's', 0, now() - interval '200 days', '{}'), ('m', 's', 1, now(), '{}')")
    bad = run_cli("db", "prune", "--older-than", "90", env_extra=env)
    assert bad.returncode == 3 and "90d" in bad.stderr
    done = run_cli("db", "prune", "--older-than", "90d", env_extra=env)
    assert done.returncode == 0 and "deleted 1 audit rows" in done.stdout, done.stdout
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT count(*) FROM phlegyas_audit").fetchone()[0] == 1


def test_doctor_names_the_reachable_database_and_its_schema(run_cli, postgres_url):
    done = run_cli("doctor", env_extra={"PHLEGYAS_DATABASE_URL": postgres_url})
    assert f"reachable, schema version {pg_schema.SCHEMA_VERSION}" in done.stdout, done.stdout
    unreachable = run_cli("doctor", env_extra={"PHLEGYAS_DATABASE_URL": "postgresql://x@127.0.0.1:1/p?connect_timeout=2"})
    assert unreachable.returncode == 1 and "unreachable" in unreachable.stdout
