"""New Encounter: the system and its options, who fights (roster and stamped monsters), sides.

Non-modal: the caller listens to ``accepted`` and reads :meth:`plan` (tests fill it in directly).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QShowEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from core.model.dice import Roller
from core.model.limits import MAX_NAME
from core.model.values import Combatant, Kind
from core.printout.words import kind_words
from core.roster.entries import MonsterTemplate, RosterEntry, RosterStatus
from core.roster.results import roster_combatant
from core.roster.stamping import MONSTER_SIDE, StampError, stamp
from core.rules import all_systems, find_system
from desktop.dialog_help import add_dialog_help
from desktop.encounter.options_form import OptionsForm
from desktop.screens import screen_of

NEW_SIDE = "new side…"
SIDE_COLUMN = 2
HP_COLUMN = 3
"""The monsters table's column of hit points, one a monster: rolled once (and shown) or typed."""
HIDDEN_COLUMN = 4
"""The monsters table's tick: the template's monsters start hidden from the players' screen."""
HIDDEN_TIP = ("Hidden from the players: these monsters are not on the players' screen from the "
              "first moment until you reveal them (View › Hide From the Players…)")
PARTY_SIDE = "party"
_Index = QModelIndex | QPersistentModelIndex


def fresh_seed() -> int:
    """A new fight's dice seed: a different one every time (the tests fix it)."""
    return random.SystemRandom().randrange(2**31 - 1)



def _check_options(system: str, options: dict[str, Any], combatants: list[Combatant]) -> None:
    """Lets the engine refuse house rules it cannot play (as a file would be refused)."""
    from core.cli.commands import resolve_scenario
    from core.model.scenario import (
        SCENARIO_FORMAT,
        ScenarioError,
        combatant_to_json,
        parse_scenario,
    )
    from core.printout.words import Names

    document = {"format": SCENARIO_FORMAT, "system": system, "options": options, "seed": 0,
                "combatants": [combatant_to_json(c) for c in combatants]}
    try:
        resolve_scenario(parse_scenario(document))
    except ScenarioError as exc:
        raise ValueError(Names({c.id: c.label for c in combatants}).text(str(exc))) from None

class SideDelegate(QStyledItemDelegate):
    """A side cell edited by choosing from the sides already known, or "new side…".

    Choosing "new side…" makes the box editable: the name typed there (then Enter) becomes a
    side every other row can choose too.
    """

    def __init__(self, dialog: StartEncounterDialog) -> None:
        super().__init__(dialog)
        self.dialog = dialog

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: _Index) -> QWidget:
        combo = QComboBox(parent)
        combo.setObjectName("sideBox")
        combo.addItems([*self.dialog.sides(), NEW_SIDE])
        combo.setToolTip("The side this combatant fights on; 'new side…' to name another")
        combo.activated.connect(lambda _row: self._chosen(combo))
        combo.setProperty("side_index", QPersistentModelIndex(index))
        return combo

    def _chosen(self, combo: QComboBox) -> None:
        if combo.currentText() == NEW_SIDE:
            combo.setEditable(True)
            combo.clearEditText()
            combo.lineEdit().setPlaceholderText("name the new side, then Enter")
            combo.lineEdit().returnPressed.connect(lambda: self.commitData.emit(combo))
            combo.setFocus()
            return
        self.commitData.emit(combo)

    def setEditorData(self, editor: QWidget, index: _Index) -> None:
        assert isinstance(editor, QComboBox)
        side = str(index.data(Qt.ItemDataRole.EditRole) or "")
        if editor.findText(side) < 0 and side:
            editor.insertItem(editor.count() - 1, side)
        if not editor.isEditable():
            editor.setCurrentIndex(max(editor.findText(side), 0))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: _Index) -> None:
        assert isinstance(editor, QComboBox)
        side = editor.currentText().strip()
        if side and side != NEW_SIDE:
            model.setData(index, side, Qt.ItemDataRole.EditRole)
            self.dialog.side_added(side)


@dataclass(frozen=True, slots=True)
class EncounterPlan:
    """What the dialog asks for: enough to start the encounter's session."""

    name: str
    system: str
    options: dict[str, Any]
    seed: int
    combatants: tuple[Combatant, ...]
    hidden: tuple[str, ...] = ()
    """The combatants hidden from the players' screen from the start (an ambush)."""


def _table(model: QStandardItemModel) -> QTableView:
    """A table whose columns are as wide as their words (the first takes what is left) and
    which asks for room for all its rows."""
    view = QTableView()
    view.setModel(model)
    view.verticalHeader().hide()
    view.setWordWrap(False)  # "Bugbear (hp 3d8+1)" on one line, whole
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    header.setStretchLastSection(False)
    view.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
    return view


def _fit_columns(view: QTableView) -> None:
    """Keeps the table at least as wide as every column's words and the side lists need: a
    stretched column cut "Bugbear (hp …" and the Side list read "monste"."""
    header = view.horizontalHeader()
    widths = sum(max(view.sizeHintForColumn(c), header.sectionSizeHint(c))
                 for c in range(view.model().columnCount()))
    view.setMinimumWidth(widths + 2 * view.frameWidth()
                         + view.verticalScrollBar().sizeHint().width())


def _totals(text: str) -> list[int]:
    """Reads hit point totals typed as "5, 3, 8" (ValueError when one is not a number)."""
    return [int(p) for p in text.replace(";", ",").split(",") if p.strip()]


class StartEncounterDialog(QDialog):
    """Picks system, options, fighters and sides."""

    def __init__(
        self, roster: Sequence[RosterEntry], templates: Sequence[MonsterTemplate],
        default_name: str = "Encounter", parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setWindowTitle("New Encounter")
        self.setObjectName("startEncounterDialog")
        self._fitted = False  # sized to its content within the screen when first shown
        self.roster = [e for e in roster if e.id is not None and e.kind is not Kind.MONSTER]
        self.templates = list(templates)
        self.name = QLineEdit(default_name)
        self.system = QComboBox()
        self.system.setObjectName("systemBox")
        for system in all_systems():
            self.system.addItem(system.title, system.id)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(fresh_seed())
        self.seed.setToolTip("Dice seed: the app's rolls and any die not given follow it")
        self._sides: list[str] = list(dict.fromkeys(
            [PARTY_SIDE, MONSTER_SIDE, *(e.side for e in self.roster if e.side)]))
        self.options_area = QScrollArea()
        self.options_area.setWidgetResizable(True)
        self.options_form: OptionsForm | None = None
        self.system.currentIndexChanged.connect(self._on_system_changed)

        self.fighters = QStandardItemModel(0, 3, self)
        self.fighters.setHorizontalHeaderLabels(["Fights", "Kind", "Side"])
        for entry in self.roster:
            name = QStandardItem(entry.name)
            name.setCheckable(True)
            # Only those able to fight are ticked: the dead, the unconscious, the fled and the
            # retired may be ticked by hand, and then join as the roster has them.
            able = entry.status is RosterStatus.ACTIVE
            name.setCheckState(Qt.CheckState.Checked if able else Qt.CheckState.Unchecked)
            name.setEditable(False)
            down = entry.status in (RosterStatus.DEAD, RosterStatus.UNCONSCIOUS)
            name.setToolTip(entry.name if able else
                            f"{entry.name} is {entry.status} in the roster: not ticked. Ticked, "
                            + (f"{entry.name} joins {entry.status} and does not act."
                               if down else f"{entry.name} joins able to fight."))
            kind = QStandardItem(kind_words(entry.kind) if able
                                 else f"{kind_words(entry.kind)} ({entry.status})")
            kind.setEditable(False)
            self.fighters.appendRow([name, kind, QStandardItem(entry.side)])
        self.monsters = QStandardItemModel(0, 5, self)
        self.monsters.setHorizontalHeaderLabels(["Template", "How many", "Side", "HP each",
                                                 "Hidden"])
        self.monsters.horizontalHeaderItem(HIDDEN_COLUMN).setToolTip(HIDDEN_TIP)
        for template in self.templates:
            name = QStandardItem(f"{template.name} (hp {template.hit_dice})")
            name.setEditable(False)
            count = QStandardItem()
            count.setData(0, Qt.ItemDataRole.EditRole)
            hp = QStandardItem("")
            hp.setToolTip(f"One total a monster, e.g. 5, 3, 8: rolled on {template.hit_dice} "
                          "when you set how many, and kept; type over them from your own dice")
            hidden = QStandardItem()
            hidden.setCheckable(True)
            hidden.setEditable(False)
            hidden.setCheckState(Qt.CheckState.Unchecked)
            hidden.setToolTip(HIDDEN_TIP)
            self.monsters.appendRow([name, count, QStandardItem(MONSTER_SIDE), hp, hidden])
        # HP are rolled once, when a count is set, and kept: OK never rerolls them.
        self._hp_roller = Roller.seeded(self.seed.value())
        # A seed typed in governs the HP rolled from then on (those already shown stay).
        self.seed.valueChanged.connect(lambda value: setattr(self, "_hp_roller",
                                                             Roller.seeded(value)))
        self.monsters.itemChanged.connect(self._on_monster_changed)
        self.error = QLabel()
        self.error.setObjectName("startError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")

        # One delegate a table: a delegate's commitData reaches every view it serves, and the
        # other table printed "commitData called with an editor that does not belong to this
        # view" at each side chosen (issue 24).
        self.side_delegates: dict[str, SideDelegate] = {}
        self.tables: dict[str, QTableView] = {}
        top = QFormLayout()
        top.addRow("Name", self.name)
        top.addRow("System", self.system)
        top.addRow("Seed", self.seed)
        options_box = QGroupBox("House-rule options (defaults follow the source; hover: the rule)")
        QVBoxLayout(options_box).addWidget(self.options_area)
        who = QHBoxLayout()
        for key, title, model in (
                ("fighters", "PCs, henchmen, hirelings", self.fighters),
                ("monsters", "Monsters stamped from templates", self.monsters)):
            box = QGroupBox(title)
            view = _table(model)
            view.setObjectName(f"{key}Table")
            self.side_delegates[key] = SideDelegate(self)
            view.setItemDelegateForColumn(SIDE_COLUMN, self.side_delegates[key])
            if key == "monsters":  # a tick needs no room: the names and HP get it
                view.horizontalHeader().setSectionResizeMode(
                    HIDDEN_COLUMN, QHeaderView.ResizeMode.ResizeToContents)
            self.tables[key] = view
            QVBoxLayout(box).addWidget(view)
            who.addWidget(box)
        self._open_side_editors()
        for view in self.tables.values():
            _fit_columns(view)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        # The tables ask for their rows (AdjustToContents); the options take what is left.
        layout.addWidget(options_box, 1)
        layout.addLayout(who)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self._on_system_changed()
        self._plan: EncounterPlan | None = None

    # --- size ---------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        if not self._fitted:
            self._fitted = True
            screen = screen_of(self)
            if screen is not None:
                self.fit_to(screen.availableGeometry())
        super().showEvent(event)

    def fit_to(self, room: QRect) -> None:
        """Sizes the dialog to its content (every option, fighter and template row, every
        column whole) within ``room``, and centres it there; a fixed 760×640 cut the names at
        any screen size and showed five options."""
        hint = self.sizeHint().expandedTo(self.minimumSizeHint())
        # A scroll area's hint stops at about 24 lines: the options ask for all of theirs.
        options = 0 if self.options_form is None else max(
            0, self.options_form.sizeHint().height() + 2 * self.options_area.frameWidth()
            - self.options_area.sizeHint().height())
        # The window manager's frame and title bar are not ours: known once shown, guessed
        # (a title bar) before.
        frame, inner = self.frameGeometry(), self.geometry()
        if self.isVisible() and frame != inner:
            top, side = inner.top() - frame.top(), inner.left() - frame.left()
            bottom = frame.bottom() - inner.bottom()
        else:
            top, side, bottom = QApplication.style().pixelMetric(
                QStyle.PixelMetric.PM_TitleBarHeight), 0, 0
        room = room.adjusted(side, top, -side, -bottom)
        width = min(hint.width(), room.width())
        height = min(hint.height() + options, room.height())
        self.resize(width, height)
        self.move(room.x() - side + (room.width() - width) // 2,
                  room.y() - top + (room.height() - height) // 2)

    # --- sides ----------------------------------------------------------------------------------

    def sides(self) -> list[str]:
        """Gets the sides to choose from: party, monsters, the roster's, and any added."""
        return list(self._sides)

    def side_added(self, side: str) -> None:
        """Makes a side named in one row a choice of every other row."""
        if side in self._sides:
            return
        self._sides.append(side)
        for key, view in self.tables.items():
            model = self.fighters if key == "fighters" else self.monsters
            for row in range(model.rowCount()):
                editor = view.indexWidget(model.index(row, SIDE_COLUMN))
                if isinstance(editor, QComboBox) and editor.findText(side) < 0:
                    editor.insertItem(editor.count() - 1, side)

    def _open_side_editors(self) -> None:
        """Shows every side cell as its drop-down list (no free text)."""
        for key, view in self.tables.items():
            model = self.fighters if key == "fighters" else self.monsters
            for row in range(model.rowCount()):
                view.openPersistentEditor(model.index(row, SIDE_COLUMN))

    def side_box(self, table: str, row: int) -> QComboBox:
        """Gets the side drop-down of a row (``table``: fighters or monsters)."""
        model = self.fighters if table == "fighters" else self.monsters
        editor = self.tables[table].indexWidget(model.index(row, SIDE_COLUMN))
        assert isinstance(editor, QComboBox)
        return editor

    def _on_system_changed(self) -> None:
        self.options_form = OptionsForm(find_system(str(self.system.currentData())))
        self.options_area.setWidget(self.options_form)

    def set_system(self, system_id: str) -> None:
        self.system.setCurrentIndex(self.system.findData(system_id))

    def set_count(self, template_name: str, count: int, side: str = MONSTER_SIDE) -> None:
        """Stamps ``count`` of a template (what the DM types in the table)."""
        row = next(i for i, t in enumerate(self.templates) if t.name == template_name)
        self.monsters.item(row, 1).setData(count, Qt.ItemDataRole.EditRole)
        self.monsters.item(row, SIDE_COLUMN).setText(side)
        self.side_added(side)
        if self.tables:
            self.side_delegates["monsters"].setEditorData(self.side_box("monsters", row),
                                             self.monsters.index(row, SIDE_COLUMN))

    def _on_monster_changed(self, item: QStandardItem) -> None:
        if item.column() != 1:
            return
        row = item.row()
        try:
            count = max(0, int(item.data(Qt.ItemDataRole.EditRole) or 0))
        except (TypeError, ValueError):
            return  # build_plan says what is wrong with the count
        hp_item = self.monsters.item(row, HP_COLUMN)
        try:
            totals = _totals(hp_item.text())
        except ValueError:
            return  # the DM's own text stays until they fix it
        template = self.templates[row]
        if count > len(totals):
            try:
                extra = stamp(template, count - len(totals), self._hp_roller,
                              first_number=len(totals) + 1)
            except StampError:
                return  # bad hit dice: build_plan names the template
            totals += [c.hp for c in extra if c.hp is not None]
        hp_item.setText(", ".join(str(t) for t in totals[:count]))
        _fit_columns(self.tables["monsters"])  # the HP column widens: the names stay whole

    def hidden_box(self, template_name: str) -> QStandardItem:
        """Gets the template's "Hidden" tick (what the DM clicks in the table)."""
        row = next(i for i, t in enumerate(self.templates) if t.name == template_name)
        return self.monsters.item(row, HIDDEN_COLUMN)

    def set_hp(self, template_name: str, text: str) -> None:
        """Types hit point totals for a template's monsters (what the DM types in the table)."""
        row = next(i for i, t in enumerate(self.templates) if t.name == template_name)
        self.monsters.item(row, HP_COLUMN).setText(text)

    def hp_text(self, template_name: str) -> str:
        """Gets the hit points shown for a template's monsters."""
        row = next(i for i, t in enumerate(self.templates) if t.name == template_name)
        return self.monsters.item(row, HP_COLUMN).text()

    def build_plan(self) -> EncounterPlan:
        """Gets the plan as filled in; raises ValueError with a message saying what is wrong."""
        name = self.name.text().strip()
        if not name:
            raise ValueError("Give the encounter a name.")
        if len(name) > MAX_NAME:
            raise ValueError(f"An encounter's name is at most {MAX_NAME} characters; this one "
                             f"has {len(name)}.")
        combatants: list[Combatant] = []
        hidden: list[str] = []
        for row, entry in enumerate(self.roster):
            if self.fighters.item(row, 0).checkState() == Qt.CheckState.Checked:
                side = self.fighters.item(row, 2).text().strip()
                if not side:
                    raise ValueError(f"{entry.name} needs a side.")
                combatants.append(replace(roster_combatant(entry), side=side))
        for row, template in enumerate(self.templates):
            count = self.monsters.item(row, 1).data(Qt.ItemDataRole.EditRole)
            try:
                count = int(count or 0)
            except (TypeError, ValueError):
                raise ValueError(
                    f"{template.name}: how many is a whole number, not {count!r}.") from None
            if count:
                side = self.monsters.item(row, 2).text().strip() or MONSTER_SIDE
                try:
                    totals = _totals(self.monsters.item(row, HP_COLUMN).text())
                except ValueError:
                    raise ValueError(f"{template.name}: hit points are whole numbers separated "
                                     "by commas.") from None
                try:
                    stamped = stamp(template, count, totals, side)
                except StampError as exc:
                    raise ValueError(str(exc)) from None
                combatants += stamped
                if self.monsters.item(row, HIDDEN_COLUMN).checkState() == Qt.CheckState.Checked:
                    hidden += [c.id for c in stamped]
        if len({c.side for c in combatants}) < 2:
            raise ValueError("An encounter needs combatants on at least two sides.")
        assert self.options_form is not None
        system, options = str(self.system.currentData()), self.options_form.values()
        _check_options(system, options, combatants)
        return EncounterPlan(name, system, options, self.seed.value(), tuple(combatants),
                             tuple(hidden))

    def plan(self) -> EncounterPlan | None:
        return self._plan

    def accept(self) -> None:
        try:
            self._plan = self.build_plan()
        except ValueError as exc:
            self.error.setText(str(exc))
            return
        super().accept()
