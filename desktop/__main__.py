"""``python -m desktop``: starts the app."""

import sys

from desktop.app import main

sys.exit(main())
