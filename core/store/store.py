"""The campaign store: the one object the app talks to for everything kept between sessions.

Each public method is one unit of work (one transaction): a DM command either lands whole or
not at all. Rows are mapped to the frozen values of ``core.roster`` and ``core.log`` here.
"""

from __future__ import annotations

import functools
import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Engine, bindparam, create_engine, event, func, insert, select
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from core.log import Command, Event
from core.model import Kind, Spell, Weapon
from core.roster import Campaign, MonsterTemplate, RosterEntry, RosterStatus, SessionLogEntry
from core.roster_checks import check_template
from core.store.errors import (
    ConflictError,
    CorruptDatabaseError,
    DatabaseLockedError,
    DiskFullError,
    EncounterEndedError,
    NotFoundError,
    ReadOnlyDatabaseError,
    StoreError,
)
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
    EncounterRow,
    MonsterTemplateRow,
    SessionLogRow,
    utc_now,
)

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
_SQLITE_STATUS = "SELECT status, name FROM encounters WHERE id = ?"
_SQLITE_LAST_SEQ = "SELECT max(command_seq) FROM encounter_events WHERE encounter_id = ?"
_SQLITE_INSERT_EVENT = (
    "INSERT INTO encounter_events (encounter_id, command_seq, event_index, command_name, kind, "
    "payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def _same(value: Any) -> Any:
    return value


def default_database_url() -> str:
    """Gets the URL of the DM's own campaign file in the platform's user data folder."""
    from platformdirs import user_data_dir  # only the default path needs it

    folder = Path(user_data_dir("CombatDesk", appauthor=False))
    return f"sqlite:///{folder / 'campaigns.sqlite'}"


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


def _ended_error(name: str) -> EncounterEndedError:
    return EncounterEndedError(
        f"{name} has ended, so nothing can be changed in it. Reopen it (Encounter › Reopen "
        "Encounter) to play on."
    )


def _info(row: EncounterRow) -> EncounterInfo:
    return EncounterInfo(
        row.id, row.campaign_id, row.name, row.system, dict(row.options), row.status
    )


def _on_sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at each checkpoint/commit
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
        notes=row.notes,
        version=row.version,
    )


def _character_values(entry: RosterEntry) -> dict[str, Any]:
    """Gets an entry's column values (without id, campaign and version), for bulk inserts."""
    row = CharacterRow()
    _fill_character(row, entry)
    return {c: getattr(row, c) for c in _CHARACTER_COLUMNS}


_CHARACTER_COLUMNS = (
    "kind", "name", "side", "status", "level", "char_class", "race", "hp", "max_hp", "ac",
    "str_score", "dex", "wis", "initiative_adj", "surprise_adj", "missile_adj", "reaction_adj",
    "movement", "morale", "attack_routines", "attacks", "weapons", "spells", "notes",
)  # fmt: skip
_CHARACTERS_TABLE = Base.metadata.tables["characters"]


def _fill_character(row: CharacterRow, entry: RosterEntry) -> None:
    row.kind = str(entry.kind)
    row.name = entry.name
    row.side = entry.side
    row.status = str(entry.status)
    row.level = entry.level
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
    row.spells = [
        {"name": s.name, "level": s.level, "casting_time": s.casting_time} for s in entry.spells
    ]
    row.notes = entry.notes


def _template(row: MonsterTemplateRow) -> MonsterTemplate:
    return MonsterTemplate(
        id=row.id,
        name=row.name,
        hit_dice=row.hit_dice,
        ac=row.ac,
        movement=row.movement,
        morale=row.morale,
        attacks=row.attacks,
        surprises_on=row.surprises_on,
        weapons=_weapons(row.weapons),
        notes=row.notes,
        version=row.version,
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
    row.weapons = _weapons_json(t.weapons)
    row.notes = t.notes


def _refuse_bad_template(t: MonsterTemplate) -> None:
    """Refuses a template the editor would not save (the editor shows each reason itself)."""
    problems = check_template(t)
    if problems:
        reasons = " ".join(problems.values())
        raise StoreError(f"The {t.name or 'unnamed'} template was not saved: {reasons}")


_TEMPLATES_TABLE = Base.metadata.tables["monster_templates"]


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
        except (ValueError, KeyError, TypeError) as exc:
            raise CorruptDatabaseError(
                f"{store.label} is damaged: a saved record cannot be read ({exc.__class__.__name__}"
                "). Restore a backup."
            ) from None

    return read


class Store:
    """A campaign database, opened safely and migrated to the current schema."""

    def __init__(self, engine: Engine, label: str) -> None:
        self._engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self.label = label
        self._processors: tuple[Callable[[Any], Any], Callable[[Any], Any]] | None = None

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
        path = sqlite_path(url)
        label = str(path) if path else _safe_label(url)
        if path is not None:
            inspection = inspect_sqlite_file(path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder for {path}: {exc.strerror}") from None
            engine = create_engine(url, connect_args={"timeout": lock_timeout})
            event.listen(engine, "connect", _on_sqlite_connect)
        else:
            try:
                engine = create_engine(url, pool_pre_ping=True)
                with engine.connect() as conn:
                    inspection = inspect_connection(conn, label)
            except StoreError:
                raise
            except (SQLAlchemyError, ImportError) as exc:
                raise StoreError(f"cannot connect to {label}: {exc}") from None
        store = cls(engine, label)
        store._prepare(inspection, path)
        return store

    def _prepare(self, inspection: Inspection, path: Path | None) -> None:
        if inspection.verdict is Verdict.CURRENT:
            return
        if inspection.verdict is Verdict.UPGRADE and path is not None:
            self.backup(path.with_name(f"{path.name}.before-{HEAD_REVISION}.bak"))
        try:
            from core.store.migrate import upgrade_to_head  # Alembic only when needed

            with self._engine.begin() as conn:
                upgrade_to_head(conn)
                if conn.dialect.name == "sqlite":
                    conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        except OperationalError as exc:
            raise _operational(exc, self.label) from None

    def backup(self, target: Path) -> Path:
        """Writes a consistent copy of an SQLite campaign to ``target`` (SQLite backup API)."""
        from core.store.backups import SERVER_BACKUPS, copy_database

        source_path = sqlite_path(str(self._engine.url))
        if source_path is None:
            raise StoreError(SERVER_BACKUPS)
        return copy_database(source_path, target)

    @property
    def file(self) -> Path | None:
        """Gets the SQLite campaign file (None for a server database)."""
        return sqlite_path(str(self._engine.url))

    @property
    def full_url(self) -> str:
        """Gets the database URL with its password, to open another Store on it."""
        return self._engine.url.render_as_string(hide_password=False)

    def close(self) -> None:
        """Closes every connection (SQLite folds its WAL back into the file)."""
        self._engine.dispose()

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
            raise StoreError(f"A campaign named {name!r} already exists.") from None

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
            raise StoreError(f"A campaign named {name.strip()!r} already exists.") from None

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
                raise NotFoundError(f"There is no campaign {campaign_id}.")
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
                        {
                            **values,
                            "id": entry.id,
                            "campaign_id": campaign_id,
                            "version": entry.version,
                            "updated_at": utc_now(),
                        }
                    ],
                )
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
            {**_character_values(e), "campaign_id": campaign_id, "version": 1, "updated_at": now}
            for e in entries
        ]
        with self.unit_of_work() as s:
            if s.get(CampaignRow, campaign_id) is None:
                raise NotFoundError(f"There is no campaign {campaign_id}.")
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
                raise NotFoundError(f"There is no campaign {campaign_id}.")
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
                    [{**values, "id": template.id, "version": template.version}],
                )
                restored = s.get(MonsterTemplateRow, template.id)
                assert restored is not None
                return _template(restored)
        except IntegrityError:
            raise ConflictError(
                f"The {template.name} template cannot be put back: its place was taken or the "
                "campaign is gone."
            ) from None

    # --- encounters ----------------------------------------------------------------------------

    def create_encounter(
        self, campaign_id: int, name: str, system: str, options: Mapping[str, Any] | None = None
    ) -> EncounterInfo:
        """Starts a new encounter record."""
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
            return EncounterInfo(row.id, campaign_id, name, system, dict(row.options), row.status)

    def encounters(self, campaign_id: int) -> list[EncounterInfo]:
        """Lists a campaign's encounters, oldest first (``status`` active or ended)."""
        with self.unit_of_work() as s:
            rows = s.scalars(
                select(EncounterRow)
                .where(EncounterRow.campaign_id == campaign_id)
                .order_by(EncounterRow.id)
            ).all()
            return [
                EncounterInfo(r.id, r.campaign_id, r.name, r.system, dict(r.options), r.status)
                for r in rows
            ]

    def end_encounter(self, encounter_id: int) -> EncounterInfo:
        """Marks an encounter ended (its commands stay, so it can still be read and printed).

        An encounter already ended is refused: it cannot be ended (and its results offered)
        twice.
        """
        with self.unit_of_work() as s:
            row = s.get(EncounterRow, encounter_id)
            if row is None:
                raise NotFoundError(f"There is no encounter {encounter_id}.")
            if row.status == ENDED:
                raise EncounterEndedError(f"{row.name} has already ended.")
            row.status = ENDED
            s.flush()
            return _info(row)

    def encounter(self, encounter_id: int) -> EncounterInfo:
        """Gets one encounter's header as saved now."""
        with self.unit_of_work() as s:
            row = s.get(EncounterRow, encounter_id)
            if row is None:
                raise NotFoundError(f"There is no encounter {encounter_id}.")
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
            row = s.get(EncounterRow, encounter_id)
            if row is None:
                raise NotFoundError(f"There is no encounter {encounter_id}.")
            if row.status != ENDED:
                raise StoreError(f"{row.name} is still open; only an ended encounter is reopened.")
            options = {k: v for k, v in row.options.items() if k != BASELINE_KEY}
            if baseline is not None:
                options[BASELINE_KEY] = dict(baseline)
            row.options = options
            row.status = "active"
            s.flush()
            return _info(row)

    def append_command(self, encounter_id: int, command: Command) -> int:
        """Appends one command's events in one transaction and returns its number.

        Two writers appending at once are serialized: on a server the encounter row is locked;
        on SQLite the (encounter, command, event) key refuses the second, which retries with the
        next number. Only after ``APPEND_ATTEMPTS`` collisions does it raise ConflictError, and
        then nothing of its command is stored.
        """
        return self._append(
            encounter_id, command.name, [(str(e.kind), e.to_json()["data"]) for e in command.events]
        )

    def undo_command(self, encounter_id: int) -> int:
        """Records an undo of the last live command (rows are never deleted)."""
        live = self._live_command_seqs(encounter_id)
        if not live:
            raise StoreError("There is nothing to undo in this encounter.")
        return self._append(encounter_id, "Undo", [(UNDO_KIND, {"undoes": live[-1]})])

    def _append(self, encounter_id: int, name: str, events: Sequence[tuple[str, Any]]) -> int:
        for attempt in range(APPEND_ATTEMPTS):
            try:
                return self._append_once(encounter_id, name, events)
            except IntegrityError as exc:
                if "foreign key" in str(exc).lower():
                    raise NotFoundError(f"There is no encounter {encounter_id}.") from None
                # Another writer took this number first: re-read the next one and try again.
                time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
        raise ConflictError(
            "Other Combat Desk windows kept appending to this encounter at the same moment; "
            "your command was not stored. Reload the encounter and repeat it."
        )

    def _append_once(self, encounter_id: int, name: str, events: Sequence[tuple[str, Any]]) -> int:
        if self._engine.dialect.name == "sqlite":
            return self._append_sqlite(encounter_id, name, events)
        # Server databases: Core statements on one connection (the ORM's unit of work costs more
        # than the write).
        now = utc_now()
        try:
            with self._engine.begin() as conn:
                key = {"encounter_id": encounter_id}
                # Lock the encounter row: concurrent appends queue here instead of colliding.
                header = conn.execute(_LOCK_ENCOUNTER, key).first()
                if header is None:
                    raise NotFoundError(f"There is no encounter {encounter_id}.")
                if header[0] == ENDED:
                    raise _ended_error(header[1])
                seq = int(conn.execute(_LAST_SEQ, key).scalar() or 0) + 1
                rows = [
                    {
                        "encounter_id": encounter_id,
                        "command_seq": seq,
                        "event_index": i,
                        "command_name": name,
                        "kind": kind,
                        "payload": payload,
                        "created_at": now,
                    }
                    for i, (kind, payload) in enumerate(events)
                ]
                if rows:
                    conn.execute(_INSERT_EVENTS, rows[0] if len(rows) == 1 else rows)
                return seq
        except IntegrityError:
            raise
        except DBAPIError as exc:
            raise _operational(exc, self.label) from None

    def _append_sqlite(
        self, encounter_id: int, name: str, events: Sequence[tuple[str, Any]]
    ) -> int:
        """The same append straight on the pooled sqlite3 connection (the hot path at the table).

        SQLAlchemy's own bind processors format the payload and time, so rows are identical to
        the Core path's; statement building and execution contexts would triple the cost.
        """
        payload_out, time_out = self._event_processors()
        now = time_out(utc_now())
        with self._engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert isinstance(raw, sqlite3.Connection)
            try:
                header = raw.execute(_SQLITE_STATUS, (encounter_id,)).fetchone()
                if header is not None and header[0] == ENDED:
                    raise _ended_error(header[1])
                # Legacy transaction handling: the INSERT opens the transaction, the commit ends it.
                (last,) = raw.execute(_SQLITE_LAST_SEQ, (encounter_id,)).fetchone()
                seq = int(last or 0) + 1
                raw.executemany(
                    _SQLITE_INSERT_EVENT,
                    [
                        (encounter_id, seq, i, name, kind, payload_out(payload), now)
                        for i, (kind, payload) in enumerate(events)
                    ],
                )
                raw.commit()
            except sqlite3.IntegrityError as exc:
                raw.rollback()
                raise IntegrityError(_SQLITE_INSERT_EVENT, None, exc) from None
            except sqlite3.Error as exc:
                raw.rollback()
                raise _operational(exc, self.label) from None
            return seq

    def _event_processors(self) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        if self._processors is None:
            dialect = self._engine.dialect
            payload = _EVENTS_TABLE.c.payload.type.bind_processor(dialect)
            created = _EVENTS_TABLE.c.created_at.type.bind_processor(dialect)
            self._processors = (payload or _same, created or _same)
        return self._processors

    def _rows(self, encounter_id: int) -> list[EncounterEventRow]:
        with self.unit_of_work() as s:
            return list(
                s.scalars(
                    select(EncounterEventRow)
                    .where(EncounterEventRow.encounter_id == encounter_id)
                    .order_by(EncounterEventRow.command_seq, EncounterEventRow.event_index)
                ).all()
            )

    def _live_command_seqs(self, encounter_id: int) -> list[int]:
        return [seq for seq, _ in self._live_commands(self._rows(encounter_id))]

    @staticmethod
    def _live_commands(rows: Sequence[EncounterEventRow]) -> list[tuple[int, Command]]:
        grouped: dict[int, list[EncounterEventRow]] = {}
        for row in rows:
            grouped.setdefault(row.command_seq, []).append(row)
        live: list[tuple[int, Command]] = []
        for seq, group in grouped.items():
            if group[0].kind == UNDO_KIND:
                undone = group[0].payload.get("undoes")
                if live and live[-1][0] == undone:
                    live.pop()
                continue
            events = tuple(Event.from_json({"kind": r.kind, "data": r.payload}) for r in group)
            live.append((seq, Command(group[0].command_name, events)))
        return live

    @_reads
    def load_commands(self, encounter_id: int) -> list[Command]:
        """Gets the encounter's live commands (undone ones left out), oldest first."""
        return [command for _, command in self._live_commands(self._rows(encounter_id))]


def _safe_label(url: str) -> str:
    try:
        return make_safe(url)
    except Exception:
        return "the database"


def make_safe(url: str) -> str:
    """Gets a URL with its password hidden, for messages."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _operational(exc: DBAPIError | sqlite3.Error, label: str) -> StoreError:
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    text = str(orig) if orig is not None else str(exc)
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return DatabaseLockedError(
            f"{label} is locked by another program or Combat Desk window; nothing was saved. "
            "Try again in a moment."
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
