"""Drives one encounter: every change is checked, pushed on its undo stack, then shown.

The desktop holds no rules: a command is refused when the engine refuses the state it would
lead to (the ScenarioError's own words), and every die comes from the system's rolls_needed.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from core.fight.encounter import (
    change_roll,
    morale_dice,
    resolve_document,
    roll_command,
    rolls_needed,
    scenario_document,
)
from core.fight.log import Command, EncounterState, EventKind, LogError, replay
from core.fight.procedure import current_phase
from core.model.dice import DiceError, Roller, manual_roll
from core.model.scenario import Scenario, ScenarioError
from core.model.values import Resolution
from core.play.session import EncounterSession
from core.printout.words import Names, command_words
from core.rules import UnknownSystemError, find_system
from core.rules.base import RollRequest
from desktop.encounter.known_steps import known_resolution
from desktop.encounter.session_command import SessionCommand
from desktop.store_call import on_gui_thread
from desktop.store_retry import AskRetry

_ENGINE_ERRORS = (ScenarioError, DiceError, UnknownSystemError, LogError)


class _StepWords:
    """Says one "Undone: …" / "Redone: …" for a batch of commands (Roll All Pending) instead
    of one per die: Qt undoes a macro's commands one by one, and the status line kept only
    the last, so it named one die of the several the DM took back."""

    def __init__(self, title: str, tell: Callable[[str], None]) -> None:
        self.title = title
        self.tell = tell
        self.size = 0
        """How many commands the batch holds (set once it is built)."""
        self._heard: list[tuple[str, str]] = []

    def __call__(self, words: str) -> None:
        verb, _, what = words.partition(": ")
        if self._heard and self._heard[-1][0] != verb:
            self._heard = []  # a step that failed half-way: start again
        self._heard.append((verb, what))
        if len(self._heard) < self.size:
            return
        # "Roll 8 dice" already says they were rolled: each die reads "initiative Orc 1: 14".
        said = [w.removesuffix(" (rolled)") for _, w in self._heard]
        if verb == "Undone":
            said.reverse()  # Qt undoes the last die first; the DM reads them as rolled
        self._heard = []
        self.tell(f"{verb}: {self.title} ({_listed(said)})" if len(said) > 1
                  else f"{verb}: {said[0]}")


def _listed(items: list[str]) -> str:
    """Gets ``a; b and c``: several dice, each worded with a colon of its own."""
    return items[0] if len(items) == 1 else f"{'; '.join(items[:-1])} and {items[-1]}"


def _resolve(state: EncounterState,
             document: dict[str, object] | None = None) -> tuple[Scenario, Resolution]:
    """Resolves ``state`` (``document``: its scenario_document, when made already)."""
    return resolve_document(document if document is not None else scenario_document(state),
                            Roller.seeded(state.config.get("seed")))


class EncounterController(QObject):
    """The encounter's session, undo stack, app roller and latest resolution."""

    resolved = Signal()
    """The state changed and the resolution is made again; sent just before ``changed``, for
    the one view that must be drawn first (the players' screen, on a TV: the table waits for
    it while the DM's window redraws after)."""
    changed = Signal()
    """The state changed (a command, an undo or a redo)."""
    refused = Signal(str)
    """A command was refused; the text says why (nothing changed)."""
    completed = Signal(str)
    """A command was saved; the text is its name."""
    stepped = Signal(str)
    """An undo or redo was saved; the text says which ("Undone: Hit Orc 1")."""

    def __init__(
        self, session: EncounterSession, roller: Roller | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.roller = roller or Roller.seeded(None)
        self.stack = QUndoStack(self)
        self.resolution: Resolution | None = None
        self.scenario: Scenario | None = None
        """The scenario ``resolution`` was made from (read once, for every view)."""
        self.error: str | None = None
        self.listeners: list[Callable[[], None]] = []
        self.ask_retry: AskRetry | None = None
        """Asks Retry / Cancel when the database is busy or away (None: refuse at once)."""
        self._documented: tuple[EncounterState, dict[str, object]] | None = None
        """The latest state redrawn and its scenario_document (the dice asked read it too)."""
        self._resolved_document: dict[str, object] | None = None
        """The scenario the resolution (or the error) was made from."""
        self._checked: tuple[dict[str, object], Scenario, Resolution] | None = None
        """The scenario a command was last checked on and its resolution: the command, once
        saved, needs the engine no second time (bench/bench_command.py)."""
        self._needed: tuple[EncounterState, Resolution | None, list[RollRequest]] | None = None
        self._step_words: Callable[[str], None] | None = None
        """Where the commands being pushed say their undo/redo (a batch, or ``stepped``)."""
        """The dice asked for, kept while the state and the resolution stay the same."""
        self._asked: tuple[EncounterState, list[RollRequest] | None] | None = None
        """The dice the system asks for in a state (no morale dice), kept while it stays."""
        self._known: tuple[EncounterState, Resolution | None, str | None,
                           Resolution | None] | None = None
        """The resolution as the table may read it, kept while nothing it hangs on changes."""
        self._phase: tuple[EncounterState, Resolution | None, str] | None = None
        """The phase play waits for, kept while the state and the resolution stay the same."""
        session.subscribe(self._on_session_changed)
        self._resolve_now()

    # --- state ----------------------------------------------------------------------------------

    @property
    def state(self) -> EncounterState:
        """Gets the encounter's current state."""
        return self.session.state

    @property
    def system_id(self) -> str:
        return str(self.state.config.get("system"))

    def rolls_needed(self) -> list[RollRequest]:
        """Gets the dice the engine still asks for, then the morale dice it would roll from
        the seed (typing or rolling one here sets the scenario field instead)."""
        state, resolution = self.state, None if self.error else self.resolution
        kept = self._needed
        if kept is not None and kept[0] is state and kept[1] is resolution:
            return list(kept[2])  # a redraw asks several times: the engine is asked once
        needed = (self._system_dice(state) or []) + morale_dice(state, resolution)
        self._needed = (state, resolution, needed)
        return list(needed)

    def _system_dice(self, state: EncounterState) -> list[RollRequest] | None:
        """Gets the dice the system asks for in ``state``, worked out once per state (None:
        the engine cannot say)."""
        kept = self._asked
        if kept is None or kept[0] is not state:
            made = self._documented
            document = made[1] if made is not None and made[0] is state else None
            try:
                asked: list[RollRequest] | None = rolls_needed(state, document)
            except _ENGINE_ERRORS:
                asked = None
            kept = self._asked = (state, asked)
        return None if kept[1] is None else list(kept[1])

    def phase(self) -> str:
        """Gets the id of the phase play waits for (core.fight.procedure); a redraw asks
        several times, the answer is worked out once per state."""
        state, resolution = self.state, None if self.error else self.resolution
        kept = self._phase
        if kept is not None and kept[0] is state and kept[1] is resolution:
            return kept[2]
        asked = self._system_dice(state)  # None: the procedure asks, and fails, as it did
        phase = current_phase(state, resolution, asked)
        self._phase = (state, resolution, phase)
        return phase

    def known_resolution(self) -> Resolution | None:
        """Gets the resolution as the table may read it: what hangs on a die not yet given
        (a morale check's result, a surprise, a segment) left unsaid (see known_steps)."""
        state, resolution = self.state, self.resolution
        kept = self._known
        if kept is not None and kept[0] is state and kept[1] is resolution and \
                kept[2] == self.error:
            return kept[3]  # a redraw asks several times
        known = known_resolution(resolution, self.rolls_needed(), len(state.rounds))
        self._known = (state, resolution, self.error, known)
        return known

    def words(self, text: str) -> str:
        """Gets an engine message in the DM's words: names for ids, places for paths."""
        return Names.from_state(self.state).text(text)

    def command_text(self, command: Command) -> str:
        """Gets the undo/redo text of ``command`` with names (as the encounter stands now)."""
        system = self.state.config.get("system")
        try:
            title = find_system(str(system)).title if system else ""
        except UnknownSystemError:
            title = ""
        return command_words(command, Names.from_state(self.state), title)

    def _resolve_now(self) -> None:
        # A command that leaves the scenario as it was (hiding a creature from the players,
        # a phase) leaves the resolution as it was: the engine is not asked again.
        document = scenario_document(self.state)
        self._documented = (self.state, document)
        if document == self._resolved_document:
            return
        self._resolved_document = document
        checked, self._checked = self._checked, None
        if checked is not None and checked[0] == document:
            self.scenario, self.resolution, self.error = checked[1], checked[2], None
            return
        try:
            (self.scenario, self.resolution), self.error = _resolve(self.state, document), None
        except _ENGINE_ERRORS as exc:
            self.error = self.words(str(exc))  # the last good resolution stays on screen

    def _on_session_changed(self, _state: EncounterState) -> None:
        # A save that runs on the store's worker thread tells this from there: the views
        # redraw on the window's thread, as soon as the save is done.
        on_gui_thread(self._redraw)

    def _redraw(self) -> None:
        self._resolve_now()
        self.resolved.emit()
        self.changed.emit()

    # --- commands -------------------------------------------------------------------------------

    def why_refused(self, command: Command) -> str | None:
        """Tells why the engine would refuse the state ``command`` leads to (None: it is fine).

        A state that already fails (the DM is mid-way through fixing it) refuses nothing new.
        """
        try:
            after = replay([command], self.state)
        except LogError as exc:
            return self.words(str(exc))
        if self.error is not None:
            return None
        document = scenario_document(after)
        try:
            scenario, resolution = _resolve(after, document)
        except _ENGINE_ERRORS as exc:
            return Names.from_state(after).text(str(exc))
        self._checked = (document, scenario, resolution)
        return None

    def resolution_after(self, command: Command) -> Resolution | None:
        """Gets how the encounter would resolve after ``command`` (None: it would not)."""
        try:
            return _resolve(replay([command], self.state))[1]
        except _ENGINE_ERRORS:
            return None

    def run(self, command: Command, check: bool = True, text: str | None = None) -> bool:
        """Checks, then pushes ``command``; False (and ``refused``) when it was not taken.

        ``text`` is the undo text when the board says it better than the command's events
        ("Move Garrick to missile · D"); otherwise :meth:`command_text` words it.
        """
        reason = self.why_refused(command) if check else None
        if reason is not None:
            self.refused.emit(reason)
            return False
        text = text or self.command_text(command)
        undoable = SessionCommand(self.session, command,
                                  lambda message: self.refused.emit(self.words(message)), text,
                                  self.ask_retry, self.stack,
                                  self._step_words or self.stepped.emit)
        self.stack.push(undoable)
        if undoable.error is not None:
            self.refused.emit(self.words(undoable.error))
            return False
        self.completed.emit(text)
        return True

    # --- dice -----------------------------------------------------------------------------------

    def roll(self, request: RollRequest) -> bool:
        """Rolls a die the engine asks for with the app's seeded roller."""
        rolled = self.roller.roll(request.expression, request.purpose)
        return self.run(roll_command(self.state, request, rolled), check=False)

    def roll_all(self) -> int:
        """Rolls every die the engine still asks for: one undo step (a macro) for them all.

        Returns how many were rolled. A die that appears only because of another (a morale
        check a roll brings on) is left for the DM to see first.
        """
        # By where each die goes, not by its words: three time-unit actions of one fighter
        # once read alike, and all but one were left unrolled.
        asked = {r.where for r in self.rolls_needed()}
        if not asked:
            return 0
        done = 0
        title = f"Roll {len(asked)} dice" if len(asked) > 1 else "Roll a die"
        self.stack.beginMacro(title)
        batch = self._step_words = _StepWords(title, self.stepped.emit)
        try:
            for _ in range(len(asked)):
                request = next((r for r in self.rolls_needed() if r.where in asked), None)
                if request is None or not self.roll(request):
                    break
                asked.discard(request.where)
                done += 1
        finally:
            self._step_words = None
            batch.size = done
            batch.title = f"Roll {done} dice" if done > 1 else "Roll a die"
            self.stack.endMacro()
        return done

    def type_roll(self, request: RollRequest, text: str) -> str | None:
        """Records a total typed in from physical dice; returns the refusal (nothing changed)."""
        try:
            total = int(text.strip())
        except ValueError:
            return f"Type the total the {request.expression} shows, a whole number, not {text!r}."
        try:
            rolled = manual_roll(request.expression, total, request.purpose)
        except DiceError as exc:
            return str(exc)
        command = roll_command(self.state, request, rolled)
        reason = self.why_refused(command)
        if reason is not None:
            return reason
        return None if self.run(command, check=False) else "The roll was not saved."

    def changeable_roll(self, index: int | None = None) -> int | None:
        """Gets the roll ``index`` (default: the newest) if it can still be changed."""
        rolls = self.state.rolls
        if index is None:
            index = next((i for i in reversed(range(len(rolls)))
                          if i not in self.state.replaced_rolls), None)
        if index is None or not 0 <= index < len(rolls) or index in self.state.replaced_rolls:
            return None
        return index

    def change_roll(self, index: int | None = None, typed: str | None = None) -> str | None:
        """Rolls again, or records ``typed`` instead of, any roll made (default: the newest).

        One command: the new roll (the old one stays in the history) and the field it sets.
        Returns the refusal (nothing changed) or None.
        """
        chosen = self.changeable_roll(index)
        if chosen is None:
            return "Select a roll that has not been replaced already."
        old = self.state.rolls[chosen]
        if typed is None:
            new = self.roller.roll(old.expression, old.purpose)
        else:
            try:
                new = manual_roll(old.expression, int(typed.strip()), old.purpose)
            except ValueError as exc:
                return str(exc) if isinstance(exc, DiceError) else (
                    f"Type the total the {old.expression} shows, a whole number, not {typed!r}.")
        try:
            command = change_roll(self.session.log.commands, self.state, chosen, new)
        except LogError as exc:
            return self.words(str(exc))
        reason = self.why_refused(command)
        if reason is not None:
            return reason
        return None if self.run(command, check=False) else "The roll was not saved."

    def last_command_is_roll(self) -> bool:
        """Tells whether the newest command records a die (so it can be rerolled or retyped)."""
        commands = self.session.log.commands
        return bool(commands) and commands[-1].events[0].kind is EventKind.ROLL_RECORDED

    def change_last_roll(self, typed: str | None = None) -> str | None:
        """Takes the newest roll back and rolls it again, or records ``typed`` instead.

        A typed value is checked before anything is undone, so a bad one changes nothing.
        """
        if not self.last_command_is_roll() or self.stack.index() == 0:
            return "The last command is not a roll."
        purpose = str(self.session.log.commands[-1].events[0].data.get("purpose"))
        expression = str(self.session.log.commands[-1].events[0].data.get("expression"))
        if typed is not None:
            try:
                manual_roll(expression, int(typed.strip()), purpose)
            except ValueError as exc:
                text = str(exc) if isinstance(exc, DiceError) else f"not a whole number: {typed!r}"
                return text
        self.stack.undo()
        request = next((r for r in self.rolls_needed() if r.purpose == purpose), None)
        if request is None:
            self.stack.redo()
            return self.words(f"The engine no longer asks for {purpose}.")
        if typed is None:
            return None if self.roll(request) else "The roll was not saved."
        return self.type_roll(request, typed)
