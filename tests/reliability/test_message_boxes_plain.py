"""Every message box shows the DM's words as typed: an entry named ``<b>Orc</b>`` reads so.

QMessageBox guesses whether its text is HTML (``Qt.AutoText``), so text that quotes a name, a
note or an error goes through :func:`desktop.plain_text.plain`. This reads every message box
call in ``desktop/`` and names any whose text is neither ``plain(...)`` nor a fixed sentence.
"""

from __future__ import annotations

import ast
from pathlib import Path

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QMessageBox

from desktop.plain_text import plain

DESKTOP = Path(__file__).resolve().parents[2] / "desktop"
STATIC = {"information", "warning", "question", "critical"}
SETTERS = {"setText", "setInformativeText"}


def _safe(node: ast.expr) -> bool:
    """Text that cannot carry a DM's words unescaped: plain(...) or a fixed sentence."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "plain"
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, ast.Name) and node.id.isupper()  # a module's fixed message


def _box_texts(tree: ast.AST) -> list[tuple[int, ast.expr]]:
    """The text argument of QMessageBox.question/… calls and of setText on message boxes."""
    found: list[tuple[int, ast.expr]] = []
    boxes = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign)
             and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name)
             and n.value.func.id == "QMessageBox" for t in n.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner = node.func.value
        if (isinstance(owner, ast.Name) and owner.id == "QMessageBox"
                and node.func.attr in STATIC and len(node.args) >= 3):
            found.append((node.lineno, node.args[2]))
        elif (isinstance(owner, ast.Name) and owner.id in boxes and node.func.attr in SETTERS
              and node.args):
            found.append((node.lineno, node.args[0]))
    return found


def test_every_message_box_text_is_plain_or_fixed() -> None:
    unsafe, seen = [], 0
    for path in sorted(DESKTOP.rglob("*.py")):
        for line, text in _box_texts(ast.parse(path.read_text(encoding="utf-8"))):
            seen += 1
            if not _safe(text):
                unsafe.append(f"{path.relative_to(DESKTOP.parent)}:{line}: {ast.unparse(text)}")
    assert seen >= 20, "the scan finds the app's message boxes"
    assert unsafe == []


def test_a_name_that_looks_like_html_reads_as_typed_in_a_message_box(qapp: object) -> None:
    box = QMessageBox()
    box.setText(plain("Remove <b>Orc</b> & co from the roster?"))
    label = box.findChild(QLabel, "qt_msgbox_label")
    assert label is not None
    document = QTextDocument()
    document.setHtml(label.text())
    assert document.toPlainText() == "Remove <b>Orc</b> & co from the roster?"
