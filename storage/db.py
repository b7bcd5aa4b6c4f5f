"""Engine, sessions and schema migrations for the studio's database (SQLite file or PostgreSQL)."""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, ClassVar, Self

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Engine, create_engine, event, func, inspect, make_url, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_S = 15.0  # a writer waits this long for another writer before "database is locked"
log = logging.getLogger("rps.storage")
_MIGRATION_LOCK = threading.Lock()  # alembic's `context` proxy is process-global, not thread-safe


class DatabaseFileError(RuntimeError):
    """The database file cannot be used as it is; the message names the file and the remedy."""


WRITE_OPTION = "rps_write"  # execution option of the write engine: SQLite begins with BEGIN IMMEDIATE
MIGRATION_LOCK_KEY = 7_270_017  # PostgreSQL advisory lock held while the schema is checked and upgraded


def is_url(target: str | Path) -> bool:
    return "://" in str(target)


def database_url(target: str | Path) -> str:
    """A SQLAlchemy URL for a SQLite file path or a URL; `postgresql://` uses psycopg 3."""
    text = str(target)
    if not is_url(text):
        return f"sqlite:///{Path(text).expanduser()}"
    for prefix in ("postgresql://", "postgres://"):
        if text.startswith(prefix):
            return "postgresql+psycopg://" + text[len(prefix) :]
    return text


def display_name(target: str | Path) -> str:
    """The database as messages name it: a file path, or a URL without its password."""
    if not is_url(target):
        return str(Path(str(target)).expanduser())
    return make_url(database_url(target)).render_as_string(hide_password=True)


def make_engine(target: str | Path) -> Engine:
    """The one engine factory: a SQLite file path (its folder is created) or a SQLAlchemy URL.

    SQLite runs in WAL mode with a busy timeout and foreign keys: readers never block a writer and
    a writer never blocks readers. Its transactions are begun by us, not by the driver, so that a
    write transaction (`write_engine`) starts with BEGIN IMMEDIATE: it takes the write lock before
    its first read, and a version read inside it is still current when the write lands.
    """
    url = make_url(database_url(target))
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    if url.database and url.database != ":memory:":
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})
    event.listen(engine, "connect", _configure_connection)
    event.listen(engine, "begin", _begin_sqlite)
    return engine


def write_engine(engine: Engine) -> Engine:
    """`engine` whose transactions take the write lock at once (SQLite: BEGIN IMMEDIATE)."""
    return engine.execution_options(**{WRITE_OPTION: True})


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def _configure_connection(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # the "begin" listener issues BEGIN itself
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
    if cursor.execute("PRAGMA journal_mode").fetchone()[0].lower() != "memory":
        _switch_to_wal(cursor)
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable on commit except on power loss
    cursor.close()


def _switch_to_wal(cursor: Any) -> None:
    """PRAGMA journal_mode=WAL, waiting for a lock as long as any statement would: the switch needs the
    file to itself, and SQLite answers "database is locked" at once, without its busy handler, while
    another process creates or switches the same new file."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _begin_sqlite(connection: Any) -> None:
    immediate = connection.get_execution_options().get(WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


def write_session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions for write transactions: on SQLite each begins with BEGIN IMMEDIATE."""
    return sessionmaker(bind=write_engine(engine), expire_on_commit=False)


def lock_key(session: Session, key: str) -> None:
    """Serialise the writers of one logical key until the transaction ends. SQLite's BEGIN IMMEDIATE
    already holds the database's write lock; PostgreSQL takes a transaction-scoped advisory lock,
    so two first writes of one key queue instead of one failing on a unique constraint."""
    if session.get_bind().dialect.name == "postgresql":
        number = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big", signed=True)
        session.execute(select(func.pg_advisory_xact_lock(number)))


def insert_ignoring_duplicates(session: Session, table: Any, values: dict[str, Any]) -> None:
    """INSERT that does nothing where a unique key already holds the row (ON CONFLICT DO NOTHING):
    two first uses of one name at once (a new annotator, a new user) both succeed."""
    dialect = session.get_bind().dialect.name
    dialect_insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
    session.execute(dialect_insert(table).values(**values).on_conflict_do_nothing())


@contextmanager
def transaction(sessions: sessionmaker[Session], error: type[Exception], where: object) -> Iterator[Session]:
    """One committed session; a refused or failed write becomes `error` with a message naming `where`."""
    try:
        with sessions.begin() as session:
            yield session
    except IntegrityError as exc:
        raise error(f"the database refused the change: {exc.orig}") from exc
    except OperationalError as exc:  # locked past the busy timeout, disk full, file removed
        raise error(
            f"the database {where} could not save this: {exc.orig}; nothing was changed, try again"
        ) from exc


class Database:
    """An opened database, its schema at head, with its read and write session factories: how each
    store (`Repository`, `AnnotationStore`) opens one, so engine set-up is written once."""

    error: ClassVar[type[Exception]] = RuntimeError  # what a refused or failed write becomes

    def __init__(self, target: str | Path) -> None:
        self.where = display_name(target)
        self._engine = open_database(target)  # DatabaseFileError explains a database it cannot use
        self._sessions = session_factory(self._engine)
        self._writes = write_session_factory(self._engine)

    @property
    def dialect(self) -> str:
        return self._engine.dialect.name

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _transaction(self) -> AbstractContextManager[Session]:
        return transaction(self._writes, self.error, self.where)


def alembic_config() -> Config:
    """Alembic configured in code (no alembic.ini); migrations run on a connection we pass in."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def upgrade_to_head(engine: Engine) -> None:
    """Apply every pending migration; does nothing when the database is already at head."""
    upgrade_to(engine, "head")


def upgrade_to(engine: Engine, revision: str) -> None:
    """Apply the migrations up to `revision` (tests build old databases with it)."""
    _migrate(engine, command.upgrade, revision)


def downgrade_to(engine: Engine, revision: str) -> None:
    """Undo the migrations after `revision` (for going back to an older release)."""
    _migrate(engine, command.downgrade, revision)


def _migrate(engine: Engine, step: Any, revision: str) -> None:
    """Run an alembic command on `engine` under a lock that other processes respect too.

    SQLite: the migration is one BEGIN IMMEDIATE transaction (the database's write lock), so a
    second process opening a new database waits, then finds the schema at head and does nothing.
    PostgreSQL: a transaction-scoped advisory lock does the same; its DDL is transactional too.
    Foreign keys are off on SQLite: it rebuilds a table to alter it, and dropping the old copy with
    foreign keys on would cascade-delete every row referring to it.
    """
    config = alembic_config()
    sqlite = is_sqlite(engine)
    with _MIGRATION_LOCK, write_engine(engine).connect() as connection:
        if sqlite:  # before BEGIN, on the driver's connection: PRAGMA foreign_keys is a no-op in one
            connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                if not sqlite:
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
                config.attributes["connection"] = connection
                step(config, revision)
                if sqlite:
                    problems = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if problems:
                        raise RuntimeError(f"migration left rows with broken references: {problems[:5]}")
        finally:
            if sqlite:
                connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")


def open_database(target: str | Path) -> Engine:
    """An engine on a SQLite path or a database URL with its schema at head, or DatabaseFileError
    saying what is wrong.

    Checked before migrating: a file that is not SQLite, a database written by a newer release
    (an unknown revision) and tables without a migration version are each refused with a remedy.
    Any number of processes may open (and so create or upgrade) the same database at once.
    """
    where = display_name(target)
    if not is_url(target):
        _check_sqlite_header(Path(str(target)).expanduser())
    engine = make_engine(target)
    try:
        revision = _check_revision(engine, where)
        if revision != head_revision():
            log.info("database %s: schema %s -> %s", where, revision or "(new)", head_revision())
            upgrade_to_head(engine)
    except DatabaseFileError:
        engine.dispose()
        raise
    except (DatabaseError, OperationalError, CommandError) as exc:
        engine.dispose()
        raise DatabaseFileError(
            f"database {where} could not be opened or upgraded: {_first_line(exc)}. "
            "Check that the file is readable and writable and not used by an older studio, "
            "or start with --db pointing to another file."
        ) from exc
    return engine


def _check_sqlite_header(path: Path) -> None:
    """Refuse a file that is not a SQLite database, asking SQLite itself.

    Never open() and close() the file here: closing any descriptor of a file drops every POSIX lock
    this process holds on it, SQLite's own included. Another process closing its last connection
    would then take the database as unused and delete the WAL that this process's connections still
    write to: their commits would land in a deleted file, seen by this process only. SQLite shares
    one descriptor per file among the connections of a process, so checking through it is safe.
    """
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        probe = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S)
        try:
            probe.execute("PRAGMA schema_version").fetchone()
        finally:
            probe.close()
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorcode", None) != sqlite3.SQLITE_NOTADB:
            message = (
                f"database {path} cannot be read: {exc}. Check its permissions, "
                "and that no other program holds it locked."
            )
            raise DatabaseFileError(message) from exc
        raise DatabaseFileError(
            f"{path} is not a SQLite database (it starts with {_first_bytes(path)!r}). "
            "Start with --db pointing to a new or existing studio database, or move this file away."
        ) from exc


def _first_bytes(path: Path) -> bytes:
    """The file's first bytes, for the message only: SQLite refused it, so no connection of this
    process holds a lock on it that closing this descriptor could drop."""
    try:
        with path.open("rb") as handle:
            return handle.read(16)
    except OSError:
        return b""


def _check_revision(engine: Engine, path: str) -> str | None:
    """The database's schema revision (None for an empty file); refuses one the studio cannot use."""
    with engine.connect() as connection:
        tables = set(inspect(connection).get_table_names())
        revision = MigrationContext.configure(connection).get_current_revision()
    if revision is None:
        if tables - {"alembic_version"}:
            names = ", ".join(sorted(tables)[:6])
            raise DatabaseFileError(
                f"database {path} has tables ({names}) but no migration version, so the studio cannot "
                "tell which schema they follow. Start with --db pointing to a new file and import your "
                "work as JSON bundles, or move this file away."
            )
        return None
    known = {script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    if revision not in known:
        raise DatabaseFileError(
            f"database {path} was written by a newer release of the studio (schema revision {revision!r}, "
            f"this release knows up to {head_revision()!r}). Upgrade the studio, or start with --db "
            "pointing to another file."
        )
    return revision


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).strip().splitlines()[0]


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
