"""Combat Desk's pure-Python core: everything but the windows.

One subpackage per concept, each using only those listed below it (``pyproject.toml``'s
import-linter contracts check it):

- :mod:`core.cli` — the command line (``python -m core simulate | summary | rules | access``).
- :mod:`core.play` — a fight in play: its log kept in memory, every command saved as it happens.
- :mod:`core.store` — the campaign database (SQLAlchemy + Alembic): campaigns, roster, fights.
- :mod:`core.printout` — the round summary and the words a DM reads, on screen and on paper.
- :mod:`core.roster` — a campaign's roster: entries, checks, import/export, results of a fight.
- :mod:`core.fight` — a fight as a log of commands, its state, and where its procedure stands.
- :mod:`core.rules` — the four initiative systems: pure functions of a scenario and its dice.
- :mod:`core.model` — the values all of them share: combatants, steps, dice, the scenario file.

Nothing here imports Qt; only :mod:`core.store` (and what stands on it) imports SQLAlchemy.
"""

__version__ = "0.1.0"
