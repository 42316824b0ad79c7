"""What the players' screen actions (``desktop.players.actions``) use of the main window."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QStatusBar, QTabWidget, QWidget

from core.roster.entries import Campaign

if TYPE_CHECKING:
    from desktop.encounter.workspace import EncounterWorkspace


class Fights(Protocol):
    """The encounter tabs as the players' screen follows them."""

    @property
    def workspaces(self) -> Sequence[EncounterWorkspace]: ...

    def current(self) -> EncounterWorkspace | None: ...


class PlayersHost(Protocol):
    """The main window as the players' screen sees it."""

    def window(self) -> QWidget: ...

    def statusBar(self) -> QStatusBar: ...

    @property
    def settings(self) -> QSettings: ...

    @property
    def campaign(self) -> Campaign | None: ...

    @property
    def tabs(self) -> QTabWidget: ...

    @property
    def encounter_actions(self) -> Fights: ...
