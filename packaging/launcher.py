"""Entry script PyInstaller freezes: the same ``main`` as the installed ``combatdesk`` command."""

import sys

from desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
