"""The first window, driven as a DM would: see the sample roster, create and switch campaigns."""

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from core.store import Store
from desktop.app import ensure_sample_campaign
from desktop.main_window import MainWindow


def names_in(window: MainWindow, group: str = "PCs") -> list[str]:
    """Gets the names shown under the group row titled ``group`` (as the tree shows them)."""
    model = window.roster_panel.view.model()
    for g in range(model.rowCount()):
        parent = model.index(g, 0)
        if parent.data().startswith(f"{group} ("):
            return [model.index(r, 0, parent).data() for r in range(model.rowCount(parent))]
    return []


def test_first_start_shows_the_sample_roster(
    qtbot: QtBot, sample_store: Store, settings: QSettings
) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.show()
    assert window.campaign is not None and "sample" in window.campaign.name
    assert names_in(window) == [
        "Brannoc the Bold",
        "Sister Ysolde",
        "Halvaine the Arcane",
        "Pip Underbough",
    ]
    assert names_in(window, "Henchmen") == ["Garrick"]
    assert names_in(window, "Hirelings") == ["Torchbearer Wat"]
    model = window.roster_panel.view.model()
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers[:3] == ["Name", "Class / HD", "Level"]
    hp_column = headers.index("HP")
    assert model.index(0, hp_column, model.index(0, 0)).data() == "24 / 24"
    assert "Orc" in names_in(window, "Monster templates")
    assert window.windowTitle().startswith("The Keep on the Borderlands")


def test_the_roster_sorts_by_a_clicked_column(
    qtbot: QtBot, sample_store: Store, settings: QSettings
) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    hp = 3
    window.roster_panel.view.sortByColumn(hp, Qt.SortOrder.AscendingOrder)
    assert names_in(window) == [
        "Halvaine the Arcane",
        "Pip Underbough",
        "Sister Ysolde",
        "Brannoc the Bold",
    ]
    window.roster_panel.view.sortByColumn(hp, Qt.SortOrder.DescendingOrder)
    assert names_in(window)[0] == "Brannoc the Bold"
    model = window.roster_panel.view.model()
    groups = [model.index(g, 0).data().split(" (")[0] for g in range(model.rowCount())]
    assert groups == ["PCs", "Henchmen", "Hirelings", "Monster templates"]  # groups stay put


def test_the_dm_creates_a_campaign_and_switches_back(
    qtbot: QtBot, sample_store: Store, settings: QSettings, monkeypatch: object
) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    monkeypatch.setattr(  # type: ignore[attr-defined]
        QInputDialog, "getText", staticmethod(lambda *a, **k: ("Tomb of Horrors", True))
    )
    window.new_campaign_action.trigger()
    assert window.campaign is not None and window.campaign.name == "Tomb of Horrors"
    assert window.entries == [] and names_in(window) == []
    assert window.campaign_box.currentText() == "Tomb of Horrors"
    sample_index = next(
        i for i in range(window.campaign_box.count()) if "sample" in window.campaign_box.itemText(i)
    )
    window.campaign_box.setCurrentIndex(sample_index)
    window.campaign_box.activated.emit(sample_index)
    assert "Brannoc the Bold" in names_in(window)
    menu_names = [a.text() for a in window.campaign_group.actions()]
    assert "Tomb of Horrors" in menu_names
    tomb = next(a for a in window.campaign_group.actions() if a.text() == "Tomb of Horrors")
    tomb.trigger()
    assert window.campaign.name == "Tomb of Horrors"


def test_a_refused_campaign_name_is_explained(
    qtbot: QtBot, sample_store: Store, settings: QSettings, monkeypatch: object
) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    shown: list[str] = []
    monkeypatch.setattr(  # type: ignore[attr-defined]
        QMessageBox, "warning", staticmethod(lambda _p, _t, text: shown.append(text))
    )
    existing = window.campaign.name  # type: ignore[union-attr]
    assert window.create_campaign(existing) is None
    assert shown and "already exists" in shown[0]


def test_window_state_and_last_campaign_come_back(
    qtbot: QtBot, sample_store: Store, settings: QSettings
) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.create_campaign("Ravenloft")
    window.resize(777, 555)
    window.close()
    again = MainWindow(sample_store, settings)
    qtbot.addWidget(again)
    assert again.campaign is not None and again.campaign.name == "Ravenloft"
    assert again.size().width() == 777


def test_the_installed_entry_point_refuses_a_foreign_file_with_a_message(tmp_path: Path) -> None:
    """``python -m desktop --database`` on a text file: a clear message, exit 2, file kept."""
    bad = tmp_path / "notes.txt"
    bad.write_text("not a campaign\n" * 20)
    proc = subprocess.run(
        [sys.executable, "-m", "desktop", "--database", f"sqlite:///{bad}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert proc.returncode == 2
    assert "not a Combat Desk campaign" in proc.stderr and "Traceback" not in proc.stderr
    assert bad.read_text() == "not a campaign\n" * 20


def test_ensure_sample_campaign_only_on_first_start(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'c.sqlite'}")
    ensure_sample_campaign(store)
    ensure_sample_campaign(store)
    assert len(store.campaigns.all()) == 1
    store.close()


def test_the_app_opens_the_database_saved_in_settings(tmp_path: Path) -> None:
    """Without --database, the campaign database chosen in the settings dialog is used."""
    import os

    config = tmp_path / "config"
    chosen = tmp_path / "shared.sqlite"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(config),
           "COMBATDESK_STARTUP_PROBE": "1"}
    script = (
        "from PySide6.QtCore import QSettings\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from desktop.database_settings import save_database_url\n"
        "app = QApplication([])\n"
        "QApplication.setOrganizationName('CombatDesk')\n"
        "QApplication.setApplicationName('Combat Desk')\n"
        f"save_database_url(QSettings(), 'sqlite:///{chosen}')\n"
    )
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=60)
    proc = subprocess.run([sys.executable, "-m", "desktop"], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert chosen.exists()  # the app created its sample campaign there, not in the default place


def test_the_window_is_on_screen_before_sqlalchemy_is_imported(tmp_path: Path) -> None:
    """The first frame does not wait for SQLAlchemy and the store (bench/bench_startup.py):
    the window is built and shown without them, and a first start still gets its sample
    campaign just after."""
    import os

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path),
           "COMBATDESK_STARTUP_PROBE": "1"}
    script = (
        "import sys\n"
        "import desktop.app\n"
        "from desktop import first_frame\n"
        "from desktop.main_window import MainWindow\n"
        "built = MainWindow.__init__\n"
        "def checked(self, store, settings, parent=None):\n"
        "    assert store is None\n"
        "    built(self, store, settings, parent)\n"
        "MainWindow.__init__ = checked\n"
        "report = first_frame.report\n"
        "def report_and_check(moment):\n"
        "    report(moment)\n"
        "    if moment == 'shown':\n"
        "        print('loaded', *[m for m in ('sqlalchemy', 'core.store', 'pyqtgraph')\n"
        "                          if m in sys.modules], flush=True)\n"
        "first_frame.report = report_and_check\n"
        f"sys.exit(desktop.app.main(['--database', 'sqlite:///{tmp_path / 'c.sqlite'}']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["shown", "loaded", "ready"]
    assert lines[1] == "loaded"  # nothing of SQLAlchemy, the store or pyqtgraph yet
    store = Store.open(f"sqlite:///{tmp_path / 'c.sqlite'}")
    assert len(store.campaigns.all()) == 1  # the sample campaign, made after the first frame
    store.close()
