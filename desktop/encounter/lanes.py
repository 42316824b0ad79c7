"""The lanes and palettes of the action board: what a DM can declare, in the sources' words.

These are labels for the board, not rules: the engine decides what a declaration means.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Lane:
    """One place a card can be dropped: the ``action`` value it writes, and what it means."""

    action: str
    title: str
    meaning: str
    key: str
    """The key that declares it for the selected card (the drag's keyboard equivalent)."""


# addict: the Action list of shared/rules/addict-procedure-2024-03-revision.md (DMG p.61); a
# word beside each letter, for a DM who has not learnt the letters ("P [P]" told nothing).
ADDICT_LANES = (
    Lane("P", "P · psionics", "Psionic combat (occurs every segment)", "P"),
    Lane("A", "A · avoid", "Avoid engagement: flee, slam a door, escape by magic", "A"),
    Lane("B", "B · parley", "Parley", "B"),
    Lane("C", "C · await", "Await action by the other party", "C"),
    Lane("D", "D · missile, spell",
         "Discharge missiles, use a device, cast a spell, turn undead", "D"),
    Lane("E", "E · move", "Non-avoiding movement: close, charge, reposition", "E"),
    Lane("F", "F · set", "Set weapons against a possible charge", "F"),
    Lane("G", "G · strike", "Strike blows, to kill or subdue", "G"),
    Lane("H", "H · grapple", "Grapple or hold", "H"),
)

# side-d6: the plain kinds of docs/systems/side-d6.md ("Actions: plain kinds and DMG letters").
SIDE_D6_LANES = (
    Lane("attack", "attack · G/H", "Melee: a hit or miss per recorded blow", "1"),
    Lane("missile", "missile · D", "Shoot: the missile bonus makes it earlier", "2"),
    Lane("spell", "spell · D", "Cast a memorised spell: begins in the initiative segment", "3"),
    Lane("move", "move · E", "Move or close (tick charge to charge)", "4"),
    Lane("charge", "charge", "Charge, then any recorded hits", "5"),
    Lane("flee", "flee · A", "Flee: the combatant leaves the fight", "6"),
    Lane("parley", "parley · B", "Talk", "7"),
    Lane("wait", "wait · C", "Wait for the other side", "8"),
    Lane("set", "set · F", "Set a weapon against a charge", "9"),
    Lane("other", "other · P", "Anything else: a device, turning, psionics", "0"),
)

# popcorn: what the active creature does on its turn (docs/systems/popcorn.md, Take Action).
POPCORN_ACTIONS = ("attack", "missile", "spell", "move", "withdraw", "retreat", "flee",
                   "parley", "other")

# time-units: the palette dragged onto a combatant (docs/systems/time-units.md).
TU_ACTIONS = (
    Lane("melee", "melee", "Melee attack(s)", "M"),
    Lane("missile", "missile", "Missile attack(s): first on a shared TU", "I"),
    Lane("spell", "spell", "Cast a spell: 1 TU a spell level", "S"),
    Lane("move", "move", "Move", "V"),
    Lane("other", "other", "Anything else", "O"),
)


def lanes_for(system_id: str) -> tuple[Lane, ...]:
    """Gets the declaration lanes of a segment system (empty for the others)."""
    return {"addict": ADDICT_LANES, "side-d6": SIDE_D6_LANES}.get(system_id, ())


AIMED: dict[str, frozenset[str]] = {
    "addict": frozenset({"G", "H"}),
    "side-d6": frozenset({"attack", "missile"}),
    "popcorn": frozenset({"attack", "missile"}),
    "time-units": frozenset({"melee", "missile"}),
}
"""The actions, by system, that are blows or shots at someone: declared without a target, a
recorded hit would land nowhere, so the form asks for one."""
