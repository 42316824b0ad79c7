"""What the Roster menu's actions (``desktop.roster.actions``) use of the main window."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtWidgets import QDockWidget, QWidget

from core.model.values import Combatant
from core.roster.entries import MonsterTemplate
from desktop.roster.commands import RosterContext
from desktop.roster.editor import RecordEditor
from desktop.roster.panel import RosterPanel
from desktop.window_parts import CampaignWindow


class OpenEncounters(Protocol):
    """The encounter tabs, as far as stamping monsters into a fight goes."""

    def open_names(self) -> list[str]:
        """Gets the names of the encounters open in tabs and not ended."""
        ...

    def start_with(self, name: str, count: int, hp: str) -> QWidget | None:
        """Opens New Encounter with ``count`` of the monster ``name``, HP ``hp``."""
        ...

    def add_stamped(self, name: str, template: MonsterTemplate,
                    combatants: Sequence[Combatant]) -> Sequence[Combatant] | None:
        """Adds stamped monsters to the open encounter ``name``; None: it is not open."""
        ...


class RosterWindow(CampaignWindow, Protocol):
    """The main window as the roster's actions see it: the roster tree and its forms."""

    @property
    def roster_panel(self) -> RosterPanel: ...

    @property
    def ctx(self) -> RosterContext | None: ...

    @property
    def editor_dock(self) -> QDockWidget: ...

    @property
    def current_editor(self) -> RecordEditor: ...

    @property
    def encounter_actions(self) -> OpenEncounters: ...

    def show_in_editor(self, item: object, new: bool = False) -> RecordEditor: ...

    def confirm_unsaved_edits(self) -> bool: ...

    def same_record(self, a: object, b: object) -> bool: ...
