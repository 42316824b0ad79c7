"""The campaign database dialog: choose SQLite or a PostgreSQL server, test it, save it.

The URL is kept in QSettings without its password; the password goes to the platform keyring
when there is one. Without a keyring backend the dialog says so and saves no password.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy.engine import URL, make_url

from core.store import StoreError
from core.store.probe import probe
from desktop.dialog_help import add_dialog_help
from desktop.last_folder import CAMPAIGN, remember, start_path

URL_KEY = "database/url"
KEYRING_SERVICE = "CombatDesk"


def keyring_available() -> bool:
    """Tells whether a real keyring backend exists (not keyring's 'fail' or null backends)."""
    try:
        import keyring
        from keyring.backends import fail, null
    except ImportError:
        return False
    backend = keyring.get_keyring()
    return not isinstance(backend, fail.Keyring | null.Keyring)


NO_FILE = "Choose the campaign file first: an SQLite campaign lives in a file."


def names_a_file(url: URL) -> bool:
    """Tells whether an SQLite URL names a file (not memory, which is gone at the end)."""
    database = url.database or ""
    return bool(database.strip()) and database != ":memory:" and not database.startswith("file:")


def _account(url: URL) -> str:
    return url._replace(password=None).render_as_string(hide_password=False)


def saved_database_url(settings: QSettings) -> str | None:
    """Gets the saved URL with the keyring's password put back (None when none is saved)."""
    text = settings.value(URL_KEY)
    if not text:
        return None
    try:
        url = make_url(str(text))
    except Exception:  # a hand-edited setting: the default campaign file is used instead
        return None
    if url.get_backend_name() == "sqlite" and not names_a_file(url):
        return None  # an SQLite address with no file keeps nothing once Combat Desk closes
    if url.password is None and url.username and keyring_available():
        import keyring

        password = keyring.get_password(KEYRING_SERVICE, _account(url))
        if password:
            url = url.set(password=password)
    return url.render_as_string(hide_password=False)


def save_database_url(settings: QSettings, text: str) -> str:
    """Saves a URL: the password to the keyring if there is one, never into QSettings.

    Returns what the DM should be told about the password.
    """
    url = make_url(text)
    note = ""
    if url.password:
        if keyring_available():
            import keyring

            keyring.set_password(KEYRING_SERVICE, _account(url), str(url.password))
            note = "The password is kept in the system keyring."
        else:
            note = "No system keyring here: the password was not saved."
        url = url._replace(password=None)
    settings.setValue(URL_KEY, url.render_as_string(hide_password=False))
    settings.sync()
    return note


TLS_MODES = (
    ("Use it if the server offers it", "prefer"),
    ("Never", "disable"),
    ("Always (no check of the server)", "require"),
    ("Always, server signed by my certificate authority", "verify-ca"),
    ("Always, and the server's name must match (recommended)", "verify-full"),
)
"""libpq's sslmode values, in words."""

_PASSWORD_REFUSALS = ("password authentication failed", "no password supplied",
                      "password is required", "fe_sendauth")


def needs_password(url: str, error: StoreError) -> bool:
    """Tells whether opening ``url`` failed only for want of the right password."""
    parsed = make_url(url)
    lowered = str(error).lower()
    return bool(parsed.username) and any(text in lowered for text in _PASSWORD_REFUSALS)


def with_password(url: str, password: str) -> str:
    """Gets ``url`` with ``password`` put in (kept in memory only)."""
    return make_url(url).set(password=password).render_as_string(hide_password=False)


def test_connection(text: str) -> str:
    """Connects read-only and reports what opening the database would do (a sentence)."""
    try:
        return probe(text)
    except StoreError as exc:
        return f"Cannot use it: {exc}"


class DatabaseSettingsDialog(QDialog):
    """Fields for an SQLite file or a PostgreSQL server; Test connection; Save."""

    def __init__(self, settings: QSettings, current: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setWindowTitle("Campaign database")
        self._settings = settings
        self.kind = QComboBox()
        self.kind.addItems(["SQLite file", "PostgreSQL server"])
        self.path = QLineEdit()
        self.host = QLineEdit("localhost")
        self.port = QSpinBox()
        self.port.setRange(1, 65535)
        self.port.setValue(5432)
        self.database = QLineEdit("combatdesk")
        self.user = QLineEdit()
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("empty: asked at start, or read from ~/.pgpass")
        self.tls = QComboBox()
        for label, mode in TLS_MODES:
            self.tls.addItem(label, mode)
        self.tls.setToolTip("verify-full is recommended on any network you do not control: "
                            "the server must prove it is the one named in Host.")
        self.root_certificate = QLineEdit()
        self.root_certificate.setPlaceholderText("the server's CA certificate (.crt), if private")
        self._other_query: dict[str, str | tuple[str, ...]] = {}
        form = QFormLayout()
        form.addRow("Kind", self.kind)
        self.browse = QPushButton("&Choose…")
        self.browse.clicked.connect(self.choose_file)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path, 1)
        file_row.addWidget(self.browse)
        self._file_row = QWidget()
        self._file_row.setLayout(file_row)
        file_row.setContentsMargins(0, 0, 0, 0)
        form.addRow("File", self._file_row)
        form.addRow("Host", self.host)
        form.addRow("Port", self.port)
        form.addRow("Database", self.database)
        form.addRow("User", self.user)
        form.addRow("Password", self.password)
        form.addRow("Encryption (TLS)", self.tls)
        form.addRow("Root certificate", self.root_certificate)
        self.keyring_note = QLabel(
            "" if keyring_available() else
            "No system keyring on this machine: the password will not be saved."
        )  # fmt: skip
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setTextFormat(self.result.textFormat().PlainText)
        self.test_button = QPushButton("&Test connection")
        self.test_button.clicked.connect(self.run_test)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.keyring_note)
        layout.addWidget(self.test_button)
        layout.addWidget(self.result)
        layout.addWidget(buttons)
        self.kind.currentIndexChanged.connect(self._show_fields)
        self._form = form
        self.set_url(current or saved_database_url(settings) or "")
        self._show_fields()
        self.setMinimumWidth(520)  # the answers are sentences: room for them to read whole

    def set_url(self, text: str) -> None:
        """Fills the fields from a URL."""
        if not text:
            return
        try:
            url = make_url(text)
        except Exception:  # a hand-edited setting: leave the fields empty rather than fail
            return
        if url.get_backend_name() == "sqlite":
            self.kind.setCurrentIndex(0)
            self.path.setText(url.database or "")
            return
        self.kind.setCurrentIndex(1)
        self.host.setText(url.host or "")
        self.port.setValue(url.port or 5432)
        self.database.setText(url.database or "")
        self.user.setText(url.username or "")
        self.password.setText(str(url.password or ""))
        query = dict(url.query)
        mode = query.pop("sslmode", "prefer")
        index = self.tls.findData(mode)
        self.tls.setCurrentIndex(index if index >= 0 else self.tls.findData("prefer"))
        root = query.pop("sslrootcert", "")
        self.root_certificate.setText(root if isinstance(root, str) else "")
        self._other_query = query  # settings typed into the URL by hand are kept as they are

    def url(self) -> str:
        """Gets the URL the fields describe."""
        if self.kind.currentIndex() == 0:
            return f"sqlite:///{self.path.text().strip()}"
        return URL.create(
            "postgresql+psycopg",
            username=self.user.text().strip() or None,
            password=self.password.text() or None,
            host=self.host.text().strip() or None,
            port=self.port.value(),
            database=self.database.text().strip() or None,
            query=self._query(),
        ).render_as_string(hide_password=False)

    def _query(self) -> dict[str, str | tuple[str, ...]]:
        query = dict(self._other_query)
        mode = str(self.tls.currentData())
        if mode != "prefer":  # libpq's own default needs no mention
            query["sslmode"] = mode
        if self.root_certificate.text().strip():
            query["sslrootcert"] = self.root_certificate.text().strip()
        return query

    def _show_fields(self) -> None:
        server = self.kind.currentIndex() == 1
        for widget in (self.host, self.port, self.database, self.user, self.password, self.tls,
                       self.root_certificate):
            self._form.setRowVisible(widget, server)
        self._form.setRowVisible(self._file_row, not server)
        self.keyring_note.setVisible(server and not keyring_available())

    def missing(self) -> str:
        """Says what must be filled in before the address can be tested or saved ("" if none)."""
        if self.kind.currentIndex() == 0 and not self.path.text().strip():
            return NO_FILE
        return ""  # a server with no host is this computer's own socket: libpq's default

    def run_test(self) -> str:
        """Tests the connection and shows the answer (as plain text)."""
        answer = self.missing() or test_connection(self.url())
        self.result.setText(answer)
        return answer

    def choose_file(self) -> None:
        """Picks the campaign file with the system's file dialog."""
        start = self.path.text().strip() or start_path(self._settings, CAMPAIGN)
        name, _ = QFileDialog.getSaveFileName(
            self, "Campaign file", start, "Campaign files (*.sqlite);;All files (*)",
            options=QFileDialog.Option.DontConfirmOverwrite,  # an existing campaign is opened
        )
        if name:
            remember(self._settings, CAMPAIGN, name)
            self.path.setText(name)

    def save(self) -> None:
        """Saves the URL (password to the keyring, if any) and closes the dialog."""
        missing = self.missing()
        if missing:  # an empty file would be a campaign kept in memory: nothing saved
            self.result.setText(missing)
            return
        note = save_database_url(self._settings, self.url())
        self.result.setText(f"Saved; Combat Desk uses it from the next start. {note}".strip())
        self.accept()
