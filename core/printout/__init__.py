"""What a DM reads: the words for steps, rolls and commands, and the printed round summary.

- :mod:`~core.printout.words` — steps, rolls, commands, options and engine messages in plain
  words; the screen, the printout and the undo texts all use it.
- :mod:`~core.printout.summary` — the round summary built from a scenario and its resolution.
- :mod:`~core.printout.effects` — the spells and effects a fight began, and which still run in a
  round.
- :mod:`~core.printout.rows` — what a summary is made of: its rows of facts, round by round.
- :mod:`~core.printout.text` — the summary's declarations and steps worded for the page.
- :mod:`~core.printout.html` — the summary as one self-contained HTML page.
- :mod:`~core.printout.timeline_svg` — a round's timeline as an SVG picture.
- :mod:`~core.printout.report` — the command line's plain account and the rule catalogue.
- :mod:`~core.printout.players` — the players' screen: what the table may know of a fight
  (every secrecy rule in one place).

May use: :mod:`core.fight`, :mod:`core.rules` and :mod:`core.model`; no store, no Qt.
"""
