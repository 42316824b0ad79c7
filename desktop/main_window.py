"""The main window: the campaign's roster and monster templates, and switching campaigns."""

from __future__ import annotations

import html

from PySide6.QtCore import QSettings, QSortFilterProxyModel, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTableView,
    QTabWidget,
    QToolBar,
    QWidget,
)

from core import __version__
from core.roster import Campaign
from core.store import Store, StoreError
from desktop.roster_model import ValuesTableModel, roster_model, templates_model

LAST_CAMPAIGN_KEY = "campaign/last_id"


def _table(model: ValuesTableModel[object], name: str) -> QTableView:
    proxy = QSortFilterProxyModel(model)
    proxy.setSourceModel(model)
    proxy.setSortRole(Qt.ItemDataRole.UserRole)
    view = QTableView()
    view.setObjectName(name)
    view.setModel(proxy)
    view.setSortingEnabled(True)
    view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # keep the campaign's own order at first
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setStretchLastSection(True)
    return view


class MainWindow(QMainWindow):
    """Shows one campaign of a store; the DM creates and switches campaigns here."""

    def __init__(self, store: Store, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self._store = store
        self._settings = settings
        self._campaigns: list[Campaign] = []
        self.campaign: Campaign | None = None

        self.roster = roster_model(self)
        self.templates = templates_model(self)
        self.roster_view = _table(self.roster, "rosterView")  # type: ignore[arg-type]
        self.templates_view = _table(self.templates, "templatesView")  # type: ignore[arg-type]
        self.tabs = QTabWidget()
        self.tabs.addTab(self.roster_view, "&Roster")
        self.tabs.addTab(self.templates_view, "&Monster templates")
        self.setCentralWidget(self.tabs)

        self.campaign_box = QComboBox()
        self.campaign_box.setObjectName("campaignBox")
        self.campaign_box.setMinimumContentsLength(28)
        self.campaign_box.setToolTip("The campaign shown (Ctrl+1…9 to switch)")
        self.campaign_box.activated.connect(self._on_campaign_chosen)
        self._build_actions()

        self.db_label = QLabel(store.label)
        self.statusBar().addPermanentWidget(self.db_label)
        self.reload_campaigns()
        self._restore_state()

    # --- construction --------------------------------------------------------------------------

    def _build_actions(self) -> None:
        self.new_campaign_action = QAction("&New Campaign…", self)
        self.new_campaign_action.setShortcut(QKeySequence.StandardKey.New)
        self.new_campaign_action.setStatusTip("Create an empty campaign and switch to it")
        self.new_campaign_action.triggered.connect(self.ask_new_campaign)
        self.reload_action = QAction("&Reload", self)
        self.reload_action.setShortcut(QKeySequence.StandardKey.Refresh)
        self.reload_action.setStatusTip("Read the campaign again from the database")
        self.reload_action.triggered.connect(self.reload_campaigns)
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)

        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(self.new_campaign_action)
        file_menu.addAction(self.reload_action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)
        self.campaign_menu = self.menuBar().addMenu("&Campaign")
        self.campaign_group = QActionGroup(self)
        self.campaign_group.setExclusive(True)
        help_menu = self.menuBar().addMenu("&Help")
        about = QAction("&About Combat Desk", self)
        about.triggered.connect(self._on_about)
        help_menu.addAction(about)

        toolbar = QToolBar("Campaign")
        toolbar.setObjectName("campaignToolbar")
        toolbar.addWidget(QLabel(" Campaign: "))
        toolbar.addWidget(self.campaign_box)
        toolbar.addAction(self.new_campaign_action)
        self.addToolBar(toolbar)

    def _restore_state(self) -> None:
        geometry = self._settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(980, 600)
        state = self._settings.value("window/state")
        if state is not None:
            self.restoreState(state)
        last = self._settings.value(LAST_CAMPAIGN_KEY)
        chosen = next((c for c in self._campaigns if str(c.id) == str(last)), None)
        if chosen is None and self._campaigns:
            chosen = self._campaigns[0]
        if chosen is not None:
            self.show_campaign(chosen)

    # --- campaigns -----------------------------------------------------------------------------

    def reload_campaigns(self) -> None:
        """Reads the campaign list (and the shown campaign) again from the store."""
        try:
            self._campaigns = self._store.campaigns()
        except StoreError as exc:
            self._report(exc)
            return
        self.campaign_box.clear()
        for action in self.campaign_group.actions():
            self.campaign_group.removeAction(action)
            self.campaign_menu.removeAction(action)
        for number, campaign in enumerate(self._campaigns, start=1):
            self.campaign_box.addItem(campaign.name, campaign.id)
            action = QAction(campaign.name, self.campaign_group)
            action.setCheckable(True)
            action.setData(campaign.id)
            if number <= 9:
                action.setShortcut(QKeySequence(f"Ctrl+{number}"))
            action.triggered.connect(lambda _=False, c=campaign: self.show_campaign(c))
            self.campaign_menu.addAction(action)
        if self.campaign is not None:
            current = next((c for c in self._campaigns if c.id == self.campaign.id), None)
            if current is not None:
                self.show_campaign(current)

    def show_campaign(self, campaign: Campaign) -> None:
        """Shows ``campaign``'s roster and templates and remembers it for the next start."""
        try:
            roster = self._store.roster(campaign.id)
            templates = self._store.monster_templates(campaign.id)
        except StoreError as exc:
            self._report(exc)
            return
        self.campaign = campaign
        self.roster.set_items(roster)
        self.templates.set_items(templates)
        self.roster_view.resizeColumnsToContents()
        self.templates_view.resizeColumnsToContents()
        self.campaign_box.setCurrentIndex(self.campaign_box.findData(campaign.id))
        for action in self.campaign_group.actions():
            action.setChecked(action.data() == campaign.id)
        self.setWindowTitle(f"{campaign.name} — Combat Desk")
        self.statusBar().showMessage(
            f"{len(roster)} in the roster, {len(templates)} monster templates", 5000
        )
        self._settings.setValue(LAST_CAMPAIGN_KEY, campaign.id)

    def create_campaign(self, name: str) -> Campaign | None:
        """Creates a campaign and switches to it; reports a refused name to the DM."""
        try:
            campaign = self._store.create_campaign(name)
        except StoreError as exc:
            self._report(exc)
            return None
        self.reload_campaigns()
        self.show_campaign(campaign)
        return campaign

    def ask_new_campaign(self) -> None:
        """Asks the DM for a name and creates the campaign."""
        name, ok = QInputDialog.getText(self, "New Campaign", "Name of the new campaign:")
        if ok and name.strip():
            self.create_campaign(name)

    def _on_campaign_chosen(self, index: int) -> None:
        campaign_id = self.campaign_box.itemData(index)
        chosen = next((c for c in self._campaigns if c.id == campaign_id), None)
        if chosen is not None:
            self.show_campaign(chosen)

    # --- housekeeping --------------------------------------------------------------------------

    def _report(self, exc: Exception) -> None:
        self.statusBar().showMessage(str(exc), 10000)
        QMessageBox.warning(self, "Combat Desk", str(exc))

    def _on_about(self) -> None:
        QMessageBox.about(
            self,
            "About Combat Desk",
            f"<b>Combat Desk {__version__}</b><p>Runs old-school combat at the table: "
            "AD&amp;D segment initiative, side d6, popcorn and time units.</p>"
            f"<p>Campaign database: {html.escape(self._store.label)}</p>",
        )

    def closeEvent(self, event: object) -> None:
        self._settings.setValue("window/geometry", self.saveGeometry())
        self._settings.setValue("window/state", self.saveState())
        self._settings.sync()
        super().closeEvent(event)  # type: ignore[arg-type]
