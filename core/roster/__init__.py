"""A campaign's roster: the PCs, henchmen, hirelings and monster templates kept between fights.

- :mod:`~core.roster.entries` — roster entries, templates, campaigns and the session log.
- :mod:`~core.roster.checks` — what an entry may hold, and what its ability scores give.
- :mod:`~core.roster.files` — import and export as JSON and CSV.
- :mod:`~core.roster.merge` — an imported file's duplicates and the DM's choices for them.
- :mod:`~core.roster.stamping` — numbered monsters stamped out of a template ("Orc ×6").
- :mod:`~core.roster.sample` — the sample campaign a newcomer finds on first start.
- :mod:`~core.roster.results` — what a fight proposes to write back into the roster.
- :mod:`~core.roster.kills` — the creatures a fight killed and the XP they are worth.

May use: :mod:`core.fight` (a fight's state, for its results), :mod:`core.rules` (ability
adjustments) and :mod:`core.model`. Knows no database: :mod:`core.store` keeps these values.
"""
