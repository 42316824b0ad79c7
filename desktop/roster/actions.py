"""The roster's actions (menu items with shortcuts) and what they do, for the main window."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QProgressDialog, QVBoxLayout

from core.fight.log import EncounterState
from core.model.values import Kind
from core.roster.entries import MonsterTemplate, RosterEntry, RosterStatus
from desktop.last_folder import ROSTER, remember, start_path
from desktop.plain_text import plain
from desktop.roster.commands import (
    AddEntryCommand,
    AddTemplateCommand,
    ApplyResultsCommand,
    EditEntryCommand,
    EditTemplateCommand,
    ImportCommand,
    RemoveEntryCommand,
    RemoveRecordsCommand,
    RemoveTemplateCommand,
    RosterCommand,
    SaveEntriesCommand,
    names_text,
)
from desktop.roster.tree_model import TEMPLATES
from desktop.store_retry import is_retryable

if TYPE_CHECKING:
    from core.roster.kills import Kill
    from core.roster.merge import ImportChanges, ImportPlan
    from desktop.roster.dialogs import SessionLogDialog, StampDialog
    from desktop.roster.import_dialog import DuplicatesDialog
    from desktop.roster.kills_table import KillsBox
    from desktop.roster.rest_dialog import RestDialog
    from desktop.roster.results_dialog import ResultsDialog
    from desktop.roster.window import RosterWindow

# Dialogs, import/export and results are imported where they are used: a DM who only looks at
# the roster should not wait for them at start-up (bench/bench_startup.py); core.store too, as
# it brings SQLAlchemy, which the main window's first frame does not wait for (desktop/app.py).

PROGRESS_ABOVE = 300
"""Imports of more rows than this show a progress dialog."""


class RosterActions:
    """Creates the roster's QActions and carries them out against the window's campaign."""

    def __init__(self, window: RosterWindow) -> None:
        self.window = window
        self.widget = window.window()
        """The main window as a widget: the actions and dialogs belong to it."""
        self.new_action = self._action(
            "&New Entry…", self.new_entry, ["Insert", "Ctrl+Shift+N"], "Add a PC, henchman…"
        )
        self.new_template_action = self._action(
            "New &Monster Template…",
            self.new_template,
            ["Ctrl+Shift+M"],
            "Add a kind of monster to stamp numbered combatants from",
        )
        self.edit_action = self._action(
            "&Edit Entry", self.edit_entry, ["Ctrl+E"], "Edit the selected entry in the form"
        )
        self.remove_action = self._action(
            "&Remove…",
            self.remove_current,
            ["Delete"],
            "Remove the selected entries or templates (Shift/Ctrl+click picks several)",
        )
        # Delete acts on the tree only: in a text field it deletes characters.
        self.remove_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        window.roster_panel.view.addAction(self.remove_action)
        self.stamp_action = self._action(
            "&Stamp Monsters…", self.stamp_current, ["Ctrl+T"], "Numbered monsters from a template"
        )
        self.import_action = self._action(
            "&Import…", self.ask_import, ["Ctrl+I"], "Import entries from JSON or CSV"
        )
        self.export_action = self._action(
            "E&xport…", self.ask_export, ["Ctrl+Shift+E"], "Export the roster as JSON or CSV"
        )
        self.example_action = self._action(
            "Export Ex&ample File…", self.ask_example, [],
            "Write an example roster file (CSV or JSON) to fill in and import",
        )
        self.rest_action = self._action(
            "Re&st…", self.rest_selected, [],
            "The selected entries rest: spent spells come back, HP too if you tick it",
        )  # fmt: skip
        self.rest_party_action = self._action(
            "Rest the &Party…", self.rest_party, [],
            "Everyone on the party side rests: spent spells come back, HP too if you tick it",
        )  # fmt: skip
        self.log_action = self._action(
            "Session &Log", self.show_session_log, ["Ctrl+L"], "What changed, and when"
        )
        self.find_action = self._action(
            "&Find", self.focus_filter, ["Ctrl+F"], "Filter the roster by name"
        )
        self.dialog: object = None  # the last non-modal dialog opened (tests reach it here)

    def _action(
        self, text: str, slot: object, keys: Sequence[str], tip: str
    ) -> QAction:
        action = QAction(text, self.widget)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())  # type: ignore[operator]
        return action

    def fill_menu(self, menu: QMenu) -> None:
        """Adds the roster actions to ``menu``."""
        for action in (
            self.new_action,
            self.new_template_action,
            self.edit_action,
            self.remove_action,
        ):
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.stamp_action)
        menu.addAction(self.rest_action)
        menu.addAction(self.rest_party_action)
        menu.addSeparator()
        for action in (self.import_action, self.export_action, self.example_action,
                       self.log_action):
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.find_action)

    # --- editing ---------------------------------------------------------------------------------

    def new_entry(self) -> None:
        """Opens the form on a blank entry of the selected group's kind (or a new template)."""
        group = self.window.roster_panel.current_group()
        if group == TEMPLATES:
            self.new_template()
            return
        if not self.window.confirm_unsaved_edits():
            return
        kind = group if isinstance(group, Kind) else Kind.PC
        side = "monsters" if kind is Kind.MONSTER else "party"
        self.window.editor_dock.show()
        editor = self.window.show_in_editor(RosterEntry(name="", kind=kind, side=side), new=True)
        editor.focus_first_field()

    def new_template(self) -> None:
        """Opens the template form on a blank monster template."""
        if not self.window.confirm_unsaved_edits():
            return
        self.window.editor_dock.show()
        editor = self.window.show_in_editor(MonsterTemplate(name="", hit_dice="1d8"), new=True)
        editor.focus_first_field()

    def edit_entry(self) -> None:
        """Puts the cursor in the form of the selected entry or template."""
        item = self.window.roster_panel.current_item()
        editor = self.window.current_editor
        if isinstance(item, RosterEntry | MonsterTemplate) and not (
            editor.is_dirty and self.window.same_record(item, editor.before)
        ):
            editor = self.window.show_in_editor(item)
        self.window.editor_dock.show()
        self.window.editor_dock.raise_()
        editor.focus_first_field()

    def save(self, before: RosterEntry | None, after: RosterEntry) -> None:
        """Pushes the command that adds or saves an entry (the command writes to the store)."""
        ctx = self.window.ctx
        if ctx is None:
            return
        if before is None:
            self.window.undo_stack.push(AddEntryCommand(ctx, after))
        elif before != after:
            self.window.undo_stack.push(EditEntryCommand(ctx, before, after))

    def save_template(self, before: MonsterTemplate | None, after: MonsterTemplate) -> None:
        """Pushes the command that adds or saves a monster template."""
        ctx = self.window.ctx
        if ctx is None:
            return
        if before is None:
            self.window.undo_stack.push(AddTemplateCommand(ctx, after))
        elif before != after:
            self.window.undo_stack.push(EditTemplateCommand(ctx, before, after))

    def push(self, command: RosterCommand) -> None:
        """Pushes a roster command with the roster shown, so Ctrl+Z takes back this command and
        not the last one of an encounter tab."""
        self.window.tabs.setCurrentWidget(self.window.roster_panel)
        self.window.undo_group.setActiveStack(self.window.undo_stack)
        self.window.undo_stack.push(command)

    def remove_current(self) -> None:
        """Asks, then removes the selected entries and templates (one undoable step)."""
        selected = self.window.roster_panel.selected_items()
        if len(selected) > 1:
            self._remove_several(selected)
            return
        item = selected[0] if selected else None
        ctx = self.window.ctx
        if isinstance(item, MonsterTemplate) and ctx is not None:
            self._delete_template(item)
            return
        if not isinstance(item, RosterEntry) or ctx is None:
            self.window.statusBar().showMessage(
                "Select a roster entry or a monster template to remove.", 4000
            )
            return
        fighting = self._fighting_text([item])
        if fighting is None:
            return
        answer = QMessageBox.question(
            self.widget,
            "Remove entry",
            plain(f"{fighting}Remove {item.name} from the roster? (Ctrl+Z brings them back.)"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.push(RemoveEntryCommand(ctx, item))

    def _remove_several(self, items: Sequence[RosterEntry | MonsterTemplate]) -> None:
        ctx = self.window.ctx
        if ctx is None:
            return
        entries = [i for i in items if isinstance(i, RosterEntry)]
        templates = [i for i in items if isinstance(i, MonsterTemplate)]
        names = [e.name for e in entries] + [f"the {t.name} template" for t in templates]
        fighting = self._fighting_text(entries)
        if fighting is None:
            return
        answer = QMessageBox.question(
            self.widget,
            "Remove entries",
            plain(f"{fighting}Remove {len(names)} from the campaign: {names_text(names, 8)}? "
                  "(Ctrl+Z brings them all back.)"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.push(RemoveRecordsCommand(ctx, entries, templates))

    def _fighting_text(self, entries: Sequence[RosterEntry]) -> str | None:
        """Gets the warning for entries fighting in an open encounter ("" if none; None: the
        store could not be read, and nothing is removed)."""
        from core.play.session import encounters_holding
        from core.store import StoreError

        campaign = self.window.campaign
        ids = {e.id: e.name for e in entries if e.id is not None}
        if campaign is None or not ids:
            return ""
        try:
            holding = self.window.store_call(
                lambda: encounters_holding(self.window.store, campaign.id, list(ids)))
        except StoreError as exc:
            self.window.store_failed(exc, "Nothing was removed")
            return None
        if not holding:
            return ""
        lines = [f"{ids[i]} is fighting in {names_text(fights, 4)}, which "
                 f"{'is' if len(fights) == 1 else 'are'} still open." for i, fights in
                 holding.items()]
        return ("\n".join(lines) + "\nIf removed, what the fight does to them cannot be "
                "written to the roster when it ends: it goes to the session log only (Ctrl+Z "
                "on the removal, before the fight ends, lets it be written).\n\n")

    # --- rest ------------------------------------------------------------------------------------

    def rest_selected(self) -> RestDialog | None:
        """Opens the Rest dialog for the selected roster entries."""
        entries = [
            i for i in self.window.roster_panel.selected_items() if isinstance(i, RosterEntry)
        ]
        if not entries:
            self.window.statusBar().showMessage("Select the roster entries who rest.", 4000)
            return None
        title = f"Rest {entries[0].name}" if len(entries) == 1 else f"Rest {len(entries)}"
        return self._open_rest(entries, title)

    def rest_party(self) -> RestDialog | None:
        """Opens the Rest dialog for everyone on the party side who is not dead."""
        entries = [
            e for e in self.window.entries
            if e.side == "party" and e.status is not RosterStatus.DEAD
        ]  # fmt: skip
        if not entries:
            self.window.statusBar().showMessage("Nobody on the party side can rest.", 4000)
            return None
        return self._open_rest(entries, "Rest the party")

    def _open_rest(self, entries: Sequence[RosterEntry], title: str) -> RestDialog:
        from desktop.roster.rest_dialog import RestDialog

        dialog = RestDialog(entries, title, self.widget)
        dialog.accepted.connect(lambda: self._on_rested(dialog, title))
        dialog.open()
        self.dialog = dialog
        return dialog

    def _on_rested(self, dialog: RestDialog, title: str) -> None:
        from desktop.roster.rest_dialog import rest_line

        ctx = self.window.ctx
        pairs = dialog.results()
        if ctx is None:
            return
        if not pairs:
            self.window.statusBar().showMessage(
                f"{title}: nothing to restore (no spent spells, HP as they were).", 6000
            )
            return
        before = [b for b, _ in pairs]
        after = [a for _, a in pairs]
        lines = [rest_line(b, a) for b, a in pairs]
        self.push(SaveEntriesCommand(ctx, before, after, title, lines))
        self.window.statusBar().showMessage(f"{title}: {'; '.join(lines)}.", 8000)

    def _delete_template(self, template: MonsterTemplate) -> None:
        ctx = self.window.ctx
        assert ctx is not None
        answer = QMessageBox.question(
            self.widget,
            "Delete template",
            plain(f"Delete the {template.name} monster template? Monsters already stamped from "
                  "it stay as they are. (Ctrl+Z brings the template back.)"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.push(RemoveTemplateCommand(ctx, template))

    def focus_filter(self) -> None:
        """Puts the cursor in the roster's name filter."""
        self.window.roster_panel.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.window.roster_panel.filter_edit.selectAll()

    # --- templates -------------------------------------------------------------------------------

    def stamp_current(self) -> StampDialog | None:
        """Opens the stamp dialog (non-modal) for the selected monster template."""
        item = self.window.roster_panel.current_item()
        if not isinstance(item, MonsterTemplate):
            self.window.statusBar().showMessage("Select a monster template to stamp.", 4000)
            return None
        from desktop.roster.dialogs import StampDialog

        open_names = self.window.encounter_actions.open_names()
        dialog = StampDialog(item, parent=self.widget, targets=open_names)
        dialog.accepted.connect(lambda: self._on_stamped(dialog))
        dialog.open()
        self.dialog = dialog
        return dialog

    def _on_stamped(self, dialog: StampDialog) -> None:
        """Puts the stamped monsters into the encounter chosen, HP as rolled or typed."""
        combatants = dialog.combatants
        template = dialog.template
        totals = ", ".join(str(c.hp) for c in combatants)
        encounters = self.window.encounter_actions
        if dialog.target.currentIndex() == 0:
            start = encounters.start_with(template.name, len(combatants), totals)
            if start is not None:
                self.dialog = start
            return
        name = dialog.target.currentText()
        added = encounters.add_stamped(name, template, combatants)
        if added is None:
            self.window.statusBar().showMessage(f"{name} is no longer open; nothing added.", 8000)
            return
        summary = ", ".join(f"{c.name} ({c.hp} hp)" for c in added)
        self.window.statusBar().showMessage(f"Added {summary} to {name}.", 15000)

    # --- results ---------------------------------------------------------------------------------

    def review_results(
        self,
        state: EncounterState,
        title: str = "Encounter",
        spells_cast: Mapping[str, Sequence[str]] | None = None,
        baseline: Mapping[str, Mapping[str, object]] | None = None,
        roster: Sequence[RosterEntry] | None = None,
        end: Callable[[], bool] | None = None,
        spells_lost: Mapping[str, Sequence[str]] | None = None,
    ) -> ResultsDialog | None:
        """Opens the roster changes an encounter made, beside the roster as it is now.

        The roster (``roster``: as the caller just read it) is read from the database, not
        from this window, so that a change saved by another window since the fight began is
        seen and offered as a choice. ``end`` ends the encounter: called when the DM applies
        the results (or at once when there are none); Cancel leaves the encounter open.
        """
        from core.roster.kills import encounter_kills
        from core.roster.results import defeated_in, propose_results
        from core.store import StoreError
        from desktop.roster.results_dialog import ResultsDialog

        campaign = self.window.campaign
        if roster is None:
            try:
                roster = (self.window.store_call(
                    lambda: self.window.store.roster.entries(campaign.id))
                          if campaign else self.window.entries)
            except StoreError as exc:
                self.window.store_failed(exc, f"The results of {title} were not offered")
                return None
        roster = list(roster)
        changes = propose_results(roster, state, spells_cast, baseline, spells_lost)
        kills = encounter_kills(state, self.window.templates, defeated_in(baseline))
        if not changes and not kills:
            if end is None or end():
                self.window.statusBar().showMessage(
                    f"{title}: nothing to change in the roster.", 5000)
            return None
        dialog = ResultsDialog(changes, self.widget, title)
        if end is not None:
            dialog.set_ending(True)
        kills_box = self._add_kills(dialog, kills)
        dialog.accepted.connect(
            lambda: self._on_results_accepted(dialog, title, roster, kills_box, end))
        if end is not None:
            dialog.rejected.connect(lambda: self.window.statusBar().showMessage(
                f"{title} was not ended: it stays open, and nothing was written to the roster.",
                8000))
        dialog.open()
        self.dialog = dialog
        return dialog

    @staticmethod
    def _add_kills(dialog: ResultsDialog, kills: Sequence[Kill]) -> KillsBox | None:
        """Puts the kills, with XP to confirm or type, above the results dialog's buttons."""
        if not kills:
            return None
        from desktop.roster.kills_table import KillsBox

        box = KillsBox(kills, dialog)
        layout = dialog.layout()
        if isinstance(layout, QVBoxLayout):
            layout.insertWidget(layout.count() - 1, box)
        return box

    def _on_results_accepted(
        self, dialog: ResultsDialog, title: str, roster: Sequence[RosterEntry],
        kills_box: KillsBox | None = None, end: Callable[[], bool] | None = None,
    ) -> None:
        from core.roster.kills import kill_lines

        ctx = self.window.ctx
        if end is not None and not end():
            return  # not ended (the reason is shown): nothing is written, the fight stays open
        accepted = dialog.accepted_changes()
        kills = kill_lines(kills_box.kills_with_xp()) if kills_box is not None else []
        if ctx is None or not (accepted or kills):
            return
        from core.roster.results import apply_changes

        after = apply_changes(roster, accepted)
        ids = {e.id for e in after}
        before = [e for e in roster if e.id in ids]
        command = ApplyResultsCommand(
            ctx, before, after, f"Results of {title}", [c.description for c in accepted] + kills
        )
        self.push(command)
        if command.failure is not None and is_retryable(command.failure):
            dialog.open()  # not written: the results stay on offer, ticked as the DM left them

    def show_session_log(self) -> SessionLogDialog | None:
        """Opens the campaign's session log (non-modal)."""
        from core.store import StoreError

        campaign = self.window.campaign
        if campaign is None:
            return None
        try:
            log = self.window.store_call(lambda: self.window.store.roster.session_log(campaign.id))
        except StoreError as exc:
            self.window.store_failed(exc, "The session log was not opened")
            return None
        from desktop.roster.dialogs import SessionLogDialog

        dialog = SessionLogDialog(log, self.widget)
        dialog.open()
        self.dialog = dialog
        return dialog

    # --- import / export -------------------------------------------------------------------------

    def ask_import(self) -> None:
        """Asks for a file and imports it."""
        settings = self.window._settings
        path, _ = QFileDialog.getOpenFileName(
            self.widget, "Import roster", start_path(settings, ROSTER),
            "Roster files (*.json *.csv);;All files (*)"
        )
        if path:
            remember(settings, ROSTER, path)
            self.import_path(Path(path))

    def import_path(self, path: Path) -> int:
        """Imports a JSON or CSV roster file whole, or nothing, as one undoable step.

        Records already in the campaign unchanged are left alone; when some match by name and
        kind but differ, the duplicates dialog opens (``self.dialog``) and the import happens
        when the DM confirms it. Returns the number of records written now (0 while the dialog
        is open, or when the file is refused or changes nothing).
        """
        from core.roster.files import RosterImportError, read_roster_document
        from core.roster.merge import plan_import
        from core.store import StoreError

        campaign = self.window.campaign
        if campaign is None or self.window.ctx is None:
            return 0
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
            self.window.report(
                StoreError(f"{path.name} cannot be read ({reason}); nothing was imported.")
            )
            return 0
        progress: QProgressDialog | None = None
        if text.count("\n") > PROGRESS_ABOVE:
            progress = QProgressDialog(f"Reading {path.name}…", "", 0, 100, self.widget)
            progress.setCancelButton(None)  # type: ignore[arg-type]
            progress.setWindowModality(Qt.WindowModality.WindowModal)
            progress.setMinimumDuration(0)
            progress.setValue(0)

        def tick(done: int, total: int) -> None:
            if progress is not None:
                progress.setValue(int(100 * done / max(total, 1)))
                QCoreApplication.processEvents()

        try:
            document = read_roster_document(path.name, text, tick)
        except RosterImportError as exc:
            self.window.report(
                StoreError(f"{path.name} was not imported (nothing was added). {exc}")
            )
            return 0
        finally:
            if progress is not None:
                progress.close()
        if not document.entries and not document.templates:
            self.window.report(
                StoreError(f"{path.name} holds no roster entries or monster templates; "
                           "nothing was imported.")
            )  # fmt: skip
            return 0
        plan = plan_import(
            self.window.entries, self.window.templates, document.entries, document.templates,
            document.entry_fields, document.template_fields,
        )
        if plan.nothing_to_do:
            self.window.statusBar().showMessage(
                f"Nothing to import: all {len(plan.unchanged)} in {path.name} are already in "
                "the campaign, unchanged.", 8000,
            )  # fmt: skip
            return 0
        if plan.duplicates:
            self._ask_duplicates(plan, path.name)
            return 0
        from core.roster.merge import resolve

        return self._import(resolve(plan, []), path.name)

    def _ask_duplicates(self, plan: ImportPlan, source: str) -> DuplicatesDialog:
        from desktop.roster.import_dialog import DuplicatesDialog

        dialog = DuplicatesDialog(plan, source, self.widget)
        dialog.accepted.connect(lambda: self._import(dialog.changes(), source))
        dialog.rejected.connect(
            lambda: self.window.statusBar().showMessage(
                f"{source} was not imported; nothing changed.", 6000
            )
        )
        dialog.open()
        self.dialog = dialog
        return dialog

    def _import(self, changes: ImportChanges, source: str) -> int:
        ctx = self.window.ctx
        if ctx is None:
            return 0
        if changes.is_empty:
            self.window.statusBar().showMessage(
                f"{source}: everything skipped; nothing changed.", 6000
            )
            return 0
        command = ImportCommand(ctx, changes, source)
        self.push(command)
        if command.failure is not None:
            return 0
        self.window.statusBar().showMessage(
            f"{command.text()}. Ctrl+Z takes the whole import back.", 8000
        )
        return (
            len(changes.added_entries) + len(changes.updated_entries)
            + len(changes.added_templates) + len(changes.updated_templates)
        )

    def ask_export(self) -> None:
        """Asks for a file name and exports the roster."""
        settings = self.window._settings
        path, _ = QFileDialog.getSaveFileName(
            self.widget, "Export roster", start_path(settings, ROSTER, "roster.json"),
            "JSON (*.json);;CSV (*.csv)"
        )
        if path:
            remember(settings, ROSTER, path)
            self.export_path(Path(path))

    def ask_example(self) -> None:
        """Asks for a file name and writes the example roster file there."""
        settings = self.window._settings
        path, _ = QFileDialog.getSaveFileName(
            self.widget, "Export example file",
            start_path(settings, ROSTER, "roster-example.csv"), "CSV (*.csv);;JSON (*.json)"
        )
        if path:
            remember(settings, ROSTER, path)
            self.example_path(Path(path))

    def example_path(self, path: Path) -> None:
        """Writes the example roster file (CSV for a .csv name, JSON otherwise)."""
        from core.roster.example import example_roster
        from core.roster.files import write_roster_csv, write_roster_json
        from core.store import StoreError

        entries, templates = example_roster()
        writer = write_roster_csv if path.suffix.lower() == ".csv" else write_roster_json
        try:
            path.write_text(writer(entries, templates), encoding="utf-8")
        except OSError as exc:
            self.window.report(StoreError(f"{path} cannot be written: {exc.strerror}"))
            return
        self.window.statusBar().showMessage(
            f"Wrote {path.name}: {len(entries)} example entries and a monster template. Fill "
            "it in (a spreadsheet opens the CSV) and import it; Help › Importing and "
            "exporting explains each column.", 10000)

    def export_path(self, path: Path) -> None:
        """Writes the roster to ``path`` (CSV for a .csv name, JSON otherwise)."""
        from core.roster.files import write_roster_csv, write_roster_json
        from core.store import StoreError

        entries = [replace(e) for e in self.window.entries]
        templates = list(self.window.templates)
        writer = write_roster_csv if path.suffix.lower() == ".csv" else write_roster_json
        text = writer(entries, templates)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.window.report(StoreError(f"{path} cannot be written: {exc.strerror}"))
            return
        self.window.statusBar().showMessage(
            f"Exported {len(entries)} entries and {len(templates)} monster templates to "
            f"{path.name}.", 8000,
        )  # fmt: skip
