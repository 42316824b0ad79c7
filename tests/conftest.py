"""Test configuration: Qt runs offscreen unless a developer asks for a real display."""

import os
import tempfile

# Set before any Qt import so that CI (no display) and developers get the same platform.
# Export QT_QPA_PLATFORM=xcb yourself to watch the tests on a real (or Xvfb) screen.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The app keeps a few files in the user's data folder (which Combat Desks run, for leases):
# the tests' go to a folder of their own, shared with the apps they start as child processes.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="combatdesk-tests-data-")
