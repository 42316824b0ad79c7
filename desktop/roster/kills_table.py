"""The foes an encounter defeated, with the XP each is worth: from its template, or typed by
the DM, who may mark one that lives (a prisoner: defeated, not killed)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGroupBox,
    QHeaderView,
    QLabel,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.roster.checks import MAX_XP
from core.roster.kills import Kill
from desktop.plain_text import elide_name

NOT_GIVEN = "—"


class KillsBox(QGroupBox):
    """One row a kill: its name, where its XP came from, and the XP (the DM may change it)."""

    def __init__(self, kills: Sequence[Kill], parent: QWidget | None = None) -> None:
        super().__init__("Kills and XP (goes to the session log)", parent)
        self.setObjectName("killsBox")
        self.kills = list(kills)
        self.table = QTableWidget(len(self.kills), 4)
        self.table.setObjectName("killsTable")
        self.table.setHorizontalHeaderLabels(["Killed or down", "XP from", "XP", "Lives"])
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.lives: list[QTableWidgetItem] = []
        self.table.setWordWrap(False)
        self.spins: list[QSpinBox] = []
        for row, kill in enumerate(self.kills):
            name = QTableWidgetItem(elide_name(kill.name))
            name.setFlags(Qt.ItemFlag.ItemIsEnabled)
            source = QTableWidgetItem(
                f"the {kill.template} template" if kill.xp is not None else "you (type it in)"
            )
            source.setFlags(Qt.ItemFlag.ItemIsEnabled)
            spin = QSpinBox()
            spin.setRange(-1, MAX_XP)
            spin.setSpecialValueText(NOT_GIVEN)  # -1 shows as "—": no XP given
            spin.setValue(kill.xp if kill.xp is not None else -1)
            spin.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # no change by scrolling past
            spin.setAccessibleName(f"XP for {kill.name}")
            lives = QTableWidgetItem("")
            lives.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            lives.setCheckState(Qt.CheckState.Unchecked)
            lives.setToolTip(f"Tick if {kill.name} lives (a prisoner): it is logged as "
                             "defeated, not killed, and its XP still counts")
            self.table.setItem(row, 0, name)
            self.table.setItem(row, 1, source)
            self.table.setCellWidget(row, 2, spin)
            self.table.setItem(row, 3, lives)
            self.spins.append(spin)
            self.lives.append(lives)
        self.table.setMaximumHeight(160)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(QLabel("A foe down (dead, or at 0 hp or below) counts as defeated. XP "
                                "comes from the monster template; change it here."))

    def set_lives(self, row: int, lives: bool) -> None:
        """Marks the foe in ``row`` as living (defeated, not killed) or not."""
        self.lives[row].setCheckState(Qt.CheckState.Checked if lives else Qt.CheckState.Unchecked)

    def kills_with_xp(self) -> list[Kill]:
        """Gets the kills with the XP now shown, and whether the DM marked them as living."""
        return [
            replace(k, xp=None if spin.value() < 0 else spin.value(),
                    lives=lives.checkState() == Qt.CheckState.Checked)
            for k, spin, lives in zip(self.kills, self.spins, self.lives, strict=True)
        ]
