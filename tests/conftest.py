"""Test configuration: Qt runs offscreen unless a developer asks for a real display."""

import os

# Set before any Qt import so that CI (no display) and developers get the same platform.
# Export QT_QPA_PLATFORM=xcb yourself to watch the tests on a real (or Xvfb) screen.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
