"""``python -m bot backup``: a copy of the database, safe while the bot runs.

SQLite: SQLite's online backup API copies the file page by page into a new file (readers and
the bot's writes go on meanwhile), which is then checked (``PRAGMA integrity_check``) and made a
single self-contained file. PostgreSQL: ``pg_dump --format=custom`` (a consistent snapshot while
the bots run), with the password passed in the environment, never on its command line. The
backup is written beside its final name and renamed only when complete, so a backup file is
never half written. docs/hosting.md ("Backups and restore") has the restore recipe, which
tests/bot/test_backup.py follows.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from bot.settings import Settings, is_postgres, mask

DESCRIPTION = (
    "Save a copy of the database, safe while the bot runs: SQLite's online backup of TILEHOST_DB (checked "
    "with PRAGMA integrity_check), or pg_dump --format=custom for PostgreSQL (pg_dump must be installed, "
    "of the server's major version or newer). docs/hosting.md says how to restore. Exit 0: saved; 2: "
    "refused (no such database, the file exists, pg_dump missing); 3: the copy failed."
)
BACKUP_FOLDER = "backups"
LIBPQ_PARAMETERS = frozenset(
    {
        "host", "hostaddr", "port", "dbname", "user", "passfile", "connect_timeout", "client_encoding",
        "options", "application_name", "fallback_application_name", "keepalives", "keepalives_idle",
        "keepalives_interval", "keepalives_count", "tcp_user_timeout", "sslmode", "sslcompression",
        "sslcert", "sslkey", "sslpassword", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
        "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "gssencmode",
        "krbsrvname", "gsslib", "service", "target_session_attrs", "load_balance_hosts",
    }
)  # fmt: skip
"""What libpq (pg_dump) accepts in a URL's query; the bot's driver takes any other parameter as a
server setting (``?synchronous_commit=off``), which pg_dump gets as ``options=-c name=value``."""


class BackupRefused(Exception):
    """Nothing was written; the message says why and what to do."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``backup`` options."""
    parser.add_argument(
        "--database",
        help="the database to back up: a SQLite file or a postgresql:// URL (default: TILEHOST_DB)",
    )
    parser.add_argument(
        "--to",
        dest="target",
        help=f"the backup file (default: {BACKUP_FOLDER}/tilehost-YYYYmmdd-HHMMSS.db; .dump for PostgreSQL)",
    )


def run(options: argparse.Namespace, settings: Settings) -> int:
    """The ``backup`` command; its exit code."""
    database = options.database or settings.db_path
    target = Path(options.target or default_target(database))
    try:
        said = (
            backup_postgres(database, target)
            if is_postgres(database)
            else backup_sqlite(Path(database), target)
        )
    except BackupRefused as error:
        print(f"backup: {error}", file=sys.stderr)
        return 2
    except (OSError, sqlite3.Error, subprocess.SubprocessError) as error:
        print(f"backup: the copy failed ({mask(str(error))}); nothing was saved.", file=sys.stderr)
        return 3
    print(said)
    return 0


def default_target(database: str) -> str:
    """``backups/tilehost-<date>-<time>.db`` (``.dump`` for PostgreSQL)."""
    suffix = ".dump" if is_postgres(database) else ".db"
    return f"{BACKUP_FOLDER}/tilehost-{time.strftime('%Y%m%d-%H%M%S')}{suffix}"


def _prepare(target: Path) -> Path:
    """The partial file to write first; refuses to overwrite a backup."""
    if target.exists():
        raise BackupRefused(f"{target} already exists; name another file with --to.")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    return partial


def backup_sqlite(database: Path, target: Path) -> str:
    """Copy a SQLite database with the online backup API; one line saying what was saved."""
    if not database.is_file():
        raise BackupRefused(f"there is no database at {database} (check TILEHOST_DB, or --database).")
    partial = _prepare(target)
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
            check = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise BackupRefused(f"the copy fails its integrity check ({check}); nothing was saved.")
            games = _count(copy, "games")
        finally:
            copy.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    partial.rename(target)
    size = target.stat().st_size / 1e6
    return f"backed up {database} to {target}: {games} games, {size:.1f} MB, integrity ok"


def _count(connection: sqlite3.Connection, table: str) -> int:
    try:
        return int(connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.OperationalError:  # no such table: a database the bot never started on
        return 0


def libpq_url(url: str) -> tuple[str, str | None, str | None]:
    """``(url for pg_dump without its password, the password, the schema)``: the driver's own
    query parameters become ``options=-c name=value``; ``search_path`` names the schema."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    password = unquote(parts.password) if parts.password else None
    kept, settings, schema = [], [], None
    for name, value in query:
        if name == "password":
            password = value
        elif name in LIBPQ_PARAMETERS:
            kept.append((name, value))
        else:
            settings.append(f"-c {name}={value}")
            if name == "search_path":
                schema = value.split(",")[0].strip()
    if settings:
        kept.append(("options", " ".join(settings)))
    netloc = parts.hostname or ""
    if ":" in netloc:  # an IPv6 address
        netloc = f"[{netloc}]"
    if parts.port:
        netloc = f"{netloc}:{parts.port}"
    if parts.username:
        netloc = f"{quote(unquote(parts.username), safe='')}@{netloc}"
    return (
        urlunsplit((parts.scheme, netloc, parts.path, urlencode(kept, quote_via=quote), "")),
        password,
        schema,
    )


def backup_postgres(url: str, target: Path) -> str:
    """Dump a PostgreSQL database with ``pg_dump --format=custom``; one line saying what was saved."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupRefused(
            "pg_dump is not installed here. Install PostgreSQL's client tools, of the server's major version "
            "or newer (Debian/Ubuntu: apt install postgresql-client; macOS: brew install libpq), or run "
            "pg_dump where the server runs (with the compose file: docker compose exec db pg_dump ...; see "
            "docs/hosting.md, Backups and restore)."
        )
    address, password, schema = libpq_url(url)
    partial = _prepare(target)
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = password
    command = [pg_dump, "--format=custom", "--no-owner", f"--file={partial}", f"--dbname={address}"]
    if schema:
        command.append(f"--schema={schema}")
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600, check=False)
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        said = mask(" ".join(done.stderr.split()))[:500]
        hint = (
            " (pg_dump must be of the server's major version or newer)" if "version mismatch" in said else ""
        )
        raise BackupRefused(f"pg_dump failed: {said}{hint}; nothing was saved.")
    partial.rename(target)
    size = target.stat().st_size / 1e6
    return f"backed up {mask(url)} to {target} with pg_dump: {size:.1f} MB (restore: docs/hosting.md)"
