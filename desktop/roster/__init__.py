"""The campaign roster: tree of entries and templates, the entry editor, undoable commands."""
