"""The kills of an encounter with the XP each is worth: from its template, or typed by the DM."""

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

NOT_GIVEN = "—"


class KillsBox(QGroupBox):
    """One row a kill: its name, where its XP came from, and the XP (the DM may change it)."""

    def __init__(self, kills: Sequence[Kill], parent: QWidget | None = None) -> None:
        super().__init__("Kills and XP (goes to the session log)", parent)
        self.setObjectName("killsBox")
        self.kills = list(kills)
        self.table = QTableWidget(len(self.kills), 3)
        self.table.setObjectName("killsTable")
        self.table.setHorizontalHeaderLabels(["Killed", "XP from", "XP"])
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setWordWrap(False)
        self.spins: list[QSpinBox] = []
        for row, kill in enumerate(self.kills):
            name = QTableWidgetItem(kill.name)
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
            self.table.setItem(row, 0, name)
            self.table.setItem(row, 1, source)
            self.table.setCellWidget(row, 2, spin)
            self.spins.append(spin)
        self.table.setMaximumHeight(160)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(QLabel("XP a kill comes from the monster template; change it here."))

    def kills_with_xp(self) -> list[Kill]:
        """Gets the kills with the XP now shown."""
        return [
            replace(k, xp=None if spin.value() < 0 else spin.value())
            for k, spin in zip(self.kills, self.spins, strict=True)
        ]
