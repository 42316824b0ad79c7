"""Combat Desk's Qt desktop application (PySide6). Holds no rules: it asks ``core``."""
