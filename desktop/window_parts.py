"""What the main window's parts use of it, as :class:`typing.Protocol` classes MainWindow meets.

The parts (the Roster and Encounter menus' actions, the campaign access) sit beneath the main
window: each is handed the window typed as the small interface it uses, and never imports
``desktop.main_window``, so the window can import them (the no-cycle contract in
pyproject.toml). Each part names what it needs beside it (``desktop/roster/window.py``,
``desktop/encounter/window.py``); the pieces they share are here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from PySide6.QtGui import QUndoGroup, QUndoStack
from PySide6.QtWidgets import QStatusBar, QTabWidget, QWidget

from core.roster.entries import Campaign, MonsterTemplate, RosterEntry

if TYPE_CHECKING:  # core.store brings SQLAlchemy: not before the window's first frame
    from core.store import Store, StoreError
    from desktop.store_retry import AskRetry

_T = TypeVar("_T")


class StoreWindow(Protocol):
    """A window over a campaign store: its calls get Retry / Cancel, its failures a message."""

    def window(self) -> QWidget:
        """Gets the window itself (QWidget's own method): its parts' actions and dialogs
        belong to it."""
        ...

    def statusBar(self) -> QStatusBar: ...

    @property
    def store(self) -> Store: ...

    @property
    def ask_retry(self) -> AskRetry: ...

    def store_call(self, call: Callable[[], _T], what: str = ...,
                   whole_file: bool = False) -> _T: ...

    def store_failed(self, exc: StoreError, what: str) -> None: ...

    def report(self, exc: Exception) -> None: ...


class CampaignWindow(StoreWindow, Protocol):
    """A store window that shows one campaign: its roster as last read, in tabs beside its open
    encounters, with one undo stack for the roster among theirs."""

    @property
    def campaign(self) -> Campaign | None: ...

    @property
    def entries(self) -> Sequence[RosterEntry]: ...

    @property
    def templates(self) -> Sequence[MonsterTemplate]: ...

    @property
    def tabs(self) -> QTabWidget: ...

    @property
    def undo_stack(self) -> QUndoStack: ...

    @property
    def undo_group(self) -> QUndoGroup: ...
