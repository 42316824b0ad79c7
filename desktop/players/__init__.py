"""The players' screen: a second window, for a monitor, TV or projector the table can see.

- :mod:`~desktop.players.window` — the window itself; it draws a view cleared for the players
  (:mod:`core.printout.players` decides what they may know).
- :mod:`~desktop.players.actions` — the View menu's Players' Screen actions: open it on a
  chosen screen, follow the fight shown, the party's HP, hide creatures from the players.
- :mod:`~desktop.players.hide_dialog` — choosing who the players do not see yet.
- :mod:`~desktop.players.host` — what these use of the main window.
"""
