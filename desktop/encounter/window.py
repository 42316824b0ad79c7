"""What the Encounter menu's actions (``desktop.encounter.actions``) use of the main window."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QWidget

from core.fight.log import EncounterState
from core.roster.entries import RosterEntry
from desktop.window_parts import CampaignWindow


class Access(Protocol):
    """What the DM's database role may do in the campaign shown."""

    @property
    def reason(self) -> str | None:
        """Why the campaign shown is read-only, in words; None when the role may change it."""
        ...


class ResultsReview(Protocol):
    """The roster's side of ending an encounter: it offers the results for the roster."""

    def review_results(
        self,
        state: EncounterState,
        title: str = ...,
        spells_cast: Mapping[str, Sequence[str]] | None = ...,
        baseline: Mapping[str, Mapping[str, object]] | None = ...,
        roster: Sequence[RosterEntry] | None = ...,
        end: Callable[[], bool] | None = ...,
        spells_lost: Mapping[str, Sequence[str]] | None = ...,
    ) -> QWidget | None: ...


class EncounterWindow(CampaignWindow, Protocol):
    """The main window as the encounter tabs see it."""

    @property
    def settings(self) -> QSettings: ...

    @property
    def access(self) -> Access: ...

    @property
    def roster_actions(self) -> ResultsReview: ...

    def show_editor_dock(self, visible: bool = True) -> None: ...
