"""The values every other part of the core shares.

- :mod:`~core.model.values` — combatants, weapons, spells, rolls, steps and resolutions.
- :mod:`~core.model.dice` — dice notation and a roller over an injected random generator.
- :mod:`~core.model.scenario` — the ``combatdesk/scenario-1`` document, read and checked.
- :mod:`~core.model.weapons` — the weapon table's facts, looked up by name.
- :mod:`~core.model.limits` — the sizes Combat Desk accepts from a file.
- :mod:`~core.model.resources` — where the data files in ``resources/`` are.

May use: the standard library only. Every other part of the core may use it.
"""
