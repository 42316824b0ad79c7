"""An encounter in play: its log kept in memory and every command saved as it happens.

The session is what the encounter workspace drives. A command is checked against the current
state first, then written to the store in one transaction, and only then applied in memory —
so a crash at any moment loses at most the command being written, and reopening the encounter
(:meth:`EncounterSession.resume`) continues at exactly the last saved command.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from core.fight.encounter import configure, resolve_state
from core.fight.log import Command, EncounterLog, EncounterState, LogError, new_command_id, replay
from core.model.dice import Roller
from core.model.values import Resolution
from core.roster.results import ROSTER_ID_KEY
from core.store import (
    AccessDeniedError,
    ConflictError,
    DatabaseLockedError,
    DatabaseUnavailableError,
    DiskFullError,
    EncounterEndedError,
    EncounterInfo,
    EncounterTakenOverError,
    Lease,
    LeaseHolder,
    NotFoundError,
    ReadOnlyDatabaseError,
    Store,
    StoreError,
)

# Refusals the database gave before storing anything; any other failure may have happened
# after the commit reached the server, so the save is retried (safe: commands have ids).
_SURE_NOTHING_STORED = (ConflictError, DatabaseLockedError, DiskFullError,
                        EncounterEndedError, NotFoundError, ReadOnlyDatabaseError)

Listener = Callable[[EncounterState], None]


class EncounterSession:
    """One encounter's log bound to its store rows."""

    def __init__(self, store: Store, info: EncounterInfo, log: EncounterLog,
                 last_seq: int = 0, holder: LeaseHolder | None = None,
                 live_seqs: Sequence[int] = ()) -> None:
        self._store = store
        self.holder = holder
        """This app's lease identity; None plays without a lease (the command line, tests)."""
        self.lease: Lease | None = None
        """The encounter's lease as last read (None: not taken or not asked)."""
        self.read_only: str | None = None
        """Why this window may only read the encounter (its database role is a player in the
        campaign), in words; None when it may play. Set before the lease is claimed: a reader
        never takes one, it watches like a window whose encounter another Combat Desk plays."""
        self.info = info
        self.log = log
        self._redo: list[Command] = []
        self._retry_ids: dict[tuple[str, int], str] = {}
        """The id an undo or redo that failed was tried with, by (kind, last number seen):
        tried again (Retry) it keeps its id, so a first try that was stored after all (the
        server died at the commit) is found as done instead of refused as out of date."""
        self._listeners: list[Listener] = []
        self._holding = 0
        self._missed = False
        self._seen = last_seq
        """The newest command number this window has seen: a save or undo that would not
        follow it (another window wrote since) is refused by the store."""
        self._pending: tuple[str, Callable[[], int | None]] | None = None
        """An action whose save failed twice and whose outcome is unknown (the answer was lost
        and the database could not be asked): its id, and how to ask whether it was stored.
        The next action first finds out, and shows it if it was."""
        self._live_seqs = list(live_seqs)
        """The stored number of each command in ``log``: an undo read from the store names the
        number it takes back."""

    @classmethod
    def start(
        cls,
        store: Store,
        campaign_id: int,
        name: str,
        system: str,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        holder: LeaseHolder | None = None,
    ) -> EncounterSession:
        """Creates a new encounter with its configuration as the first command (see
        :meth:`create`); with a ``holder`` it then takes the lease: nobody else plays it yet.
        """
        session = cls.create(store, campaign_id, name, system, options, seed, (), holder)
        if holder is not None:
            session.claim()
        return session

    @classmethod
    def create(
        cls,
        store: Store,
        campaign_id: int,
        name: str,
        system: str,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        commands: Sequence[Command] = (),
        holder: LeaseHolder | None = None,
    ) -> EncounterSession:
        """Creates a new encounter with its configuration and ``commands`` in one transaction.

        All of it is stored or none (a refused or cancelled start leaves no half-built
        encounter), so the whole call can be repeated. The commands are checked first
        (LogError, nothing written). The lease is not taken: see :meth:`claim`.
        """
        first = [configure(system, options, seed), *commands]
        log = EncounterLog()
        for command in first:
            log.execute(command)  # raises LogError before anything is written
        info = store.encounters.create(campaign_id, name, system, options, first)
        return cls(store, info, log, len(first), holder, range(1, len(first) + 1))

    @classmethod
    def resume(cls, store: Store, info: EncounterInfo,
               holder: LeaseHolder | None = None) -> EncounterSession:
        """Reopens an encounter at exactly its last saved command (the lease is not taken yet:
        see :meth:`claim`)."""
        last, live = store.commands.snapshot(info.id)
        return cls(store, info, EncounterLog([c for _, c in live]), last, holder,
                   [seq for seq, _ in live])

    @property
    def wait_limit(self) -> float:
        """About how many seconds one save waits at most on a busy or silent database: the
        store's limit, twice over (:meth:`_saved` tries a save of unknown outcome once more)."""
        return 2 * self._store.wait_limit

    # --- the lease: one window plays, the others watch (core.store.leases) ---------------------

    @property
    def watching(self) -> bool:
        """Tells whether this window only shows the fight: another Combat Desk holds the lease,
        or this window may only read the campaign (:attr:`read_only`)."""
        return self.read_only is not None or (
            self.lease is not None and not self.lease.held_by(self.holder))

    @property
    def holding(self) -> bool:
        """Tells whether this window holds the encounter's lease."""
        return self.lease is not None and self.lease.held_by(self.holder)

    def claim(self, take_over: bool = False) -> Lease:
        """Takes the lease unless another live holder has it (``take_over``: anyway).

        Returns the lease that holds; after a take-over the log is read again first, so this
        window goes on from the other's last command.
        """
        if self.read_only is not None:
            raise AccessDeniedError(self.read_only)  # the server would refuse the lease too
        if self.holder is None:
            raise StoreError("This window plays without a lease, so it cannot take one over.")
        self.lease = self._store.leases.take(self.info.id, self.holder, take_over)
        if self.holding:
            self.catch_up()
        return self.lease

    def heartbeat(self) -> Lease | None:
        """Renews the lease this window holds (None: it holds none).

        EncounterTakenOverError (naming who) once another Combat Desk took it over; from then
        on this session watches.
        """
        if self.holder is None or not self.holding:
            return None
        try:
            self.lease = self._store.leases.renew(self.info.id, self.holder)
        except EncounterTakenOverError:
            self._lost_lease()
            raise
        return self.lease

    def release(self) -> None:
        """Lets the encounter go (the window closes), if this window holds it."""
        if self.holder is not None and self.holding:
            self._store.leases.release(self.info.id, self.holder)
            self.lease = None

    def _lost_lease(self) -> None:
        self.lease = self._store.leases.current(self.info.id)
        if self.lease is not None and self.lease.held_by(self.holder):
            self.lease = None  # it came back to us meanwhile: nothing to show as lost

    def catch_up(self) -> bool:
        """Reads the encounter again if it moved on in the store (another window played).

        Returns True when something changed: the log is replaced by the stored one, this
        window's redo list is dropped, and listeners hear of it. A watching window also reads
        the lease again, so its banner says who plays now.
        """
        if self.read_only is not None:
            self.lease = self._store.leases.current(self.info.id)  # who plays it now, if anybody
        elif self.watching and self.lease is not None:
            # A holder that let go leaves no row: this window still only watches (Take Over
            # plays here), it does not start playing unasked.
            found = self._store.leases.current(self.info.id)
            self.lease = found if found is not None else replace(self.lease, live=False)
        elif self.lease is None and self.holder is not None:
            self.lease = self._store.leases.current(self.info.id)
        last = self._store.commands.last_seq(self.info.id)
        info = self._store.encounters.get(self.info.id)
        if last == self._seen and info.status == self.info.status:
            return False
        if last != self._seen:
            self._follow()
        self.info = info
        self._redo.clear()
        self._changed()
        return True

    def _follow(self) -> None:
        """Applies what was stored after the last command this window saw (another window's
        commands and undos): a long fight is not read and replayed whole every time."""
        for stored in self._store.commands.stored_after(self.info.id, self._seen):
            if stored.command is not None:
                self.log.execute(stored.command)
                self._live_seqs.append(stored.seq)
            elif self._live_seqs and self._live_seqs[-1] == stored.undoes:
                self.log.undo()
                self._live_seqs.pop()
            else:  # an undo of a command this window never had: read the log whole
                self._reload()
                return
            self._seen = stored.seq

    def _reload(self) -> None:
        last, live = self._store.commands.snapshot(self.info.id)
        self.log = EncounterLog([command for _, command in live])
        self._live_seqs = [seq for seq, _ in live]
        self._seen = last

    def _refuse_if_watching(self) -> None:
        if self.read_only is not None:
            raise AccessDeniedError(f"{self.read_only} Nothing was saved.")
        lease = self.lease
        if self.watching and lease is not None:
            where = (lease.words() if lease.live else f"no longer played in Combat Desk on "
                     f"{lease.holder.host} by {lease.holder.user}")
            raise EncounterTakenOverError(
                f"{self.info.name} is {where}, but this window only shows it, so nothing was "
                "saved. Use Take Over in its banner to play here.")

    # --- listening -----------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Calls ``listener`` with the new state after every change."""
        self._listeners.append(listener)

    @contextmanager
    def changes_held(self) -> Iterator[None]:
        """Holds the change notices of the block and sends one when it ends, on the thread
        that entered it: the app saves on a worker thread, and its listeners redraw windows."""
        self._holding += 1
        try:
            yield
        finally:
            self._holding -= 1
            if not self._holding and self._missed:
                self._missed = False
                self._changed()

    def _changed(self) -> None:
        if self._holding:
            self._missed = True
            return
        for listener in self._listeners:
            listener(self.log.state)

    # --- commands ------------------------------------------------------------------------------

    @property
    def state(self) -> EncounterState:
        """Gets the encounter's current state."""
        return self.log.state

    def _saved(self, save: Callable[[], int], action_id: str, what: str,
               stored: Callable[[], int | None]) -> None:
        """Runs a store write, retrying once when its outcome is unknown; notes its number.

        When the retry fails too, what was stored is found out before anything is said: a
        save whose commit reached the database although its answer was lost (a phantom
        commit) counts as saved. If the database cannot even be asked, the DM is told that
        it is not known, and the next action finds out first (:meth:`_settle`).
        """
        try:
            self._seen = save()
            return
        except EncounterTakenOverError:
            self._lost_lease()
            raise
        except _SURE_NOTHING_STORED:
            raise
        except StoreError:
            pass
        try:
            self._seen = save()  # the same id: stored at most once either way
            return
        except _SURE_NOTHING_STORED:
            raise
        except StoreError as failed:
            try:
                found = stored()
            except StoreError:
                self._pending = (action_id, stored)
                raise DatabaseUnavailableError(
                    f"Combat Desk cannot tell whether {what} was saved: the campaign database "
                    "did not answer, and its answer to the save was lost. Nothing is shown "
                    "changed here yet; before your next command Combat Desk asks the database "
                    "and shows it if it was saved. Check the network or the server, then try "
                    "again."
                ) from None
            if found is None:
                raise failed
            self._seen = found  # stored, only its answer was lost

    def _settle(self, action_id: str) -> bool:
        """Finds out whether the action whose outcome was unknown was stored, and shows it.

        Returns True when ``action_id`` (the action being tried now) is that action and it
        was stored: it is shown, and nothing is saved again. Raises StoreError (and keeps
        asking next time) while the database still cannot be asked.
        """
        if self._pending is None:
            return False
        pending, stored = self._pending
        self.catch_up()  # applies whatever was stored since, that action with it
        found = stored()
        self._pending = None
        return found is not None and pending == action_id

    @property
    def ended(self) -> bool:
        """Tells whether this encounter has ended (read-only until reopened)."""
        return self.info.ended

    def _refuse_if_ended(self) -> None:
        if self.info.ended:
            raise EncounterEndedError(
                f"{self.info.name} has ended, so nothing can be changed in it. Reopen it "
                "(Encounter › Reopen Encounter) to play on."
            )

    def end(self) -> EncounterInfo:
        """Marks the encounter ended; from then on it refuses commands until reopened."""
        self._refuse_if_watching()
        try:
            self.info = self._store.encounters.end(self.info.id, self._holder_id)
        except EncounterTakenOverError:
            self._lost_lease()
            raise
        self._redo.clear()
        self._changed()
        return self.info

    def reopen(self, baseline: Mapping[str, Any] | None) -> EncounterInfo:
        """Makes the ended encounter playable again; ``baseline`` is what its results were.

        Ending it again proposes only what changed after this (see
        :func:`core.roster.results.reopen_baseline`).
        """
        self._refuse_if_watching()  # an ended encounter has no lease; it is taken once reopened
        self.info = self._store.encounters.reopen(self.info.id, baseline)
        self._changed()
        return self.info

    @property
    def _holder_id(self) -> str | None:
        return self.holder.instance if self.holder is not None else None

    def _apply(self, command: Command) -> EncounterState:
        self._refuse_if_ended()
        self._refuse_if_watching()
        if self._settle(command.id):  # this very command was stored after all: shown now
            return self.log.state
        replay([command], self.log.state)  # raises LogError before anything is written
        self._saved(
            lambda: self._store.commands.append(self.info.id, command, self._seen,
                                                self._holder_id),
            command.id, f"'{command.name}'",
            lambda: self._store.commands.stored(self.info.id, command),
        )
        state = self.log.execute(command)
        self._live_seqs.append(self._seen)
        self._changed()
        return state

    def execute(self, command: Command) -> EncounterState:
        """Checks, saves, then applies a command (LogError/StoreError: nothing changed)."""
        state = self._apply(command)
        self._redo.clear()
        return state

    def undo(self) -> Command:
        """Undoes this window's last command in the store and in memory; it can be redone.

        If another window has written to the encounter since, nothing is undone and
        EncounterMovedOnError says so (the last command may not be this DM's own).
        """
        self._refuse_if_ended()
        self._refuse_if_watching()
        key = ("undo", self._seen)
        undo_id = self._retry_ids.setdefault(key, new_command_id())
        commands = self.log.commands
        if self._settle(undo_id) and commands:  # this very undo was stored after all
            self._retry_ids.clear()
            self._redo.append(commands[-1])  # shown undone now; it can be redone
            return commands[-1]
        self._saved(
            lambda: self._store.commands.undo(self.info.id, self._seen, undo_id,
                                              self._holder_id),
            undo_id, "the undo",
            lambda: self._store.commands.undone(self.info.id, undo_id),
        )
        self._retry_ids.clear()
        command = self.log.undo()
        if self._live_seqs:
            self._live_seqs.pop()
        self._redo.append(command)
        self._changed()
        return command

    def redo(self) -> Command:
        """Applies the last undone command again (saved as a new command)."""
        if not self._redo:
            raise LogError("nothing to redo")
        command = self._redo[-1]
        key = ("redo", self._seen)
        redo_id = self._retry_ids.setdefault(key, new_command_id())
        self._apply(replace(command, id=redo_id))  # a new command in the store
        self._retry_ids.clear()
        if self._redo:  # only once it is saved: a failed redo can be tried again (a redo
            self._redo.pop()  # found stored after a lost answer came with the log read anew)
        return command

    @property
    def can_redo(self) -> bool:
        """Tells whether an undone command is waiting to be redone."""
        return bool(self._redo)

    def resolution(self) -> Resolution:
        """Resolves the encounter as its log stands (dice not given come from its seed)."""
        return resolve_state(self.log.state, Roller.seeded(self.log.state.config.get("seed")))


def encounters_holding(
    store: Store, campaign_id: int, entry_ids: Collection[int], but: int | None = None
) -> dict[int, list[str]]:
    """Gets, for each of ``entry_ids`` fighting in an open encounter, those encounters' names.

    ``but`` leaves one encounter out (the one being started or shown). Read from the store,
    so encounters open in another Combat Desk window count too.
    """
    wanted = set(entry_ids)
    found: dict[int, list[str]] = {}
    open_fights = [info for info in store.encounters.all(campaign_id)
                   if not info.ended and info.id != but]
    logs = store.commands.load_many([info.id for info in open_fights])
    for info in open_fights:
        state = EncounterLog(logs[info.id]).state
        for combatant in state.combatants.values():
            linked = combatant.extra.get(ROSTER_ID_KEY)
            if isinstance(linked, int) and linked in wanted and info.name not in found.get(
                linked, []
            ):
                found.setdefault(linked, []).append(info.name)
    return found
