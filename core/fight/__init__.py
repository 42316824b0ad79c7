"""A fight as the DM builds it, command by command.

- :mod:`~core.fight.log` — the encounter log (commands and their events) and the state folded
  from it; undo and replay.
- :mod:`~core.fight.encounter` — the bridge between that state and the rules: the scenario a
  log stands for, the dice it still needs, its resolution.
- :mod:`~core.fight.procedure` — which phase of its system's procedure the fight waits for.

May use: :mod:`core.rules` and :mod:`core.model`. Keeps nothing on disk: saving a fight as it
is played is :mod:`core.play`'s work.
"""
