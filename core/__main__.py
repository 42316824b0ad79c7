"""``python -m core``: the scenario command line (DESIGN §6)."""

import sys

from core.cli.commands import main

sys.exit(main())
