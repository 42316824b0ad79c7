"""The campaign store: the one object the app talks to for everything kept between sessions.

Each public method is one unit of work (one transaction): a DM command either lands whole or
not at all. Rows are mapped to the frozen values of ``core.roster.entries`` and
``core.fight.log`` here.
"""

from __future__ import annotations

import functools
import random
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import (
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.pool import StaticPool

from core.fight.log import Command, Event
from core.model.values import Kind, Spell, Weapon
from core.roster.checks import check_template
from core.roster.entries import (
    Campaign,
    LevelTextError,
    MonsterTemplate,
    RosterEntry,
    RosterStatus,
    SessionLogEntry,
    level_text,
    parse_levels,
)
from core.roster.merge import ImportChanges
from core.store import health, leases, row_checks
from core.store.errors import (
    AccessDeniedError,
    ConflictError,
    CorruptDatabaseError,
    DatabaseLockedError,
    DatabaseUnavailableError,
    DiskFullError,
    EncounterEndedError,
    EncounterMovedOnError,
    EncounterTakenOverError,
    NameTakenError,
    NotFoundError,
    ReadOnlyDatabaseError,
    StoreError,
    access_denied,
)
from core.store.leases import LEASE_SECONDS, Lease, LeaseHolder
from core.store.opening import (
    APPLICATION_ID,
    HEAD_REVISION,
    Inspection,
    Verdict,
    inspect_connection,
    inspect_sqlite_file,
    sqlite_path,
)
from core.store.schema import (
    Base,
    CampaignRow,
    CharacterRow,
    EncounterEventRow,
    EncounterLeaseRow,
    EncounterRow,
    MonsterTemplateRow,
    SessionLogRow,
    changed_by,
    os_user,
    utc_now,
)

WRITERS = ("owner", "co-dm")
"""Access levels that may change a campaign (a player only reads)."""
_ACCESS = text("SELECT combatdesk_access(:campaign, current_user)")
_BYPASSES_ACCESS = text(
    "SELECT r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, c.relowner, 'USAGE') "
    "FROM pg_roles r, pg_class c WHERE r.rolname = current_user "
    "AND c.oid = 'campaigns'::regclass"
)
"""Is the role exempt from row-level security (a superuser, or the owner of the tables)?"""
UNDO_KIND = "undo"
APPEND_ATTEMPTS = 8
"""How often an append that collided with another writer's is retried with the next number."""
_EVENTS_TABLE = Base.metadata.tables["encounter_events"]
# Built once: building a statement costs more than running it on SQLite.
_LAST_SEQ = select(func.max(_EVENTS_TABLE.c.command_seq)).where(
    _EVENTS_TABLE.c.encounter_id == bindparam("encounter_id")
)
_LOCK_ENCOUNTER = (
    select(EncounterRow.status, EncounterRow.name)
    .where(EncounterRow.id == bindparam("encounter_id"))
    .with_for_update()
)
_INSERT_EVENTS = insert(_EVENTS_TABLE)
_SEQ_OF_COMMAND = select(_EVENTS_TABLE.c.command_seq).where(
    _EVENTS_TABLE.c.encounter_id == bindparam("encounter_id"),
    _EVENTS_TABLE.c.command_id == bindparam("command_id"),
).limit(1)
_LEASE_OF = select(
    EncounterLeaseRow.instance, EncounterLeaseRow.user_name, EncounterLeaseRow.host,
    EncounterLeaseRow.since,
).where(EncounterLeaseRow.encounter_id == bindparam("encounter_id"))
_SQLITE_LEASE_OF = (
    "SELECT instance, user_name, host, since FROM encounter_leases WHERE encounter_id = ?"
)
_SQLITE_STATUS = "SELECT status, name FROM encounters WHERE id = ?"
_SQLITE_LAST_SEQ = "SELECT max(command_seq) FROM encounter_events WHERE encounter_id = ?"
_SQLITE_SEQ_OF_COMMAND = (
    "SELECT command_seq FROM encounter_events WHERE encounter_id = ? AND command_id = ? LIMIT 1"
)
_SQLITE_INSERT_EVENT = (
    "INSERT INTO encounter_events (encounter_id, command_seq, event_index, command_name, kind, "
    "payload, created_at, command_id, changed_by, changed_at, row_check) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_EVENT_CHECKS = row_checks.checks_for(_EVENTS_TABLE)
"""The SQLite append computes each event's check from the values it binds, in the order of
``row_checks.CHECKED["encounter_events"]`` (a test holds the two together)."""
_MOVED_ON = (
    "Another Combat Desk window changed this encounter since yours last saw it, so nothing "
    "was saved (your command would not follow theirs, and an undo would take back their work). "
    "Reload it (Encounter › Reload Encounter, F5) to see what they did, then carry on."
)


def _same(value: Any) -> Any:
    return value


def default_database_url() -> str:
    """Gets the URL of the DM's own campaign file in the platform's user data folder."""
    from platformdirs import user_data_dir  # only the default path needs it

    folder = Path(user_data_dir("CombatDesk", appauthor=False))
    return f"sqlite:///{folder / 'campaigns.sqlite'}"


@dataclass(frozen=True, slots=True)
class StoredCommand:
    """One numbered entry of an encounter's stored log: a command, or an undo of one."""

    seq: int
    command: Command | None
    """None for an undo."""
    undoes: int = 0
    """For an undo: the number of the command it took back."""


@dataclass(frozen=True, slots=True)
class EncounterInfo:
    """An encounter's header (its commands come from :meth:`Store.load_commands`)."""

    id: int
    campaign_id: int
    name: str
    system: str
    options: Mapping[str, Any]
    status: str

    @property
    def ended(self) -> bool:
        """Tells whether the encounter has ended (it can be read, not played on)."""
        return self.status == ENDED

    @property
    def results_baseline(self) -> Mapping[str, Any]:
        """Gets what a reopening recorded as already applied, by combatant id (empty if none)."""
        baseline = self.options.get(BASELINE_KEY)
        return baseline if isinstance(baseline, Mapping) else {}


ENDED = "ended"
BASELINE_KEY = "results_baseline"
"""The encounter row's options key holding what a reopened encounter's results start from."""


_GONE_CAMPAIGN = ("That campaign is no longer in the database (deleted from another Combat Desk?); "
                  "nothing was saved.")
_GONE_ENCOUNTER = ("That encounter is no longer in the campaign (deleted from another Combat "
                   "Desk?); nothing was saved.")


def _ended_error(name: str) -> EncounterEndedError:
    return EncounterEndedError(
        f"{name} has ended, so nothing can be changed in it. Reopen it (Encounter › Reopen "
        "Encounter) to play on."
    )


def _refuse_unless_holder(lease: Any, holder: str | None) -> None:
    """Refuses a command from a window whose encounter another Combat Desk has taken over.

    ``lease`` is the (instance, user, host, since) row or None. No lease, or a caller that
    plays without one (``holder`` None: the command line, older callers), is not refused.
    """
    if holder is None or lease is None or lease[0] == holder:
        return
    since = lease[3] if isinstance(lease[3], datetime) else datetime.fromisoformat(lease[3])
    raise EncounterTakenOverError(leases.taken_over_message(lease[1], lease[2], since))


def _info(row: EncounterRow) -> EncounterInfo:
    return EncounterInfo(
        row.id, row.campaign_id, row.name, row.system, dict(row.options), row.status
    )


def _on_sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL: the WAL is synced at every commit, so a saved command survives a power loss
    # (NORMAL may roll the last commands back). Its cost is in bench/bench_store.py.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def _weapons_json(weapons: Sequence[Weapon]) -> list[Any]:
    return [
        {
            "name": w.name,
            "speed_factor": w.speed_factor,
            "length": w.length,
            "missile": w.missile,
            "slow": w.slow,
            "rate_of_fire": w.rate_of_fire,
        }
        for w in weapons
    ]


def _weapons(data: Sequence[Any]) -> tuple[Weapon, ...]:
    return tuple(
        Weapon(
            name=str(w["name"]),
            speed_factor=w.get("speed_factor"),
            length=w.get("length"),
            missile=bool(w.get("missile")),
            slow=bool(w.get("slow")),
            rate_of_fire=w.get("rate_of_fire"),
        )
        for w in data
    )


def _entry(row: CharacterRow) -> RosterEntry:
    return RosterEntry(
        id=row.id,
        name=row.name,
        kind=Kind(row.kind),
        side=row.side,
        status=RosterStatus(row.status),
        level=row.level,
        char_class=row.char_class,
        race=row.race,
        hp=row.hp,
        max_hp=row.max_hp,
        ac=row.ac,
        str_score=row.str_score,
        dex=row.dex,
        wis=row.wis,
        initiative_adj=row.initiative_adj,
        surprise_adj=row.surprise_adj,
        missile_adj=row.missile_adj,
        reaction_adj=row.reaction_adj,
        movement=row.movement,
        morale=row.morale,
        attack_routines=row.attack_routines,
        attacks=row.attacks,
        weapons=_weapons(row.weapons),
        spells=tuple(
            Spell(str(s["name"]), int(s["level"]), int(s["casting_time"])) for s in row.spells
        ),
        # The memorised list keeps spent spells, flagged, so a rest can give them back.
        spent_spells=tuple(i for i, s in enumerate(row.spells) if s.get("spent")),
        notes=row.notes,
        version=row.version,
        class_levels=_class_levels(row.class_levels),
    )


def _class_levels(stored: str | None) -> tuple[int, ...]:
    """Reads the ``class_levels`` column ("2/2"); NULL, or text this version cannot read (a
    hand-edited file), is a single class whose level is the ``level`` column."""
    if not stored:
        return ()
    try:
        return parse_levels(stored)[1]
    except LevelTextError:
        return ()


def _character_values(entry: RosterEntry) -> dict[str, Any]:
    """Gets an entry's column values (without id, campaign and version), for bulk inserts."""
    row = CharacterRow()
    _fill_character(row, entry)
    return {c: getattr(row, c) for c in _CHARACTER_COLUMNS}


_CHARACTER_COLUMNS = (
    "kind", "name", "side", "status", "level", "char_class", "race", "hp", "max_hp", "ac",
    "str_score", "dex", "wis", "initiative_adj", "surprise_adj", "missile_adj", "reaction_adj",
    "movement", "morale", "attack_routines", "attacks", "weapons", "spells", "notes",
    "class_levels",
)  # fmt: skip
_CHARACTERS_TABLE = Base.metadata.tables["characters"]


def _fill_character(row: CharacterRow, entry: RosterEntry) -> None:
    row.kind = str(entry.kind)
    row.name = entry.name
    row.side = entry.side
    row.status = str(entry.status)
    row.level = entry.level
    row.class_levels = level_text(entry) if entry.class_levels else None
    row.char_class = entry.char_class
    row.race = entry.race
    row.hp = entry.hp
    row.max_hp = entry.max_hp
    row.ac = entry.ac
    row.str_score = entry.str_score
    row.dex = entry.dex
    row.wis = entry.wis
    row.initiative_adj = entry.initiative_adj
    row.surprise_adj = entry.surprise_adj
    row.missile_adj = entry.missile_adj
    row.reaction_adj = entry.reaction_adj
    row.movement = entry.movement
    row.morale = entry.morale
    row.attack_routines = entry.attack_routines
    row.attacks = entry.attacks
    row.weapons = _weapons_json(entry.weapons)
    spent = set(entry.spent_spells)
    row.spells = [
        {"name": s.name, "level": s.level, "casting_time": s.casting_time}
        | ({"spent": True} if i in spent else {})
        for i, s in enumerate(entry.spells)
    ]
    row.notes = entry.notes


def _template_extras(stored: Any) -> tuple[list[Any], int | None]:
    """Gets (weapons, xp) from a template's ``weapons`` column.

    Without a schema change, a template's XP rides in that JSON column: a plain list of weapons
    (every template saved before XP existed, and any without XP), or ``{"weapons": [...],
    "xp": N}``.
    """
    if isinstance(stored, dict):
        xp = stored.get("xp")
        return list(stored.get("weapons") or []), None if xp is None else int(xp)
    return list(stored or []), None


def _template_weapons_column(t: MonsterTemplate) -> Any:
    weapons = _weapons_json(t.weapons)
    return weapons if t.xp is None else {"weapons": weapons, "xp": t.xp}


def _template(row: MonsterTemplateRow) -> MonsterTemplate:
    weapons, xp = _template_extras(row.weapons)
    return MonsterTemplate(
        id=row.id,
        name=row.name,
        hit_dice=row.hit_dice,
        ac=row.ac,
        movement=row.movement,
        morale=row.morale,
        attacks=row.attacks,
        surprises_on=row.surprises_on,
        weapons=_weapons(weapons),
        notes=row.notes,
        version=row.version,
        xp=xp,
    )


def _template_row(campaign_id: int, t: MonsterTemplate) -> MonsterTemplateRow:
    row = MonsterTemplateRow(campaign_id=campaign_id)
    _fill_template(row, t)
    return row


def _fill_template(row: MonsterTemplateRow, t: MonsterTemplate) -> None:
    row.name = t.name
    row.hit_dice = t.hit_dice
    row.ac = t.ac
    row.movement = t.movement
    row.morale = t.morale
    row.attacks = t.attacks
    row.surprises_on = t.surprises_on
    row.weapons = _template_weapons_column(t)
    row.notes = t.notes


def _refuse_bad_template(t: MonsterTemplate) -> None:
    """Refuses a template the editor would not save (the editor shows each reason itself)."""
    problems = check_template(t)
    if problems:
        reasons = " ".join(problems.values())
        raise StoreError(f"The {t.name or 'unnamed'} template was not saved: {reasons}")


_TEMPLATES_TABLE = Base.metadata.tables["monster_templates"]
_TEMPLATE_COLUMNS = (
    "name", "hit_dice", "ac", "movement", "morale", "attacks", "surprises_on", "weapons", "notes",
)  # fmt: skip
MAX_LOG_DETAILS = 200
"""A session-log line keeps at most this many detail lines (an import of thousands)."""


def _chunks(ids: Sequence[Any], size: int = 500) -> Iterator[list[Any]]:
    """Splits ids for IN (...) lists short enough for every database."""
    for start in range(0, len(ids), size):
        yield list(ids[start : start + size])


@dataclass(frozen=True, slots=True)
class AppliedImport:
    """An import as written: what :meth:`Store.undo_import` needs to take it back exactly."""

    changes: ImportChanges
    """The records written, with their ids and versions."""
    log_id: int
    """The session-log line the import added."""
    entry_stamps: Mapping[int, datetime]
    """When each updated entry had last been saved before the import (restored on undo)."""


_R = TypeVar("_R")
_P = ParamSpec("_P")


def _reads(method: Callable[Concatenate[Store, _P], _R]) -> Callable[Concatenate[Store, _P], _R]:
    """Reports a stored value that cannot be turned back into a roster value as damage.

    Only reads are wrapped: a bad value on the way in is the caller's bug, not the file's.
    """

    @functools.wraps(method)
    def read(store: Store, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(store, *args, **kwargs)
        except (ValueError, KeyError, TypeError, AttributeError):
            raise CorruptDatabaseError(
                f"{store.label} is damaged: a saved record cannot be read. Restore a backup."
            ) from None

    return read


class Store:
    """A campaign database, opened safely and migrated to the current schema."""

    def __init__(self, engine: Engine, label: str, wait_limit: float = 5.0) -> None:
        self._engine = engine
        self.wait_limit = wait_limit
        """About how many seconds one call waits on a busy or silent database before it gives
        up with a :class:`DatabaseLockedError` or :class:`DatabaseUnavailableError` (for the
        DM's progress message)."""
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        # Every row an ORM flush writes gets its check; Core statements stamp their own rows.
        event.listen(self._sessions, "after_flush", row_checks.after_flush)
        self.label = label
        self._processors: tuple[Callable[[Any], Any], Callable[[Any], Any]] | None = None
        self.damage: tuple[str, ...] = ()
        """Damage found when the campaign opened, in words for the DM (empty: none found)."""
        self.lock_timeout = 5.0
        """Seconds a write (or a backup) waits for another program's lock before giving up."""

    # --- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, url: str | None = None, lock_timeout: float = 5.0) -> Store:
        """Opens (creating or migrating as needed) the campaign database at ``url``.

        Raises a :class:`StoreError` subclass, with a message for the DM, for a file that is not
        a campaign, is damaged, is locked or was written by a newer version; such a file is left
        exactly as it was. ``lock_timeout`` is how long (seconds) a write waits for another
        program's lock on an SQLite file before giving up.
        """
        url = url or default_database_url()
        path = _checked_address(url)
        label = str(path) if path else _safe_label(url)
        intact, sealed, emptied = True, 0, False
        if path is not None:
            emptied = path.is_file() and path.stat().st_size == 0
            sealed, intact = _check_seal(path)
            inspection = inspect_sqlite_file(path, quick_check=not intact)
            if inspection.verdict is Verdict.CREATE:
                intact = True  # nothing in it to check
            elif not intact:  # the thorough structural check; a broken file stays untouched
                health.refuse_if_unreadable(label, health.structural_problems(path))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder for {path}: {exc.strerror}") from None
            engine = create_engine(url, connect_args={"timeout": lock_timeout})
            event.listen(engine, "connect", _on_sqlite_connect)
            wait_limit = lock_timeout
        elif make_url(url).get_backend_name() == "sqlite":
            # An in-memory database (tests): one connection, handed from thread to thread, as
            # the app runs store calls off its window thread (desktop.store_call), one at a
            # time. The default pool would give each thread a database of its own, empty.
            engine = create_engine(url, poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
            with engine.connect() as conn:
                inspection = inspect_connection(conn, label)
            wait_limit = lock_timeout
        else:
            wait_limit = _server_wait_limit(url, lock_timeout)
            try:
                engine = create_engine(url, pool_pre_ping=True,
                                       connect_args=_server_timeouts(url, lock_timeout))
                with engine.connect() as conn:
                    inspection = inspect_connection(conn, label)
            except StoreError:
                raise
            except (SQLAlchemyError, ImportError) as exc:
                reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
                raise StoreError(f"cannot connect to {label}: {reason}") from None
        store = cls(engine, label, wait_limit)
        store.lock_timeout = lock_timeout
        if path is not None and inspection.verdict is not Verdict.CREATE:
            store._unseal()
        store._prepare(inspection, path)
        if not intact:
            problems = health.content_problems(store)
            if path is not None:  # a changed value that still reads well: the row checks
                problems += row_checks.stored_problems(path)
            if problems or sealed:
                store.damage = (health.damage_report(label, bool(sealed), problems),)
        if emptied:
            # SQLite takes an empty file for a new database; but a campaign file cut to nothing
            # (a copy gone wrong) would then show a fresh campaign list without a word.
            store.damage = (
                f"{label} was an empty file (0 bytes), so a new campaign file was started in "
                "it. If it held your campaign, restore it from a backup (File › Restore "
                "backup…): Combat Desk keeps copies beside it (.bak files) before every "
                "upgrade and restore.",)
        return store

    def _unseal(self) -> None:
        """Clears the file's seal before anything is written: the bytes are about to change.

        The pool keeps this connection open, and with it a lock that stops another Combat Desk
        from sealing the file under this one (see :func:`core.store.health.seal`).
        """
        try:
            with self._engine.connect() as conn:
                raw = conn.connection.dbapi_connection
                assert isinstance(raw, sqlite3.Connection)
                if raw.execute("PRAGMA user_version").fetchone()[0]:
                    # No sync of its own: lost in a power cut, the file is still the sealed
                    # one; any later commit syncs the WAL, this frame with it.
                    raw.execute("PRAGMA synchronous=OFF")
                    try:
                        raw.execute("PRAGMA user_version = 0")
                    finally:
                        raw.execute("PRAGMA synchronous=FULL")
        except (DBAPIError, sqlite3.Error) as exc:
            error = _operational(exc, self.label)
            if not isinstance(error, ReadOnlyDatabaseError):  # a read-only file keeps its seal
                raise error from None

    def _prepare(self, inspection: Inspection, path: Path | None) -> None:
        if inspection.verdict is Verdict.CURRENT:
            return
        if inspection.verdict is Verdict.UPGRADE and path is not None:
            from core.store.backups import unused_name

            # The first pre-upgrade copy is the one worth keeping: a later attempt never
            # writes over it.
            self.backup(unused_name(path.with_name(f"{path.name}.before-{HEAD_REVISION}.bak")))
        try:
            from core.store.migrate import upgrade_to_head  # Alembic only when needed

            with self._engine.begin() as conn:
                if conn.dialect.name == "sqlite":
                    # Python's sqlite3 opens a transaction only before INSERT/UPDATE/DELETE, so
                    # each DDL statement would commit on its own and a crash could leave half an
                    # upgrade. One explicit transaction makes the upgrade all or nothing.
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                upgrade_to_head(conn)
                if conn.dialect.name == "sqlite":
                    conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        except DBAPIError as exc:  # OperationalError, and a role without rights on a server
            raise _operational(exc, self.label) from None

    def backup(self, target: Path) -> Path:
        """Writes a consistent copy of an SQLite campaign to ``target`` (SQLite backup API)."""
        from core.store.backups import SERVER_BACKUPS, copy_database

        source_path = sqlite_path(str(self._engine.url))
        if source_path is None:
            raise StoreError(SERVER_BACKUPS)
        return copy_database(source_path, target, self.lock_timeout)

    @property
    def file(self) -> Path | None:
        """Gets the SQLite campaign file (None for a server database)."""
        return sqlite_path(str(self._engine.url))

    @property
    def full_url(self) -> str:
        """Gets the database URL with its password, to open another Store on it."""
        return self._engine.url.render_as_string(hide_password=False)

    def close(self) -> None:
        """Closes every connection (SQLite folds its WAL back into the file).

        The last Combat Desk to close an SQLite campaign seals it (a digest of its bytes), so
        that the next start can tell damage from a clean file by one read. A file found damaged
        is left unsealed: the thorough checks keep naming what they find at every start.
        """
        self._engine.dispose()
        path = self.file
        if path is not None and not self.damage and path.exists():
            health.seal(path)

    @property
    def url(self) -> str:
        """Gets the database URL with any password hidden."""
        return self._engine.url.render_as_string(hide_password=True)

    @contextmanager
    def unit_of_work(self) -> Iterator[Session]:
        """Runs one DM command in one transaction; database failures become StoreErrors."""
        try:
            with self._sessions() as session, session.begin():
                yield session
        except StaleDataError:
            raise ConflictError(
                "Someone else saved this entry since you opened it; nothing was overwritten. "
                "Reload to see their version."
            ) from None
        except IntegrityError:
            raise  # the caller knows which constraint means what
        except OperationalError as exc:
            raise _operational(exc, self.label) from None
        except DBAPIError as exc:
            raise _operational(exc, self.label) from None
        except UnicodeDecodeError:
            raise CorruptDatabaseError(
                f"{self.label} is damaged: some text in it cannot be read. Restore a backup."
            ) from None

    # --- access: PostgreSQL roles and row-level security; an SQLite file is the unit -----------

    def who(self) -> str | None:
        """Gets who this store writes as: the login role on a server, the computer's user on
        SQLite (what the audit column ``changed_by`` records)."""
        if self.file is not None or self._engine.dialect.name == "sqlite":
            return os_user()
        with self.unit_of_work() as s:
            return str(s.execute(text("SELECT session_user")).scalar())

    def access(self, campaign_id: int) -> str | None:
        """Gets what this store's role may do in a campaign: "owner", "co-dm" (write),
        "player" (read) or None (not at all). On SQLite whoever opens the file owns it all.

        A role that owns the tables or bypasses row-level security counts as an owner.
        """
        if self._engine.dialect.name == "sqlite":
            return "owner"
        with self.unit_of_work() as s:
            if s.execute(_BYPASSES_ACCESS).scalar():
                return "owner"
            found = s.execute(_ACCESS, {"campaign": campaign_id}).scalar()
            return None if found is None else str(found)

    def _require_writer(self, s: Session, campaign_ids: Iterable[int], verb: str) -> None:
        """Refuses a delete the role may not make, in words.

        Row-level security would skip such rows without a word (a DELETE has no WITH CHECK), and
        the app would report a conflict or success; inserts and updates raise on their own.
        """
        if self._engine.dialect.name == "sqlite" or s.execute(_BYPASSES_ACCESS).scalar():
            return
        for campaign in set(campaign_ids):
            if s.execute(_ACCESS, {"campaign": campaign}).scalar() not in WRITERS:
                raise AccessDeniedError(
                    f"{self.label}: your database role may read this campaign but not change "
                    f"it (you are a player in it); nothing was {verb}. Its owner can make you "
                    "a co-DM."
                )

    # --- campaigns -----------------------------------------------------------------------------

    @_reads
    def campaigns(self) -> list[Campaign]:
        """Gets every campaign, by name."""
        with self.unit_of_work() as s:
            rows = s.scalars(select(CampaignRow).order_by(CampaignRow.name)).all()
            return [Campaign(r.id, r.name, r.created_at) for r in rows]

    def create_campaign(self, name: str) -> Campaign:
        """Creates an empty campaign; names are unique (ignoring surrounding spaces)."""
        name = name.strip()
        if not name:
            raise StoreError("A campaign needs a name.")
        try:
            with self.unit_of_work() as s:
                row = CampaignRow(name=name, created_at=datetime.now(UTC))
                s.add(row)
                s.flush()
                return Campaign(row.id, row.name, row.created_at)
        except IntegrityError:
            raise self._name_taken(name) from None

    def create_campaign_with(
        self, name: str, roster: Sequence[RosterEntry], templates: Sequence[MonsterTemplate]
    ) -> Campaign:
        """Creates a campaign already holding a roster and templates, all in one transaction."""
        try:
            with self.unit_of_work() as s:
                campaign = CampaignRow(name=name.strip(), created_at=datetime.now(UTC))
                s.add(campaign)
                s.flush()
                for entry in roster:
                    row = CharacterRow(campaign_id=campaign.id)
                    _fill_character(row, entry)
                    s.add(row)
                s.add_all(_template_row(campaign.id, t) for t in templates)
                return Campaign(campaign.id, campaign.name, campaign.created_at)
        except IntegrityError:
            raise self._name_taken(name.strip()) from None

    def _name_taken(self, name: str) -> NameTakenError:
        if self.file is not None:
            return NameTakenError(f"A campaign named {name!r} already exists.")
        return NameTakenError(
            f"A campaign named {name!r} already exists on this database (perhaps one you cannot "
            "see: names are shared by everyone using it). Choose another name."
        )

    # --- roster --------------------------------------------------------------------------------

    @_reads
    def roster(self, campaign_id: int) -> list[RosterEntry]:
        """Gets a campaign's PCs, henchmen and hirelings in the order they were added."""
        with self.unit_of_work() as s:
            rows = s.scalars(
                select(CharacterRow)
                .where(CharacterRow.campaign_id == campaign_id)
                .order_by(CharacterRow.id)
            ).all()
            return [_entry(r) for r in rows]

    def add_entry(self, campaign_id: int, entry: RosterEntry) -> RosterEntry:
        """Adds a roster entry and returns it with its id and version."""
        return self.add_entries(campaign_id, [entry])[0]

    def add_entries(self, campaign_id: int, entries: Sequence[RosterEntry]) -> list[RosterEntry]:
        """Adds several roster entries in one transaction (all or none)."""
        with self.unit_of_work() as s:
            if s.get(CampaignRow, campaign_id) is None:
                raise NotFoundError(_GONE_CAMPAIGN)
            rows = []
            for entry in entries:
                row = CharacterRow(campaign_id=campaign_id)
                _fill_character(row, entry)
                rows.append(row)
            s.add_all(rows)
            s.flush()
            return [_entry(r) for r in rows]

    @_reads
    # --- versioned records (roster entries and monster templates alike) -----------------------

    def _saved_value(self, model: type[Any], to_value: Callable[[Any], Any], record_id: int) -> Any:
        """Gets a record as saved now, as a domain value (None if it is gone)."""
        with self.unit_of_work() as s:
            row = s.get(model, record_id)
            return None if row is None else to_value(row)

    def _with_saved(
        self, exc: ConflictError, model: type[Any], to_value: Callable[[Any], Any],
        record_id: int | None,
    ) -> ConflictError:
        """Adds the saved record to a conflict found by the database (a race past our check)."""
        if exc.saved is not None or record_id is None:
            return exc
        return ConflictError(str(exc), self._saved_value(model, to_value, record_id))

    def _remove_versioned(
        self, model: type[Any], to_value: Callable[[Any], Any], record_id: int,
        version: int | None, missing: str, changed: Callable[[Any], str],
    ) -> None:
        """Deletes a record; with ``version``, only if nobody saved it since then."""
        try:
            with self.unit_of_work() as s:
                row = s.get(model, record_id)
                if row is None:
                    raise NotFoundError(missing)
                if version is not None and row.version != version:
                    raise ConflictError(changed(row), to_value(row))
                self._require_writer(s, [row.campaign_id], "removed")
                s.delete(row)
        except ConflictError as exc:
            raise self._with_saved(exc, model, to_value, record_id) from None

    def entry_by_id(self, entry_id: int) -> RosterEntry | None:
        """Gets one roster entry as saved now (None if it was removed)."""
        entry: RosterEntry | None = self._saved_value(CharacterRow, _entry, entry_id)
        return entry

    def update_entry(self, entry: RosterEntry) -> RosterEntry:
        """Saves an edited entry unless someone saved it since ``entry`` was loaded.

        A :class:`ConflictError` carries the saved version (``saved``) for the DM to compare.
        """
        try:
            with self.unit_of_work() as s:
                row = s.get(CharacterRow, entry.id)
                if row is None:
                    raise NotFoundError(f"{entry.name} is no longer in the roster.")
                if row.version != entry.version:
                    raise ConflictError(
                        f"{entry.name} was changed elsewhere since you opened it (your copy is "
                        f"version {entry.version}, the saved one {row.version}); nothing was "
                        "overwritten.",
                        _entry(row),
                    )
                _fill_character(row, entry)
                s.flush()
                return _entry(row)
        except ConflictError as exc:
            raise self._with_saved(exc, CharacterRow, _entry, entry.id) from None

    def remove_entry(self, entry_id: int, version: int | None = None) -> None:
        """Removes a roster entry; with ``version``, only if nobody saved it since then."""
        self._remove_versioned(
            CharacterRow, _entry, entry_id, version,
            f"Roster entry {entry_id} does not exist.",
            lambda row: f"{row.name} was changed elsewhere since you opened it; it was not "
            "removed.",
        )

    def restore_entry(self, campaign_id: int, entry: RosterEntry) -> RosterEntry:
        """Puts a removed entry back with its old id and version (undoing a removal).

        Keeping id and version lets the undo history that names this entry go on working.
        """
        if entry.id is None:
            raise StoreError(f"{entry.name} was never saved, so it cannot be restored.")
        try:
            with self.unit_of_work() as s:
                values = _character_values(entry)
                # Core insert: the ORM would restart the version counter at 1.
                s.execute(
                    insert(_CHARACTERS_TABLE),
                    [
                        row_checks.stamped(_CHARACTERS_TABLE, {
                            **values,
                            "id": entry.id,
                            "campaign_id": campaign_id,
                            "version": entry.version,
                            "updated_at": utc_now(),
                        })
                    ],
                )  # fmt: skip
                row = s.get(CharacterRow, entry.id)
                assert row is not None
                return _entry(row)
        except IntegrityError:
            raise ConflictError(
                f"{entry.name} cannot be put back: its place was taken or the campaign is gone."
            ) from None

    def import_entries(
        self, campaign_id: int, entries: Sequence[RosterEntry], summary: str = ""
    ) -> int:
        """Adds many entries in one transaction (bulk insert) and logs it; returns the count."""
        now = utc_now()
        rows = [
            row_checks.stamped(_CHARACTERS_TABLE, {
                **_character_values(e), "campaign_id": campaign_id, "version": 1,
                "updated_at": now,
            })
            for e in entries
        ]  # fmt: skip
        with self.unit_of_work() as s:
            if s.get(CampaignRow, campaign_id) is None:
                raise NotFoundError(_GONE_CAMPAIGN)
            if rows:
                s.execute(insert(_CHARACTERS_TABLE), rows)
            s.add(
                SessionLogRow(
                    campaign_id=campaign_id,
                    created_at=now,
                    summary=summary or f"Imported {len(rows)} roster entries",
                    details=[e.name for e in entries[:200]],
                )
            )
        return len(rows)

    def apply_results(
        self, campaign_id: int, entries: Sequence[RosterEntry], summary: str, details: Sequence[str]
    ) -> list[RosterEntry]:
        """Saves entries changed by an encounter and logs what changed, in ONE transaction.

        Every entry is version-checked: if one was changed elsewhere, nothing is saved.
        """
        with self.unit_of_work() as s:
            saved = []
            for entry in entries:
                row = s.get(CharacterRow, entry.id)
                if row is None or row.campaign_id != campaign_id:
                    raise NotFoundError(f"{entry.name} is no longer in the roster.")
                if row.version != entry.version:
                    raise ConflictError(
                        f"{entry.name} was changed elsewhere since the results were prepared; "
                        "nothing was saved. Reload and apply the results again.",
                        _entry(row),
                    )
                _fill_character(row, entry)
                saved.append(row)
            s.add(
                SessionLogRow(
                    campaign_id=campaign_id,
                    created_at=utc_now(),
                    summary=summary,
                    details=list(details),
                )
            )
            s.flush()
            return [_entry(r) for r in saved]

    @_reads
    def session_log(self, campaign_id: int) -> list[SessionLogEntry]:
        """Gets a campaign's session log, newest first."""
        with self.unit_of_work() as s:
            rows = s.scalars(
                select(SessionLogRow)
                .where(SessionLogRow.campaign_id == campaign_id)
                .order_by(SessionLogRow.id.desc())
            ).all()
            return [
                SessionLogEntry(
                    r.id, r.campaign_id, r.created_at, r.summary, tuple(str(d) for d in r.details)
                )
                for r in rows
            ]

    @_reads
    def monster_templates(self, campaign_id: int) -> list[MonsterTemplate]:
        """Gets a campaign's monster templates, by name."""
        with self.unit_of_work() as s:
            rows = s.scalars(
                select(MonsterTemplateRow)
                .where(MonsterTemplateRow.campaign_id == campaign_id)
                .order_by(MonsterTemplateRow.name)
            ).all()
            return [_template(r) for r in rows]

    def add_templates(
        self, campaign_id: int, templates: Sequence[MonsterTemplate]
    ) -> list[MonsterTemplate]:
        """Adds monster templates in one transaction."""
        with self.unit_of_work() as s:
            rows = [_template_row(campaign_id, t) for t in templates]
            s.add_all(rows)
            s.flush()
            return [_template(r) for r in rows]

    def add_template(self, campaign_id: int, template: MonsterTemplate) -> MonsterTemplate:
        """Adds one monster template the DM made (checked first) and returns it with its id."""
        _refuse_bad_template(template)
        with self.unit_of_work() as s:
            if s.get(CampaignRow, campaign_id) is None:
                raise NotFoundError(_GONE_CAMPAIGN)
            row = _template_row(campaign_id, template)
            s.add(row)
            s.flush()
            return _template(row)

    @_reads
    def template_by_id(self, template_id: int) -> MonsterTemplate | None:
        """Gets one monster template as saved now (None if it was deleted)."""
        template: MonsterTemplate | None = self._saved_value(
            MonsterTemplateRow, _template, template_id)
        return template

    def update_template(self, template: MonsterTemplate) -> MonsterTemplate:
        """Saves an edited template unless someone saved it since ``template`` was loaded.

        A :class:`ConflictError` carries the saved version (``saved``) for the DM to compare;
        values the editor would refuse (bad hit dice …) are refused here too.
        """
        _refuse_bad_template(template)
        try:
            with self.unit_of_work() as s:
                row = s.get(MonsterTemplateRow, template.id)
                if row is None:
                    raise NotFoundError(f"The {template.name} template no longer exists.")
                if row.version != template.version:
                    raise ConflictError(
                        f"The {template.name} template was changed elsewhere since you opened it "
                        f"(your copy is version {template.version}, the saved one "
                        f"{row.version}); nothing was overwritten.",
                        _template(row),
                    )
                _fill_template(row, template)
                s.flush()
                return _template(row)
        except ConflictError as exc:
            raise self._with_saved(exc, MonsterTemplateRow, _template, template.id) from None

    def remove_template(self, template_id: int, version: int | None = None) -> None:
        """Deletes a monster template; with ``version``, only if nobody saved it since then."""
        self._remove_versioned(
            MonsterTemplateRow, _template, template_id, version,
            f"Monster template {template_id} does not exist.",
            lambda row: f"The {row.name} template was changed elsewhere since you opened it; "
            "it was not deleted.",
        )

    def restore_template(self, campaign_id: int, template: MonsterTemplate) -> MonsterTemplate:
        """Puts a deleted template back with its old id and version (undoing a deletion)."""
        if template.id is None:
            raise StoreError(
                f"The {template.name} template was never saved, so it cannot be restored."
            )
        try:
            with self.unit_of_work() as s:
                row = _template_row(campaign_id, template)
                values = {
                    c.key: getattr(row, c.key)
                    for c in _TEMPLATES_TABLE.columns
                    if c.key not in ("id", "version")
                }
                # Core insert: the ORM would restart the version counter at 1.
                s.execute(
                    insert(_TEMPLATES_TABLE),
                    [row_checks.stamped(_TEMPLATES_TABLE, {
                        **values, "id": template.id, "version": template.version})],
                )  # fmt: skip
                restored = s.get(MonsterTemplateRow, template.id)
                assert restored is not None
                return _template(restored)
        except IntegrityError:
            raise ConflictError(
                f"The {template.name} template cannot be put back: its place was taken or the "
                "campaign is gone."
            ) from None

    # --- roster batches: imports, multi-deletes, rests (each one transaction) ------------------

    def apply_import(
        self, campaign_id: int, changes: ImportChanges, summary: str, details: Sequence[str]
    ) -> AppliedImport:
        """Writes one import whole (adds, version-checked updates, a session-log line) or nothing.

        Returns what was written, with ids and versions, for :meth:`undo_import`. An updated
        record changed elsewhere since the file was read refuses the whole import.
        """
        with self.unit_of_work() as s:
            if s.get(CampaignRow, campaign_id) is None:
                raise NotFoundError("The campaign is gone; nothing was imported.")
            stamps: dict[int, datetime] = {}
            updated_entries = []
            for before, after in changes.updated_entries:
                row = self._versioned_row(s, CharacterRow, campaign_id, before, "imported")
                stamps[row.id] = row.updated_at
                _fill_character(row, after)
                s.flush()
                updated_entries.append((before, _entry(row)))
            updated_templates = []
            for before_t, after_t in changes.updated_templates:
                trow = self._versioned_row(s, MonsterTemplateRow, campaign_id, before_t, "imported")
                _fill_template(trow, after_t)
                s.flush()
                updated_templates.append((before_t, _template(trow)))
            added_entries = self._insert_entries(s, campaign_id, changes.added_entries)
            added_templates = self._insert_templates(s, campaign_id, changes.added_templates)
            log = SessionLogRow(
                campaign_id=campaign_id, created_at=utc_now(), summary=summary,
                details=list(details)[:MAX_LOG_DETAILS],
            )  # fmt: skip
            s.add(log)
            s.flush()
            written = ImportChanges(
                tuple(added_entries), tuple(updated_entries), tuple(added_templates),
                tuple(updated_templates),
            )  # fmt: skip
            return AppliedImport(written, log.id, stamps)

    def undo_import(self, campaign_id: int, applied: AppliedImport) -> None:
        """Takes an import back whole: the database holds again exactly the rows it held before.

        Refuses (changing nothing) when a record the import wrote was changed or removed since.
        """
        changes = applied.changes
        with self.unit_of_work() as s:
            self._require_writer(s, [campaign_id], "undone")
            self._check_versions(
                s, _CHARACTERS_TABLE,
                [*changes.added_entries, *(after for _, after in changes.updated_entries)],
            )  # fmt: skip
            self._check_versions(
                s, _TEMPLATES_TABLE,
                [*changes.added_templates, *(after for _, after in changes.updated_templates)],
            )  # fmt: skip
            for table, records in (
                (_CHARACTERS_TABLE, changes.added_entries),
                (_TEMPLATES_TABLE, changes.added_templates),
            ):
                ids = [r.id for r in records]
                for chunk in _chunks(ids):
                    s.execute(delete(table).where(table.c.id.in_(chunk)))
            for before, _after in changes.updated_entries:
                assert before.id is not None
                values = {**_character_values(before), "version": before.version,
                          "campaign_id": campaign_id}  # fmt: skip
                values["updated_at"] = applied.entry_stamps.get(before.id, utc_now())
                values = row_checks.stamped(_CHARACTERS_TABLE, values)
                s.execute(
                    update(_CHARACTERS_TABLE)
                    .where(_CHARACTERS_TABLE.c.id == before.id)
                    .values(**values)
                )
            for before_t, _after_t in changes.updated_templates:
                row = _template_row(campaign_id, before_t)
                values = {c: getattr(row, c) for c in _TEMPLATE_COLUMNS}
                values = row_checks.stamped(_TEMPLATES_TABLE, {
                    **values, "campaign_id": campaign_id, "version": before_t.version})
                s.execute(
                    update(_TEMPLATES_TABLE)
                    .where(_TEMPLATES_TABLE.c.id == before_t.id)
                    .values(**values)
                )  # fmt: skip
            s.execute(delete(SessionLogRow).where(SessionLogRow.id == applied.log_id))
            s.expire_all()

    def remove_records(
        self, entries: Sequence[RosterEntry], templates: Sequence[MonsterTemplate] = ()
    ) -> None:
        """Removes several entries and templates in one transaction, each only if unchanged."""
        with self.unit_of_work() as s:
            campaigns = self._check_versions(s, _CHARACTERS_TABLE, entries, "removed")
            campaigns |= self._check_versions(s, _TEMPLATES_TABLE, templates, "removed")
            self._require_writer(s, campaigns, "removed")
            for table, records in ((_CHARACTERS_TABLE, entries), (_TEMPLATES_TABLE, templates)):
                for chunk in _chunks([r.id for r in records]):
                    s.execute(delete(table).where(table.c.id.in_(chunk)))

    def restore_records(
        self,
        campaign_id: int,
        entries: Sequence[RosterEntry],
        templates: Sequence[MonsterTemplate] = (),
    ) -> None:
        """Puts removed entries and templates back with their ids and versions, all or none."""
        try:
            with self.unit_of_work() as s:
                self._insert_entries(s, campaign_id, entries)
                self._insert_templates(s, campaign_id, templates)
        except IntegrityError:
            names = ", ".join(([e.name for e in entries] + [t.name for t in templates])[:5])
            raise ConflictError(
                f"{names} cannot be put back: a place was taken or the campaign is gone."
            ) from None

    def save_entries(
        self, campaign_id: int, entries: Sequence[RosterEntry], summary: str,
        details: Sequence[str],
    ) -> list[RosterEntry]:
        """Saves several edited entries and a session-log line in one transaction.

        Every entry is version-checked: if one was changed elsewhere, nothing is saved.
        """
        with self.unit_of_work() as s:
            saved = []
            for entry in entries:
                row = self._versioned_row(s, CharacterRow, campaign_id, entry, "saved")
                _fill_character(row, entry)
                saved.append(row)
            s.add(
                SessionLogRow(
                    campaign_id=campaign_id, created_at=utc_now(), summary=summary,
                    details=list(details)[:MAX_LOG_DETAILS],
                )
            )  # fmt: skip
            s.flush()
            return [_entry(r) for r in saved]

    @staticmethod
    def _versioned_row(
        s: Session, model: type[Any], campaign_id: int, record: RosterEntry | MonsterTemplate,
        verb: str,
    ) -> Any:
        what = record.name if isinstance(record, RosterEntry) else f"The {record.name} template"
        row = s.get(model, record.id)
        if row is None or row.campaign_id != campaign_id:
            raise NotFoundError(f"{what} is no longer in the campaign; nothing was {verb}.")
        if row.version != record.version:
            raise ConflictError(
                f"{what} was changed elsewhere meanwhile; nothing was {verb}. Reload and try "
                "again.",
                _entry(row) if isinstance(record, RosterEntry) else _template(row),
            )
        return row

    @staticmethod
    def _check_versions(
        s: Session, table: Any, records: Sequence[RosterEntry | MonsterTemplate],
        verb: str = "undone",
    ) -> set[int]:
        """Refuses (ConflictError) if any record is gone or saved since at another version.

        Returns the campaigns the records belong to.
        """
        wanted = {r.id: r for r in records}
        found: dict[int, int] = {}
        campaigns: set[int] = set()
        for chunk in _chunks(list(wanted)):
            rows = s.execute(select(table.c.id, table.c.version, table.c.campaign_id)
                             .where(table.c.id.in_(chunk)))
            for row in rows:
                found[row[0]] = row[1]
                campaigns.add(row[2])
        stale = [r.name for i, r in wanted.items() if i is None or found.get(i) != r.version]
        if stale:
            more = f" and {len(stale) - 3} more" if len(stale) > 3 else ""
            raise ConflictError(
                f"{', '.join(stale[:3])}{more} changed or went away since; nothing was {verb}."
            )
        return campaigns

    @staticmethod
    def _insert_entries(
        s: Session, campaign_id: int, entries: Sequence[RosterEntry]
    ) -> list[RosterEntry]:
        """Bulk-inserts entries: new ones get ids, ones with an id go back under it."""
        now = utc_now()
        rows = [
            row_checks.stamped(_CHARACTERS_TABLE, {
                **_character_values(e), "campaign_id": campaign_id, "updated_at": now,
                "version": e.version if e.id is not None else 1})
            | ({"id": e.id} if e.id is not None else {})
            for e in entries
        ]  # fmt: skip
        out: list[RosterEntry] = []
        kept = [r for r in rows if "id" in r]
        fresh = [r for r in rows if "id" not in r]
        if kept:
            s.execute(insert(_CHARACTERS_TABLE), kept)
        ids: list[int] = []
        if fresh:
            ids = list(s.scalars(
                insert(_CHARACTERS_TABLE).returning(
                    _CHARACTERS_TABLE.c.id, sort_by_parameter_order=True),
                fresh,
            ).all())  # fmt: skip
        new_ids = iter(ids)
        for e in entries:
            out.append(e if e.id is not None else replace(e, id=next(new_ids), version=1))
        return out

    @staticmethod
    def _insert_templates(
        s: Session, campaign_id: int, templates: Sequence[MonsterTemplate]
    ) -> list[MonsterTemplate]:
        out: list[MonsterTemplate] = []
        for t in templates:
            row = _template_row(campaign_id, t)
            values = {c: getattr(row, c) for c in _TEMPLATE_COLUMNS}
            if t.id is not None:
                s.execute(
                    insert(_TEMPLATES_TABLE),
                    [row_checks.stamped(_TEMPLATES_TABLE, {
                        **values, "campaign_id": campaign_id, "id": t.id, "version": t.version})],
                )  # fmt: skip
                out.append(t)
            else:
                new_id = s.execute(
                    insert(_TEMPLATES_TABLE).returning(_TEMPLATES_TABLE.c.id),
                    row_checks.stamped(_TEMPLATES_TABLE,
                                       {**values, "campaign_id": campaign_id, "version": 1}),
                ).scalar_one()
                out.append(replace(t, id=new_id, version=1))
        return out

    # --- encounters ----------------------------------------------------------------------------

    def create_encounter(
        self, campaign_id: int, name: str, system: str, options: Mapping[str, Any] | None = None,
        commands: Sequence[Command] = (),
    ) -> EncounterInfo:
        """Starts a new encounter record, with ``commands`` as its first commands (numbered
        1, 2, …) in the same transaction: the encounter is stored whole, or not at all."""
        with self.unit_of_work() as s:
            row = EncounterRow(
                campaign_id=campaign_id,
                name=name,
                system=system,
                options=dict(options or {}),
                status="active",
            )
            s.add(row)
            s.flush()
            s.add_all(
                EncounterEventRow(encounter_id=row.id, command_seq=seq, event_index=i,
                                  command_name=command.name, kind=str(event.kind),
                                  payload=event.to_json()["data"], command_id=command.id)
                for seq, command in enumerate(commands, start=1)
                for i, event in enumerate(command.events)
            )
            return EncounterInfo(row.id, campaign_id, name, system, dict(row.options), row.status)

    @_reads
    def encounters(self, campaign_id: int, with_options: bool = True,
                   status: str | None = None) -> list[EncounterInfo]:
        """Lists a campaign's encounters, oldest first (``status`` active or ended).

        ``with_options=False`` leaves each one's options out (empty): a list for a menu;
        :meth:`encounter` reads one whole. ``status`` lists only those in it ("active" at
        start-up, so a campaign of thousands of ended fights starts as fast as an empty one).
        """
        table = EncounterRow.__table__  # plain rows: ORM objects cost more than the read
        columns = [table.c.id, table.c.campaign_id, table.c.name, table.c.system,
                   table.c.status, *([table.c.options] if with_options else [])]
        query = (select(*columns).where(table.c.campaign_id == campaign_id)
                 .order_by(table.c.id))
        if status is not None:
            query = query.where(table.c.status == status)
        with self.unit_of_work() as s:
            return [EncounterInfo(r.id, r.campaign_id, r.name, r.system,
                                  dict(r.options or {}) if with_options else {}, r.status)
                    for r in s.execute(query)]

    @_reads
    def encounter_count(self, campaign_id: int) -> int:
        """Counts a campaign's encounters, active and ended (numbers a new one's name)."""
        table = EncounterRow.__table__
        with self.unit_of_work() as s:
            query = select(func.count()).where(table.c.campaign_id == campaign_id)
            return int(s.execute(query).scalar_one())

    def end_encounter(self, encounter_id: int, holder: str | None = None) -> EncounterInfo:
        """Marks an encounter ended (its commands stay, so it can still be read and printed).

        An encounter already ended is refused: it cannot be ended (and its results offered)
        twice; so is one another Combat Desk has taken over from ``holder`` (its lease).
        """
        with self.unit_of_work() as s:
            row = s.get(EncounterRow, encounter_id, with_for_update=True)
            if row is None:
                raise NotFoundError(_GONE_ENCOUNTER)
            self._refuse_unless_holding(s, encounter_id, holder)
            if row.status == ENDED:
                raise EncounterEndedError(f"{row.name} has already ended.")
            row.status = ENDED
            s.flush()
            return _info(row)

    @_reads
    def encounter(self, encounter_id: int) -> EncounterInfo:
        """Gets one encounter's header as saved now."""
        with self.unit_of_work() as s:
            row = s.get(EncounterRow, encounter_id)
            if row is None:
                raise NotFoundError(_GONE_ENCOUNTER)
            return _info(row)

    def reopen_encounter(
        self, encounter_id: int, baseline: Mapping[str, Any] | None
    ) -> EncounterInfo:
        """Makes an ended encounter playable again, in one transaction.

        ``baseline`` (by combatant id) is what its results were when it ended: ending it again
        proposes only what changed after it. None removes a recorded baseline (undoing the
        first reopening).
        """
        with self.unit_of_work() as s:
            # Locked: two Combat Desks reopening it at once on a server, the second is refused.
            row = s.get(EncounterRow, encounter_id, with_for_update=True)
            if row is None:
                raise NotFoundError(_GONE_ENCOUNTER)
            if row.status != ENDED:
                raise StoreError(f"{row.name} is already open again (reopened in another "
                                 "Combat Desk?); only an ended encounter is reopened.")
            options = {k: v for k, v in row.options.items() if k != BASELINE_KEY}
            if baseline is not None:
                options[BASELINE_KEY] = dict(baseline)
            row.options = options
            row.status = "active"
            s.flush()
            return _info(row)

    # --- leases: one window plays an encounter, the others watch (core.store.leases) ----------

    def take_lease(self, encounter_id: int, holder: LeaseHolder, take_over: bool = False,
                   seconds: float = LEASE_SECONDS) -> Lease:
        """Takes the encounter's lease unless another live holder has it; returns the lease
        that holds afterwards (``holder``'s own, or the other's). ``take_over`` takes it anyway.
        """
        return leases.take(self, encounter_id, holder, take_over, seconds)

    def renew_lease(self, encounter_id: int, holder: LeaseHolder,
                    seconds: float = LEASE_SECONDS) -> Lease:
        """The heartbeat; EncounterTakenOverError (naming who) once someone took it over."""
        return leases.renew(self, encounter_id, holder, seconds)

    def release_lease(self, encounter_id: int, holder: LeaseHolder) -> None:
        """Lets the encounter go, if ``holder`` has it."""
        leases.release(self, encounter_id, holder)

    @_reads
    def lease(self, encounter_id: int) -> Lease | None:
        """Gets who holds the encounter's lease now (None: nobody took it)."""
        return leases.current(self, encounter_id)

    @staticmethod
    def _refuse_unless_holding(s: Session, encounter_id: int, holder: str | None) -> None:
        if holder is not None:
            lease = s.execute(_LEASE_OF, {"encounter_id": encounter_id}).first()
            _refuse_unless_holder(lease, holder)

    def append_command(self, encounter_id: int, command: Command,
                       after: int | None = None, holder: str | None = None) -> int:
        """Appends one command's events in one transaction and returns its number.

        Exactly once: a command whose id is already stored is not stored again; its number is
        returned, so a save retried after an unknown outcome is always safe. ``after`` is the
        last command number the caller has seen; if the encounter has moved on since (another
        window appended or undid), nothing is stored and EncounterMovedOnError says so.

        Two writers appending at once are serialized: on a server the encounter row is locked;
        on SQLite the (encounter, command, event) key refuses the second, which retries with the
        next number (unless ``after`` pins the number). Only after ``APPEND_ATTEMPTS``
        collisions does it raise ConflictError, and then nothing of its command is stored.

        ``holder`` is the caller's lease instance (:class:`LeaseHolder`): once another Combat
        Desk has taken the encounter over, EncounterTakenOverError names who and nothing is
        stored.
        """
        return self._append(
            encounter_id, command.name,
            [(str(e.kind), e.to_json()["data"]) for e in command.events], command.id, after,
            holder,
        )

    def undo_command(self, encounter_id: int, after: int | None = None,
                     command_id: str | None = None, holder: str | None = None) -> int:
        """Records an undo of the last live command (rows are never deleted).

        With ``after`` (the last command number the caller has seen) the undo is refused when
        another window has appended since: the last command would not be the caller's own.
        """
        live = self._live_command_seqs(encounter_id)
        if not live:
            raise StoreError("There is nothing to undo in this encounter.")
        return self._append(encounter_id, "Undo", [(UNDO_KIND, {"undoes": live[-1]})],
                            command_id, after, holder)

    @_reads
    def last_command_seq(self, encounter_id: int) -> int:
        """Gets the number of the encounter's newest stored command (undos included; 0: none)."""
        try:
            with self._engine.connect() as conn:
                return int(conn.execute(_LAST_SEQ, {"encounter_id": encounter_id}).scalar() or 0)
        except DBAPIError as exc:  # outside a unit of work: a locked file is still worded
            raise _operational(exc, self.label) from None

    def _append(self, encounter_id: int, name: str, events: Sequence[tuple[str, Any]],
                command_id: str | None = None, after: int | None = None,
                holder: str | None = None) -> int:
        for attempt in range(APPEND_ATTEMPTS):
            try:
                return self._append_once(encounter_id, name, events, command_id, after, holder)
            except IntegrityError as exc:
                if "foreign key" in str(exc).lower():
                    raise NotFoundError(_GONE_ENCOUNTER) from None
                if after is not None:
                    raise EncounterMovedOnError(_MOVED_ON) from None
                # Another writer took this number first: re-read the next one and try again.
                time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
        raise ConflictError(
            "Other Combat Desk windows kept appending to this encounter at the same moment; "
            "your command was not stored. Reload the encounter and repeat it."
        )

    def _append_once(self, encounter_id: int, name: str, events: Sequence[tuple[str, Any]],
                     command_id: str | None, after: int | None, holder: str | None) -> int:
        if self._engine.dialect.name == "sqlite":
            return self._append_sqlite(encounter_id, name, events, command_id, after, holder)
        # Server databases: Core statements on one connection (the ORM's unit of work costs more
        # than the write).
        now = utc_now()
        try:
            with self._engine.begin() as conn:
                key = {"encounter_id": encounter_id}
                # Lock the encounter row: concurrent appends queue here instead of colliding.
                header = conn.execute(_LOCK_ENCOUNTER, key).first()
                if header is None:
                    raise NotFoundError(_GONE_ENCOUNTER)
                if command_id is not None:
                    done = conn.execute(_SEQ_OF_COMMAND, {**key, "command_id": command_id})
                    stored = done.scalar()
                    if stored is not None:
                        return int(stored)
                if holder is not None:
                    _refuse_unless_holder(conn.execute(_LEASE_OF, key).first(), holder)
                if header[0] == ENDED:
                    raise _ended_error(header[1])
                last = int(conn.execute(_LAST_SEQ, key).scalar() or 0)
                if after is not None and last != after:
                    raise EncounterMovedOnError(_MOVED_ON)
                seq = last + 1
                rows = [
                    _EVENT_CHECKS.stamped({
                        "encounter_id": encounter_id,
                        "command_seq": seq,
                        "event_index": i,
                        "command_name": name,
                        "kind": kind,
                        "payload": payload,
                        "created_at": now,
                        "command_id": command_id,
                    })
                    for i, (kind, payload) in enumerate(events)
                ]  # fmt: skip
                if rows:
                    conn.execute(_INSERT_EVENTS, rows[0] if len(rows) == 1 else rows)
                return seq
        except IntegrityError:
            raise
        except DBAPIError as exc:
            raise _operational(exc, self.label) from None

    def _append_sqlite(
        self, encounter_id: int, name: str, events: Sequence[tuple[str, Any]],
        command_id: str | None, after: int | None, holder: str | None = None,
    ) -> int:
        """The same append straight on the pooled sqlite3 connection (the hot path at the table).

        SQLAlchemy's own bind processors format the payload and time, so rows are identical to
        the Core path's; statement building and execution contexts would triple the cost.
        """
        payload_out, time_out = self._event_processors()
        now = time_out(utc_now())
        who = changed_by(None)
        try:
            conn = self._engine.connect()  # a new connection may meet the lock already
        except DBAPIError as exc:
            raise _operational(exc, self.label) from None
        with conn:
            raw = conn.connection.dbapi_connection
            assert isinstance(raw, sqlite3.Connection)
            try:
                # The look-ups and the INSERT are one write transaction: nobody (another
                # window, a restore) can change the log between reading its end and writing.
                raw.execute("BEGIN IMMEDIATE")
                if command_id is not None:
                    stored = raw.execute(_SQLITE_SEQ_OF_COMMAND,
                                         (encounter_id, command_id)).fetchone()
                    if stored is not None:
                        raw.rollback()
                        return int(stored[0])
                if holder is not None:
                    lease = raw.execute(_SQLITE_LEASE_OF, (encounter_id,)).fetchone()
                    try:
                        _refuse_unless_holder(lease, holder)
                    except EncounterTakenOverError:
                        raw.rollback()
                        raise
                header = raw.execute(_SQLITE_STATUS, (encounter_id,)).fetchone()
                if header is not None and header[0] == ENDED:
                    raw.rollback()
                    raise _ended_error(header[1])
                (last,) = raw.execute(_SQLITE_LAST_SEQ, (encounter_id,)).fetchone()
                if after is not None and int(last or 0) != after:
                    raw.rollback()
                    raise EncounterMovedOnError(_MOVED_ON)
                seq = int(last or 0) + 1
                rows = [
                    (encounter_id, seq, i, name, kind, payload_out(payload), now, command_id)
                    for i, (kind, payload) in enumerate(events)
                ]
                # The row check from the very values bound: SQLite stores them as they are.
                raw.executemany(
                    _SQLITE_INSERT_EVENT,
                    [(*row, who, now, _EVENT_CHECKS.of_stored(row)) for row in rows],
                )
                raw.commit()
            except sqlite3.IntegrityError as exc:
                raw.rollback()
                raise IntegrityError(_SQLITE_INSERT_EVENT, None, exc) from None
            except sqlite3.Error as exc:
                raw.rollback()
                raise _operational(exc, self.label) from None
            except BaseException:
                if raw.in_transaction:  # never hand the pool a connection mid-transaction
                    raw.rollback()
                raise
            return seq

    def _event_processors(self) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        if self._processors is None:
            dialect = self._engine.dialect
            # The dialect's own types: the generic DateTime has no processor, and sqlite3's
            # default adapter wrote "+00:00" after the time, unlike every other path.
            payload = _EVENTS_TABLE.c.payload.type.dialect_impl(dialect).bind_processor(dialect)
            created = _EVENTS_TABLE.c.created_at.type.dialect_impl(dialect).bind_processor(
                dialect)
            self._processors = (payload or _same, created or _same)
        return self._processors

    def _rows(self, encounter_id: int, after: int = 0) -> list[EncounterEventRow]:
        with self.unit_of_work() as s:
            return list(
                s.scalars(
                    select(EncounterEventRow)
                    .where(EncounterEventRow.encounter_id == encounter_id,
                           EncounterEventRow.command_seq > after)
                    .order_by(EncounterEventRow.command_seq, EncounterEventRow.event_index)
                ).all()
            )

    def _live_command_seqs(self, encounter_id: int) -> list[int]:
        return [seq for seq, _ in self._live_commands(self._rows(encounter_id))]

    @staticmethod
    def _stored(rows: Sequence[EncounterEventRow]) -> list[StoredCommand]:
        grouped: dict[int, list[EncounterEventRow]] = {}
        for row in rows:
            grouped.setdefault(row.command_seq, []).append(row)
        stored: list[StoredCommand] = []
        for seq, group in grouped.items():
            if group[0].kind == UNDO_KIND:
                undone = group[0].payload.get("undoes")
                stored.append(StoredCommand(seq, None, undone if isinstance(undone, int) else 0))
                continue
            events = tuple(Event.from_json({"kind": r.kind, "data": r.payload}) for r in group)
            command = (Command(group[0].command_name, events) if group[0].command_id is None
                       else Command(group[0].command_name, events, group[0].command_id))
            stored.append(StoredCommand(seq, command))
        return stored

    @classmethod
    def _live_commands(cls, rows: Sequence[EncounterEventRow]) -> list[tuple[int, Command]]:
        live: list[tuple[int, Command]] = []
        for stored in cls._stored(rows):
            if stored.command is not None:
                live.append((stored.seq, stored.command))
            elif live and live[-1][0] == stored.undoes:
                live.pop()
        return live

    @_reads
    def log_snapshot(self, encounter_id: int) -> tuple[int, list[tuple[int, Command]]]:
        """Gets, from one read, the newest command number stored (undos included; 0: none)
        and the live commands with their numbers, oldest first."""
        rows = self._rows(encounter_id)
        return (rows[-1].command_seq if rows else 0), self._live_commands(rows)

    @_reads
    def stored_after(self, encounter_id: int, after: int) -> list[StoredCommand]:
        """Gets what was stored after command number ``after``, commands and undos, oldest
        first: a window that has seen up to ``after`` catches up without reading it all."""
        return self._stored(self._rows(encounter_id, after))

    @_reads
    def load_commands(self, encounter_id: int) -> list[Command]:
        """Gets the encounter's live commands (undone ones left out), oldest first."""
        return [command for _, command in self._live_commands(self._rows(encounter_id))]


def _check_seal(path: Path) -> tuple[int, bool]:
    """Gets the file's seal (0: none) and whether its bytes still match it."""
    if not path.is_file():
        return 0, False
    try:
        sealed = health.seal_of(path)
        return sealed, sealed != 0 and health.file_digest(path) == sealed
    except OSError as exc:
        raise StoreError(f"{path} cannot be read: {exc.strerror}.") from None


def _checked_address(url: str) -> Path | None:
    """Gets the SQLite file of ``url`` (None for a server), refusing addresses that cannot work.

    A mistyped address gets a sentence, not a traceback: a port that is not a number, a kind of
    database Combat Desk does not use, a folder where a campaign file should be.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
        port = parsed.port  # parsing the port is lazy: a typo shows here
    except (ArgumentError, ValueError):
        raise StoreError(
            "That database address is not one Combat Desk understands; write "
            "sqlite:///path/to/campaign.sqlite or postgresql+psycopg://user@host:5432/name "
            "(the port is a number)."
        ) from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise StoreError(
            f"Combat Desk keeps campaigns in SQLite files or on a PostgreSQL server, not in "
            f"'{backend}' databases."
        )
    if port is not None and not 0 < port < 65536:
        raise StoreError(f"{port} is not a network port (1 to 65535).")
    path = sqlite_path(url)
    if path is not None and path.is_dir():
        raise StoreError(f"{path} is a folder; give the campaign file inside it instead.")
    return path


def _safe_label(url: str) -> str:
    try:
        return make_safe(url)
    except Exception:
        return "the database"


def make_safe(url: str) -> str:
    """Gets a URL with its password hidden, for messages."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


SERVER_CONNECT_TIMEOUT = 8
"""Seconds to reach a database server (and finish its greeting) before giving up."""
SERVER_STATEMENT_TIMEOUT = 20
"""Seconds one statement may run on the server (the app's statements take milliseconds)."""


def _server_timeouts(url: str, lock_timeout: float) -> dict[str, Any]:
    """Gets libpq settings so that nothing waits on a server without end.

    A server that does not answer (packets dropped), a frozen backend and a row lock held by
    another client each hung the app before; now the connection, each statement and each lock
    wait give up with a message. The URL's own settings win over these defaults.
    """
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if not parsed.drivername.startswith("postgresql"):
        return {}
    lock_ms = max(int(lock_timeout * 1000), 1)
    settings: dict[str, Any] = {
        "connect_timeout": SERVER_CONNECT_TIMEOUT,
        # Sent data unacknowledged this long means the server is gone (Linux, libpq ≥ 12).
        "tcp_user_timeout": SERVER_STATEMENT_TIMEOUT * 1000,
        "keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3,
        "options": (f"-c statement_timeout={SERVER_STATEMENT_TIMEOUT * 1000} "
                    f"-c lock_timeout={lock_ms} -c idle_in_transaction_session_timeout=60000"),
    }
    return {k: v for k, v in settings.items() if k not in parsed.query}


def _server_wait_limit(url: str, lock_timeout: float) -> float:
    """Gets about how long one call can wait on a server: reaching it, then one statement."""
    from sqlalchemy.engine import make_url

    query = make_url(url).query
    try:
        connect = float(str(query.get("connect_timeout", SERVER_CONNECT_TIMEOUT)))
    except ValueError:
        connect = SERVER_CONNECT_TIMEOUT
    return connect + max(SERVER_STATEMENT_TIMEOUT, lock_timeout)


_CONNECTION_LOST = ("server closed the connection", "connection refused", "could not connect",
                    "terminating connection", "connection is closed", "ssl syscall error",
                    "consuming input failed", "no route to host", "network is unreachable")


def _operational(exc: DBAPIError | sqlite3.Error, label: str) -> StoreError:
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    text = str(orig) if orig is not None else str(exc)
    lowered = text.lower()
    denied = access_denied(text, label, getattr(orig, "sqlstate", None))
    if denied is not None:
        return denied
    if "lock timeout" in lowered:
        return DatabaseLockedError(
            f"{label}: another Combat Desk window or program is holding this record; nothing "
            "was saved. Try again in a moment."
        )
    if "statement timeout" in lowered or "timeout expired" in lowered or (
            "timed out" in lowered):
        return DatabaseUnavailableError(
            f"{label} did not answer in time; nothing was saved. Check the network or ask "
            "whoever runs the server, then try again."
        )
    if "locked" in lowered or "busy" in lowered:
        return DatabaseLockedError(
            f"{label} is locked by another program or Combat Desk window; nothing was saved. "
            "Try again in a moment."
        )
    if any(lost in lowered for lost in _CONNECTION_LOST):
        return DatabaseUnavailableError(
            f"{label} cannot be reached (the connection was lost); your last change may not "
            "have been saved. Check the network or the server, then try again."
        )
    if "readonly" in lowered or "read-only" in lowered:
        return ReadOnlyDatabaseError(
            f"{label} is read-only; nothing was saved. Check the file's permissions."
        )
    if ("disk" in lowered and "full" in lowered) or "no space left" in lowered:
        return DiskFullError(
            f"{label}: the disk is full; nothing was saved. Free some space and repeat the "
            "last command."
        )
    return StoreError(f"{label}: the database refused the change ({text}).")
