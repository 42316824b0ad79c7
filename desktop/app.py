"""Starts Combat Desk: ``combatdesk [--database URL]`` or ``combatdesk simulate FILE …``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from core import __version__
from core.store import Store, StoreError, default_database_url

CLI_COMMANDS = ("simulate", "rules")
"""Subcommands handed to the scenario command line (``python -m core``) without a window."""


HEADLESS_PLATFORMS = ("offscreen", "minimal")


def ensure_sample_campaign(store: Store) -> None:
    """Creates the sample campaign when the database has no campaign at all (first start)."""
    if store.campaigns():
        return
    from core.sample import load_sample

    name, roster, templates = load_sample()
    store.create_campaign_with(name, roster, templates)


def build_parser() -> argparse.ArgumentParser:
    """Builds the desktop app's argument parser."""
    parser = argparse.ArgumentParser(
        prog="combatdesk",
        description="Run old-school combat at the table. Subcommands "
        f"{', '.join(CLI_COMMANDS)} run the scenario command line instead.",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help=f"SQLAlchemy database URL (default: {default_database_url()})",
    )
    parser.add_argument("--version", action="version", version=f"Combat Desk {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the app (or a scenario subcommand) and returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in CLI_COMMANDS:
        from core.cli import main as cli_main

        return cli_main(args_list)
    args = build_parser().parse_args(args_list)

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication.instance() or QApplication([sys.argv[0], *args_list])
    QApplication.setOrganizationName("CombatDesk")
    QApplication.setApplicationName("Combat Desk")
    QApplication.setApplicationVersion(__version__)
    try:
        store = Store.open(args.database)
        ensure_sample_campaign(store)
    except StoreError as exc:
        print(f"combatdesk: {exc}", file=sys.stderr)
        if QApplication.platformName() not in HEADLESS_PLATFORMS:  # nobody could click it away
            QMessageBox.critical(None, "Combat Desk cannot open the campaign", str(exc))
        return 2

    from desktop.main_window import MainWindow

    window = MainWindow(store, QSettings())
    window.show()
    try:
        return int(app.exec())
    finally:
        store.close()
