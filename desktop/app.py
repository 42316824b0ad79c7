"""Starts Combat Desk: ``combatdesk [--database URL]``, ``combatdesk simulate FILE …``, or
``combatdesk --pdf OUT.pdf SCENARIO.json`` (the round summary as PDF, no window)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from core import __version__

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from core.store import Store
    from desktop.main_window import MainWindow

# core.store is imported where it is used: it brings SQLAlchemy, which the main window's first
# frame does not wait for (the store is opened just after it, in _show_campaigns).

CLI_COMMANDS = ("simulate", "summary", "rules", "access")
"""Subcommands handed to the command line (``python -m core``) without a window; ``access``
lets the standalone program set up shared campaigns too."""


HEADLESS_PLATFORMS = ("offscreen", "minimal")


def ensure_sample_campaign(store: Store) -> None:
    """Creates the sample campaign when the database has no campaign at all (first start)."""
    if store.campaigns.all():
        return
    from core.roster.sample import load_sample
    from core.store import NameTakenError

    name, roster, templates = load_sample()
    try:
        store.campaigns.create_with(name, roster, templates)
    except NameTakenError:  # a shared server: another DM's sample, out of this role's sight
        store.campaigns.create_with(f"{name} ({store.access.who()})", roster, templates)


def _saved_url(settings: object) -> str | None:
    from sqlalchemy.exc import ArgumentError

    from core.store import StoreError
    from desktop.database_settings import saved_database_url

    try:
        return saved_database_url(settings)  # type: ignore[arg-type]
    except ArgumentError as exc:
        raise StoreError(
            f"The saved campaign database address is not valid ({exc}); start with "
            "--database to choose another."
        ) from None


def _open_asking_for_password(url: str | None,
                              ask: Callable[[str, str], str | None] | None) -> Store:
    """Opens the store; a server that wants a password the keyring and ~/.pgpass did not give
    is asked for one (never on the command line, where every user could read it)."""
    from core.store import Store, StoreError
    from core.store.addresses import make_safe

    try:
        return Store.open(url)
    except StoreError as exc:
        from desktop.database_settings import needs_password, with_password

        if url is None or ask is None or not needs_password(url, exc):
            raise
        attempt: StoreError = exc
        for _ in range(3):
            password = ask(make_safe(url), str(attempt))
            if password is None:
                raise attempt from None
            try:
                return Store.open(with_password(url, password))
            except StoreError as again:
                if not needs_password(url, again):
                    raise
                attempt = again
        raise attempt from None


def _ask_password(where: str, why: str) -> str | None:
    from PySide6.QtWidgets import QInputDialog, QLineEdit

    from desktop.plain_text import plain

    text, ok = QInputDialog.getText(
        None, "Campaign database password",
        plain(f"{where} asks for a password.\n({why})\n\nPassword:"),
        QLineEdit.EchoMode.Password)
    return text if ok else None


DEFAULT_DATABASE = "{default database}"
"""Stands for the default database's URL in the help, filled in when the help is printed."""


class _HelpFormatter(argparse.HelpFormatter):
    """Names the default database only when the help is printed: every start builds the parser,
    and the URL comes from core.store, which brings SQLAlchemy."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if text is not None and DEFAULT_DATABASE in text:
            from core.store import default_database_url

            text = text.replace(DEFAULT_DATABASE, default_database_url())
        return text


def build_parser() -> argparse.ArgumentParser:
    """Builds the desktop app's argument parser."""
    parser = argparse.ArgumentParser(
        prog="combatdesk",
        description="Run old-school combat at the table. Subcommands "
        f"{', '.join(CLI_COMMANDS)} run the command line instead.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help=f"SQLAlchemy database URL (default: {DEFAULT_DATABASE})",
    )
    parser.add_argument("--version", action="version", version=f"Combat Desk {__version__}")
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="check this installation end to end without a window (store, engine, PDF); "
        "exit 0 when everything works",
    )
    parser.add_argument(
        "--pdf",
        nargs=2,
        metavar=("OUT.pdf", "SCENARIO.json"),
        help="write the round summary of a scenario file as a PDF and exit, without a window",
    )
    parser.add_argument(
        "--page-size",
        choices=("a4", "letter"),
        default="a4",
        help="paper for --pdf (default: a4)",
    )
    parser.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="with --pdf: summarise round N only (default: the whole encounter)",
    )
    return parser


def export_summary_pdf(out: Path, scenario_path: Path, page: str, round_no: int | None) -> int:
    """Renders a scenario's summary to PDF offscreen; returns the exit code."""
    from core.cli.commands import EXIT_BAD_INPUT, InputError, load_scenario, resolve_scenario
    from core.model.dice import DiceError
    from core.model.limits import printout_problem
    from core.model.scenario import ScenarioError
    from core.printout.html import render_html
    from core.printout.summary import SummaryError, build_summary
    from core.rules import UnknownSystemError

    try:
        scenario = load_scenario(scenario_path)
        summary = build_summary(scenario, resolve_scenario(scenario), round_no)
        problem = printout_problem(summary)
        if problem is not None:
            print(f"combatdesk: error: {scenario_path}: {problem} (--round N)", file=sys.stderr)
            return EXIT_BAD_INPUT
        html = render_html(summary)
    except InputError as exc:
        print(f"combatdesk: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SummaryError as exc:
        print(f"combatdesk: error: --round: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ScenarioError, UnknownSystemError, DiceError) as exc:
        print(f"combatdesk: error: {scenario_path}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT

    # No window is ever shown, so the offscreen platform is enough (and works with no display).
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from desktop.printing import export_pdf

    _app = QApplication.instance() or QApplication([sys.argv[0]])
    if out.parent and not out.parent.is_dir():
        print(f"combatdesk: error: {out}: no such folder {out.parent}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        export_pdf(html, out, page)
    except OSError as exc:
        print(f"combatdesk: error: {out}: cannot write the PDF ({exc})", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the app (or a scenario subcommand) and returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in CLI_COMMANDS:
        from core.cli.commands import main as cli_main

        return cli_main(args_list)
    args = build_parser().parse_args(args_list)
    if args.self_test:
        from desktop.self_test import run_self_test, summary_pdf_check

        return run_self_test(sys.stdout, [("summary", summary_pdf_check)])
    if args.pdf:  # before any window exists: a headless export
        out, scenario_path = args.pdf
        return export_summary_pdf(Path(out), Path(scenario_path), args.page_size, args.round)

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0], *args_list])
    QApplication.setOrganizationName("CombatDesk")
    QApplication.setApplicationName("Combat Desk")
    QApplication.setApplicationVersion(__version__)
    QApplication.setDesktopFileName("combatdesk")  # ties windows to packaging/linux/*.desktop
    from PySide6.QtGui import QIcon

    from core.model.resources import resource

    QApplication.setWindowIcon(QIcon(str(resource("icons/combatdesk.svg"))))
    settings = QSettings()
    from desktop.first_frame import after_first_frame
    from desktop.main_window import MainWindow

    # The window first, its campaign just after its first frame: the store (SQLAlchemy, the
    # file's checks, the first reads) takes longer than the window (bench/bench_startup.py).
    # Nothing the DM does can come in between: the event loop waits for _show_campaigns.
    window = MainWindow(None, settings)
    window.show()
    opened: list[Store] = []
    after_first_frame(window, lambda: _show_campaigns(window, args.database, settings, opened))
    try:
        return int(app.exec())
    finally:
        for store in opened:
            store.close()


def _show_campaigns(window: MainWindow, database: str | None, settings: QSettings,
                    opened: list[Store]) -> None:
    """Opens the campaign store (``database``, else the one saved in the settings) and shows
    it in ``window``; a store that cannot be opened ends the app with exit code 2."""
    from desktop import first_frame

    if first_frame.probing():  # before importing core.store: the first frame is out now
        first_frame.report("shown")
    from PySide6.QtWidgets import QApplication, QMessageBox

    from core.store import StoreError
    from desktop.plain_text import plain

    headless = QApplication.platformName() in HEADLESS_PLATFORMS  # nobody could click it away
    try:
        # --database wins; otherwise the campaign database chosen in File → Campaign database…
        url = database or _saved_url(settings)
        store = _open_asking_for_password(url, ask=None if headless else _ask_password)
        opened.append(store)
        ensure_sample_campaign(store)
    except StoreError as exc:
        window.hide()  # the refusal alone on screen, as when the store was opened first
        print(f"combatdesk: {exc}", file=sys.stderr)
        if not headless:
            QMessageBox.critical(None, "Combat Desk cannot open the campaign", plain(str(exc)))
        QApplication.exit(2)
        return
    window.use_store(store)
    for line in store.damage:  # also on the terminal, where a headless run can see it
        print(f"combatdesk: {line}", file=sys.stderr)
    if store.damage and not headless:
        from desktop.damage_warning import warn_about_damage

        warn_about_damage(window, store, "The campaign file is damaged")
    if first_frame.probing():  # bench/bench_startup.py: report and leave
        first_frame.report("ready")
        QApplication.quit()
