"""Undoable roster edits: each command's redo()/undo() is one Store call (one transaction).

A command that the store refuses (a conflict with another Combat Desk, a vanished entry) marks
itself obsolete, so Qt drops it from the stack, and reports the error through the context.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from PySide6.QtGui import QUndoCommand, QUndoStack

from core.roster.entries import MonsterTemplate, RosterEntry
from core.roster.merge import ImportChanges
from desktop.store_call import soon
from desktop.store_retry import AskRetry, is_retryable, with_retry

if TYPE_CHECKING:  # core.store brings SQLAlchemy: imported where it is used
    from core.store import AppliedImport, Store, StoreError


class RosterContext:
    """What every roster command needs: the store, the campaign, and the window's callbacks.

    ``versions`` (entries) and ``template_versions`` hold the version this window last wrote
    for each record, so undoing and redoing chains of edits stays version-checked against other
    app instances.
    """

    def __init__(
        self,
        store: Store,
        campaign_id: int,
        on_changed: Callable[[int | None], None],
        on_failed: Callable[[StoreError, RosterCommand], None],
        on_template_changed: Callable[[int | None], None] | None = None,
    ) -> None:
        self.store = store
        self.campaign_id = campaign_id
        self.on_changed = on_changed
        self.on_failed = on_failed
        self.on_template_changed = on_template_changed or on_changed
        self.versions: dict[int, int] = {}
        self.template_versions: dict[int, int] = {}
        self.ask_retry: AskRetry | None = None
        """Asks Retry / Cancel when the database is busy or away (None: fail at once)."""
        self.on_cancelled: Callable[[StoreError, RosterCommand], None] | None = None
        """Tells the DM (in words, without a second dialog) that a command they cancelled was
        not carried out."""
        self.stack: QUndoStack | None = None
        """The undo stack the commands are on: a cancelled undo (or redo) steps it back."""

    def current(self, entry: RosterEntry) -> RosterEntry:
        """Gets ``entry`` carrying the version this window last saw written."""
        assert entry.id is not None
        return replace(entry, version=self.versions.get(entry.id, entry.version))

    def wrote(self, entry: RosterEntry) -> None:
        """Remembers the version the store gave ``entry``."""
        if entry.id is not None:
            self.versions[entry.id] = entry.version

    def current_template(self, template: MonsterTemplate) -> MonsterTemplate:
        """Gets ``template`` carrying the version this window last saw written."""
        assert template.id is not None
        return replace(
            template, version=self.template_versions.get(template.id, template.version)
        )

    def wrote_template(self, template: MonsterTemplate) -> None:
        """Remembers the version the store gave ``template``."""
        if template.id is not None:
            self.template_versions[template.id] = template.version


Record = RosterEntry | MonsterTemplate


@dataclass(frozen=True, slots=True)
class Attempt:
    """What a command last asked the store to do: save ``values``, or remove them."""

    action: Literal["save", "remove", "restore"]
    values: Record


class RosterCommand(QUndoCommand):
    """Base: runs a store call, and on refusal drops itself and reports why.

    ``attempt`` tells the window, when the store refuses, what this command was writing: the
    DM's version to set beside the one saved by someone else.
    """

    def __init__(self, ctx: RosterContext, text: str) -> None:
        super().__init__(text)
        self.ctx = ctx
        self.failure: StoreError | None = None
        self.attempt: Attempt | None = None
        self._stored_once = False
        self._applied = False
        """True while the store holds this command's change (redone, not undone)."""
        self._step_back = False
        """The next redo or undo only puts the stack back: the store call was cancelled."""

    def _notify(self, changed: int | None) -> None:
        self.ctx.on_changed(changed)

    def _run(self, action: Callable[[], int | None]) -> None:
        if self._step_back:
            self._step_back = False  # the store never changed: only the stack moves back
            return
        # Applied now, this run takes it back (undo); otherwise it saves it (redo).
        doing, place = ("Undoing", "in") if self._applied else ("Saving", "to")
        what = f"{doing} '{self.text()}' {place} the campaign database"
        from core.store import StoreError  # after the window's first frame (desktop/app.py)

        try:
            changed = with_retry(action, self.ctx.ask_retry, what, self.ctx.store.wait_limit)
        except StoreError as exc:
            self.failure = exc
            if is_retryable(exc) and self.ctx.ask_retry is not None:
                # The DM saw the failure and chose Cancel: nothing was saved; show the roster
                # as it is saved, and a line in the status bar instead of a second message.
                self._cancelled()
                self.ctx.on_changed(None)
                if self.ctx.on_cancelled is not None:
                    self.ctx.on_cancelled(exc, self)
            else:
                self.setObsolete(True)
                self.ctx.on_failed(exc, self)
            return
        self._stored_once, self._applied = True, not self._applied
        self._notify(changed)

    def _cancelled(self) -> None:
        """Keeps the undo history as it was: a first redo never happened, so the command goes;
        a later undo or redo is stepped back once Qt has moved the stack's index."""
        stack = self.ctx.stack
        if not self._stored_once or stack is None:
            self.setObsolete(True)
            return
        self._step_back = True
        soon(stack.redo if self._applied else stack.undo)


class AddEntryCommand(RosterCommand):
    """Adds an entry; undo removes it, redo puts the same row (same id) back."""

    def __init__(self, ctx: RosterContext, entry: RosterEntry) -> None:
        super().__init__(ctx, f"Add {entry.name}")
        self.entry = entry
        self.saved: RosterEntry | None = None

    def redo(self) -> None:
        def act() -> int | None:
            if self.saved is None:
                self.attempt = Attempt("save", self.entry)
                self.saved = self.ctx.store.roster.add(self.ctx.campaign_id, self.entry)
            else:
                self.attempt = Attempt("restore", self.saved)
                self.saved = self.ctx.store.roster.restore(
                    self.ctx.campaign_id, self.ctx.current(self.saved)
                )
            self.ctx.wrote(self.saved)
            return self.saved.id

        self._run(act)

    def undo(self) -> None:
        def act() -> int | None:
            assert self.saved is not None and self.saved.id is not None
            current = self.ctx.current(self.saved)
            self.attempt = Attempt("remove", current)
            self.ctx.store.roster.remove(self.saved.id, current.version)
            self.saved = current
            return None

        self._run(act)


class EditEntryCommand(RosterCommand):
    """Saves an edited entry; undo saves the values it had before."""

    def __init__(
        self,
        ctx: RosterContext,
        before: RosterEntry,
        after: RosterEntry,
        text: str | None = None,
    ) -> None:
        super().__init__(ctx, text or f"Edit {after.name}")
        self.before = before
        self.after = after
        self._first = True

    def _save(self, values: RosterEntry) -> int | None:
        # The first save checks against the version the editor loaded; later ones against ours.
        version = self.before.version if self._first else self.ctx.current(values).version
        versioned = replace(values, version=version)
        self.attempt = Attempt("save", versioned)
        saved = self.ctx.store.roster.update(versioned)
        self._first = False
        self.ctx.wrote(saved)
        return saved.id

    def redo(self) -> None:
        self._run(lambda: self._save(self.after))

    def undo(self) -> None:
        self._run(lambda: self._save(self.before))


class RemoveEntryCommand(RosterCommand):
    """Removes an entry; undo puts it back with its id and version."""

    def __init__(self, ctx: RosterContext, entry: RosterEntry) -> None:
        super().__init__(ctx, f"Remove {entry.name}")
        self.entry = entry

    def redo(self) -> None:
        def act() -> int | None:
            current = self.ctx.current(self.entry)
            assert current.id is not None
            self.attempt = Attempt("remove", current)
            self.ctx.store.roster.remove(current.id, current.version)
            self.entry = current
            return None

        self._run(act)

    def undo(self) -> None:
        def act() -> int | None:
            self.attempt = Attempt("restore", self.entry)
            restored = self.ctx.store.roster.restore(self.ctx.campaign_id, self.entry)
            self.ctx.wrote(restored)
            return restored.id

        self._run(act)


class ApplyResultsCommand(RosterCommand):
    """Writes an encounter's accepted results (and a session-log line) in one transaction."""

    def __init__(
        self,
        ctx: RosterContext,
        before: Sequence[RosterEntry],
        after: Sequence[RosterEntry],
        summary: str,
        details: Sequence[str],
    ) -> None:
        super().__init__(ctx, summary)
        self.before = list(before)
        self.after = list(after)
        self.details = list(details)
        self._first = True

    def _write(self, values: Sequence[RosterEntry], summary: str) -> list[RosterEntry]:
        return self.ctx.store.roster.apply_results(
            self.ctx.campaign_id, values, summary, self.details)

    def _apply(self, values: Sequence[RosterEntry], summary: str) -> int | None:
        # The first write checks the versions loaded when the results were proposed.
        versioned = list(values) if self._first else [self.ctx.current(v) for v in values]
        saved = self._write(versioned, summary)
        self._first = False
        for entry in saved:
            self.ctx.wrote(entry)
        return None

    def redo(self) -> None:
        self._run(lambda: self._apply(self.after, self.text()))

    def undo(self) -> None:
        self._run(lambda: self._apply(self.before, f"Undone: {self.text()}"))


# --- monster templates ---------------------------------------------------------------------------


class TemplateCommand(RosterCommand):
    """Base of the template commands: they tell the window which template changed."""

    def _notify(self, changed: int | None) -> None:
        self.ctx.on_template_changed(changed)


class AddTemplateCommand(TemplateCommand):
    """Adds a monster template; undo deletes it, redo puts the same row (same id) back."""

    def __init__(self, ctx: RosterContext, template: MonsterTemplate) -> None:
        super().__init__(ctx, f"Add template {template.name}")
        self.template = template
        self.saved: MonsterTemplate | None = None

    def redo(self) -> None:
        def act() -> int | None:
            if self.saved is None:
                self.attempt = Attempt("save", self.template)
                self.saved = self.ctx.store.templates.add(self.ctx.campaign_id, self.template)
            else:
                self.attempt = Attempt("restore", self.saved)
                self.saved = self.ctx.store.templates.restore(
                    self.ctx.campaign_id, self.ctx.current_template(self.saved)
                )
            self.ctx.wrote_template(self.saved)
            return self.saved.id

        self._run(act)

    def undo(self) -> None:
        def act() -> int | None:
            assert self.saved is not None and self.saved.id is not None
            current = self.ctx.current_template(self.saved)
            self.attempt = Attempt("remove", current)
            self.ctx.store.templates.remove(self.saved.id, current.version)
            self.saved = current
            return None

        self._run(act)


class EditTemplateCommand(TemplateCommand):
    """Saves an edited template; undo saves the values it had before."""

    def __init__(
        self,
        ctx: RosterContext,
        before: MonsterTemplate,
        after: MonsterTemplate,
        text: str | None = None,
    ) -> None:
        super().__init__(ctx, text or f"Edit template {after.name}")
        self.before = before
        self.after = after
        self._first = True

    def _save(self, values: MonsterTemplate) -> int | None:
        # The first save checks against the version the editor loaded; later ones against ours.
        version = self.before.version if self._first else self.ctx.current_template(values).version
        versioned = replace(values, version=version)
        self.attempt = Attempt("save", versioned)
        saved = self.ctx.store.templates.update(versioned)
        self._first = False
        self.ctx.wrote_template(saved)
        return saved.id

    def redo(self) -> None:
        self._run(lambda: self._save(self.after))

    def undo(self) -> None:
        self._run(lambda: self._save(self.before))


class RemoveTemplateCommand(TemplateCommand):
    """Deletes a monster template; undo puts it back with its id and version."""

    def __init__(self, ctx: RosterContext, template: MonsterTemplate) -> None:
        super().__init__(ctx, f"Delete template {template.name}")
        self.template = template

    def redo(self) -> None:
        def act() -> int | None:
            current = self.ctx.current_template(self.template)
            assert current.id is not None
            self.attempt = Attempt("remove", current)
            self.ctx.store.templates.remove(current.id, current.version)
            self.template = current
            return None

        self._run(act)

    def undo(self) -> None:
        def act() -> int | None:
            self.attempt = Attempt("restore", self.template)
            restored = self.ctx.store.templates.restore(self.ctx.campaign_id, self.template)
            self.ctx.wrote_template(restored)
            return restored.id

        self._run(act)


# --- batches: imports, multi-deletes, rests ------------------------------------------------------


def names_text(names: Sequence[str], limit: int = 3) -> str:
    """Gets "A", "A and B", "A, B and C" or "A, B, C and 4 more" for undo texts and questions."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    if len(names) <= limit:
        return f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{', '.join(names[:limit])} and {len(names) - limit} more"


class ImportCommand(RosterCommand):
    """Writes one import (adds and updates, entries and templates) in one transaction; undo
    takes all of it back, leaving the campaign's rows exactly as they were."""

    def __init__(self, ctx: RosterContext, changes: ImportChanges, source: str) -> None:
        super().__init__(ctx, changes.summary(source))
        self.changes = changes
        self.applied: AppliedImport | None = None

    def _remember(
        self, entries: Sequence[RosterEntry], templates: Sequence[MonsterTemplate]
    ) -> None:
        for entry in entries:
            self.ctx.wrote(entry)
        for template in templates:
            self.ctx.wrote_template(template)

    def redo(self) -> None:
        def act() -> int | None:
            changes = self.changes if self.applied is None else self.applied.changes
            self.applied = self.ctx.store.batches.apply_import(
                self.ctx.campaign_id, changes, self.text(), changes.details()
            )
            written = self.applied.changes
            self._remember(
                [*written.added_entries, *(after for _, after in written.updated_entries)],
                [*written.added_templates, *(after for _, after in written.updated_templates)],
            )
            return None

        self._run(act)

    def undo(self) -> None:
        def act() -> int | None:
            assert self.applied is not None
            self.ctx.store.batches.undo_import(self.ctx.campaign_id, self.applied)
            written = self.applied.changes
            self._remember(
                [before for before, _ in written.updated_entries],
                [before for before, _ in written.updated_templates],
            )
            return None

        self._run(act)

    def _notify(self, changed: int | None) -> None:
        self.ctx.on_changed(changed)
        self.ctx.on_template_changed(None)


class RemoveRecordsCommand(RosterCommand):
    """Removes several entries and templates in one transaction; undo puts all of them back."""

    def __init__(
        self,
        ctx: RosterContext,
        entries: Sequence[RosterEntry],
        templates: Sequence[MonsterTemplate] = (),
    ) -> None:
        names = [e.name for e in entries] + [f"the {t.name} template" for t in templates]
        super().__init__(ctx, f"Remove {names_text(names)}")
        self.entries = list(entries)
        self.templates = list(templates)

    def redo(self) -> None:
        def act() -> int | None:
            self.entries = [self.ctx.current(e) for e in self.entries]
            self.templates = [self.ctx.current_template(t) for t in self.templates]
            self.ctx.store.batches.remove(self.entries, self.templates)
            return None

        self._run(act)

    def undo(self) -> None:
        def act() -> int | None:
            self.ctx.store.batches.restore(self.ctx.campaign_id, self.entries, self.templates)
            return None

        self._run(act)

    def _notify(self, changed: int | None) -> None:
        self.ctx.on_changed(changed)
        self.ctx.on_template_changed(None)


class SaveEntriesCommand(ApplyResultsCommand):
    """Saves several entries at once with a session-log line (a rest); undo saves them back."""

    def _write(self, values: Sequence[RosterEntry], summary: str) -> list[RosterEntry]:
        return self.ctx.store.batches.save_entries(
            self.ctx.campaign_id, values, summary, self.details)
