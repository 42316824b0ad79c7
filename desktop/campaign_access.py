"""What the DM's database role may do in the campaign shown: a player reads it, never changes it.

On a shared PostgreSQL database a campaign's owner and co-DMs change it and its players only
read it (``core.store.access``); the server refuses a player's every write. Told only when a
save failed, a player typed into the form or set up a fight for nothing; so the window asks
``store.access.level`` once each time it shows a campaign (with the campaign's other reads, so a
busy database gets the same Retry / Cancel), and for a player it is read-only up front:

- the roster's forms show values but take no typing, their buttons are off;
- every action that would write (new, remove, stamp, rest, import, new/end/reopen encounter)
  is off, its tooltip saying why;
- an open encounter's tab watches, as when another Combat Desk plays it
  (``EncounterSession.read_only``): the board is off and the fight refreshes as it goes on;
- a line in the status bar says why, in words.

Owners and co-DMs get everything, as does everyone on an SQLite file (``access`` is "owner").
A campaign the role may not see at all is not listed in the first place: row-level security
leaves it out of ``store.campaigns.all``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStatusBar,
    QTableView,
    QTextEdit,
    QWidget,
)

from core.roster.entries import Campaign
from desktop.elided_label import ElidedLabel

if TYPE_CHECKING:
    from core.play.session import EncounterSession
    from desktop.roster.editor import RecordEditor


def read_only_reason(level: str | None, campaign: str) -> str | None:
    """Says why a role with ``level`` access may only read ``campaign`` (None: it may write)."""
    if level == "player":
        return (
            f"You are a player in '{campaign}': you can read it, not change it. "
            "Its owner can make you a co-DM."
        )
    if level is None:
        return (
            f"Your database role has no access to '{campaign}' any more: you can read what "
            "is shown, not change it. Its owner can give you access again."
        )
    return None


def _what(action: QAction) -> str:
    """Gets an action's name as a sentence uses it: "&New Entry…" → "New Entry"."""
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…")


class _FormLock(QObject):
    """Keeps the DM from ticking a locked form's check boxes: a table's check box toggles even
    with editing off (Qt hands the click or the space bar to the delegate first)."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.locked = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not self.locked:
            return False
        kind = event.type()
        view = watched.parent() if isinstance(watched, QWidget) else None
        if kind in (QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick) and (
            isinstance(view, QTableView) and isinstance(event, QMouseEvent)
        ):
            return _checkable(view.indexAt(event.position().toPoint()))
        if kind == QEvent.Type.KeyPress and isinstance(watched, QTableView):
            key = event.key() if isinstance(event, QKeyEvent) else None
            return key in (Qt.Key.Key_Space, Qt.Key.Key_Select) and _checkable(
                watched.currentIndex()
            )
        return False


def _checkable(index: QModelIndex) -> bool:
    """Tells whether ``index`` shows a check box the DM could tick (a text cell has the flag
    too, by Qt's default, but no check state)."""
    return (
        index.isValid()
        and bool(index.flags() & Qt.ItemFlag.ItemIsUserCheckable)
        and index.data(Qt.ItemDataRole.CheckStateRole) is not None
    )


class RosterWrites(Protocol):
    """The Roster menu's actions that change the campaign."""

    new_action: QAction
    new_template_action: QAction
    edit_action: QAction
    remove_action: QAction
    stamp_action: QAction
    rest_action: QAction
    rest_party_action: QAction
    import_action: QAction


class WatchedTab(Protocol):
    """An open encounter's tab: a reader's only watches its fight."""

    @property
    def session(self) -> EncounterSession: ...

    def refresh(self) -> None: ...


class EncounterWrites(Protocol):
    """The Encounter menu's actions that change the campaign, and its open tabs."""

    new_action: QAction
    end_action: QAction
    reopen_action: QAction

    @property
    def workspaces(self) -> Sequence[WatchedTab]: ...

    def update_enabled(self) -> None: ...


class AccessWindow(Protocol):
    """The main window as the campaign access sees it: what to lock, and where to say why."""

    def window(self) -> QWidget: ...

    def statusBar(self) -> QStatusBar: ...

    @property
    def roster_actions(self) -> RosterWrites: ...

    @property
    def encounter_actions(self) -> EncounterWrites: ...

    @property
    def editor(self) -> RecordEditor: ...

    @property
    def template_editor(self) -> RecordEditor: ...

    @property
    def roster_menu(self) -> QMenu: ...

    @property
    def encounter_menu(self) -> QMenu: ...


class CampaignAccess:
    """Asks what the role may do in the campaign shown and locks the window for a reader."""

    def __init__(self, window: AccessWindow) -> None:
        self.window = window
        self.level: str | None = "owner"
        """The role's access to the campaign shown: "owner", "co-dm", "player" or None."""
        self.reason: str | None = None
        """Why the campaign shown is read-only, in words; None when the role may change it."""
        # Cut with "…" rather than widen the window past a small screen (a long campaign name);
        # the whole sentence is in its tooltip and in an encounter tab's banner.
        self.label = ElidedLabel()
        self.label.setObjectName("accessLabel")
        # As wide as the sentence when the bar has room (an Ignored width got none at all).
        self.label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.label.setStyleSheet("font-weight: bold;")
        self.label.setVisible(False)
        window.statusBar().addPermanentWidget(self.label)
        self._lock = _FormLock(window.window())
        self._tips: dict[QAction | QWidget, str] = {}
        self._edits: list[QLineEdit | QPlainTextEdit | QTextEdit] = []
        self._switched: list[QWidget] = []
        self._triggers: dict[QAbstractItemView, QAbstractItemView.EditTrigger] = {}
        self._campaign_id: int | None = None
        for action in self.actions():
            # Nothing else switches these on today; should something, the lock still holds.
            action.enabledChanged.connect(lambda _on, a=action: self._hold(a))
        for menu in (window.roster_menu, window.encounter_menu):
            menu.setToolTipsVisible(True)  # a greyed item says why when hovered

    @property
    def read_only(self) -> bool:
        """Tells whether the campaign shown may only be read."""
        return self.reason is not None

    def actions(self) -> list[QAction]:
        """Gets the window's actions that change the campaign (off for a reader)."""
        roster, fights = self.window.roster_actions, self.window.encounter_actions
        return [
            roster.new_action, roster.new_template_action, roster.edit_action,
            roster.remove_action, roster.stamp_action, roster.rest_action,
            roster.rest_party_action, roster.import_action,
            fights.new_action, fights.end_action, fights.reopen_action,
            self.window.editor.save_action, self.window.template_editor.save_action,
        ]  # fmt: skip

    def campaign_shown(self, campaign: Campaign, level: str | None) -> None:
        """Shows ``campaign`` as a role with ``level`` access may use it (``store.access.level``,
        read once with the rest of the campaign as the window switches to it)."""
        self._campaign_id = campaign.id
        self.level = level
        self.apply(read_only_reason(level, campaign.name))

    def apply(self, reason: str | None) -> None:
        """Locks the window for reading only (``reason`` says why) or unlocks it (None)."""
        was = self.reason
        self.reason = reason
        self.label.setText(reason or "")
        self.label.setVisible(reason is not None)
        for action in self.actions():
            self._set_tip(action, reason and f"{_what(action)} is for the campaign's owner "
                          f"and co-DMs. {reason}")  # fmt: skip
            if reason is not None:
                action.setEnabled(False)
        if was is not None and reason is None:
            self._unlock_actions()
        if reason is not None or was is not None:  # an unlocked form is the DM's: untouched
            for editor in (self.window.editor, self.window.template_editor):
                self._lock_form(editor, reason)
        for workspace in self.window.encounter_actions.workspaces:
            session = workspace.session
            # Another campaign's tabs are about to close: they must not claim a lease now.
            if session.info.campaign_id == self._campaign_id and session.read_only != reason:
                session.read_only = reason
                workspace.refresh()

    def _hold(self, action: QAction) -> None:
        if self.read_only and action.isEnabled():
            action.setEnabled(False)

    def _unlock_actions(self) -> None:
        fights = self.window.encounter_actions
        for action in self.actions():
            # End and Reopen depend on the tab shown: the Encounter menu sets those again.
            if action not in (fights.end_action, fights.reopen_action):
                action.setEnabled(True)
        fights.update_enabled()

    def _set_tip(self, target: QAction | QWidget, tip: str | None) -> None:
        """Shows ``tip`` on ``target`` while locked; puts its own tooltip back after."""
        if tip is not None:
            self._tips.setdefault(target, target.toolTip())
            target.setToolTip(tip)
        elif target in self._tips:
            target.setToolTip(self._tips.pop(target))

    def _lock_form(self, form: RecordEditor, reason: str | None) -> None:
        """Makes a roster form show its values without taking any change (or undoes that)."""
        locked = reason is not None
        self._lock.locked = locked
        edits = form.findChildren(QLineEdit) + form.findChildren(QPlainTextEdit)
        for edit in edits + form.findChildren(QTextEdit):
            if isinstance(edit.parent(), QComboBox):
                continue  # an editable box's own line: the box is switched off whole
            if locked and not edit.isReadOnly():
                edit.setReadOnly(True)
                self._edits.append(edit)
            elif not locked and edit in self._edits:
                edit.setReadOnly(False)
        for widget in form.findChildren(QComboBox) + form.findChildren(QPushButton):
            # Save and Revert too; the form's own checks never switch them back on, as a form
            # that takes no typing is never changed and a reader has no New for a blank one.
            self._set_tip(widget, reason)
            if locked:
                widget.setEnabled(False)
                if widget not in self._switched:
                    self._switched.append(widget)
            elif widget in self._switched:
                widget.setEnabled(True)
        for view in form.findChildren(QTableView):
            if locked and view not in self._triggers:
                view.installEventFilter(self._lock)
                view.viewport().installEventFilter(self._lock)
                self._triggers[view] = view.editTriggers()
                view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            elif not locked and view in self._triggers:
                view.setEditTriggers(self._triggers.pop(view))
        if not locked:
            self._edits = [e for e in self._edits if not form.isAncestorOf(e)]
            self._switched = [w for w in self._switched if not form.isAncestorOf(w)]
            form.revert()  # it took no typing while locked: Save and Revert as it says
