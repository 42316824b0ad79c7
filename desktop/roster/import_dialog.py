"""The import-duplicates dialog: for each imported record matching one in the campaign, the DM
chooses skip, update or add (one by one, or "apply to all")."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.roster.merge import Choice, ImportChanges, ImportPlan, resolve
from desktop.dialog_help import add_dialog_help
from desktop.plain_text import plain

CHOICE_LABELS = {
    Choice.SKIP: "Skip (keep the campaign's)",
    Choice.UPDATE: "Update from the file",
    Choice.ADD: "Add as a new one",
}
NAME, DIFFERENCES, CHOICE = range(3)


def _entries(n: int, adjective: str = "") -> str:
    return f"{n} {adjective}{'entry' if n == 1 else 'entries'}"


class DuplicatesDialog(QDialog):
    """Lists an import's duplicates with a skip / update / add choice each."""

    def __init__(self, plan: ImportPlan, source: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setObjectName("importDuplicatesDialog")
        self.setWindowTitle(f"Import {source}: already in the campaign")
        self.plan = plan
        self.resize(820, 420)
        new = len(plan.new_entries) + len(plan.new_templates)
        count, kept = len(plan.duplicates), len(plan.unchanged)
        one = count == 1  # "1 in a.csv have…" read wrong: the verb agrees with the count
        parts = [f"{_entries(count)} in {source} {'has' if one else 'have'} the same name and "
                 f"kind as {'one' if one else 'ones'} already in the campaign. Choose what to do "
                 f"with {'it' if one else 'each'}."]  # fmt: skip
        if new:
            parts.append(f"{_entries(new, 'new ')} will be added.")
        if kept:
            parts.append(f"{_entries(kept)} already in the campaign exactly as in the file "
                         f"{'is' if kept == 1 else 'are'} left alone.")  # fmt: skip
        self.intro = QLabel(plain(" ".join(parts)))
        self.intro.setWordWrap(True)

        self.table = QTableWidget(len(plan.duplicates), 3)
        self.table.setObjectName("duplicatesTable")
        self.table.setHorizontalHeaderLabels(["Name", "What the file changes", "Do"])
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(DIFFERENCES, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(CHOICE, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setWordWrap(True)
        self.boxes: list[QComboBox] = []
        for row, dup in enumerate(plan.duplicates):
            name = QTableWidgetItem(dup.label)
            name.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            what = QTableWidgetItem("; ".join(dup.differences))
            what.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            what.setToolTip("\n".join(dup.differences))
            self.table.setItem(row, NAME, name)
            self.table.setItem(row, DIFFERENCES, what)
            box = self._choice_box()
            box.setAccessibleName(f"What to do with {dup.label}")
            self.table.setCellWidget(row, CHOICE, box)
            self.boxes.append(box)
        self.table.resizeRowsToContents()

        self.all_box = self._choice_box()
        self.all_box.setObjectName("applyToAllChoice")
        self.all_button = QPushButton("Apply to &all")
        self.all_button.clicked.connect(self._on_apply_all)
        all_row = QHBoxLayout()
        caption = QLabel("&For every one:")
        caption.setBuddy(self.all_box)
        all_row.addWidget(caption)
        all_row.addWidget(self.all_box)
        all_row.addWidget(self.all_button)
        all_row.addStretch(1)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Import")
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setToolTip(
            "Import nothing"
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addLayout(all_row)
        layout.addWidget(QLabel("Ctrl+Z takes the whole import back."))
        layout.addWidget(self.buttons)

    @staticmethod
    def _choice_box() -> QComboBox:
        box = QComboBox()
        box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the wheel scrolls past it, not into it
        for choice, label in CHOICE_LABELS.items():
            box.addItem(label, choice)
        return box

    def _on_apply_all(self) -> None:
        for box in self.boxes:
            box.setCurrentIndex(self.all_box.currentIndex())

    def set_choice(self, row: int, choice: Choice) -> None:
        """Chooses ``choice`` for the duplicate in ``row``."""
        self.boxes[row].setCurrentIndex(self.boxes[row].findData(choice))

    def choices(self) -> list[Choice]:
        """Gets the choice made for each duplicate, in order."""
        return [Choice(box.currentData()) for box in self.boxes]

    def changes(self) -> ImportChanges:
        """Gets what the import writes with the choices made."""
        return resolve(self.plan, self.choices())
