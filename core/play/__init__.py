"""A fight in play: the session the encounter workspace drives.

- :mod:`~core.play.session` — an encounter's log kept in memory, each command checked, saved in
  the store and only then applied; undo, redo, watching another window's play, ending and
  reopening.

May use: :mod:`core.store`, :mod:`core.roster`, :mod:`core.fight` and :mod:`core.model`. It is
the one part of the core above both the fight and the store, which is why it stands apart.
"""
