"""What the DM reads: steps, rolls, commands, options and engine messages in plain words.

The engine speaks in ids (``orc-1``), scenario paths (``rounds[0].turns[5].nominates``) and
Python values; the screen, the printout and the undo texts all go through this module so the
DM reads names ("Orc 1"), places ("Kobold 2's turn in round 1") and words instead. Pure Python:
no Qt, no store, so the command line, the app and the tests word things the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

from core.fight.log import Command, EncounterState, EventKind
from core.model.values import Kind, Roll, Step, StepEvent
from core.rules import UnknownSystemError, find_system
from core.rules.base import parse_options

LETTERS: Mapping[str, str] = {
    "P": "psionics",
    "A": "avoid",
    "B": "parley",
    "C": "await",
    "D": "missile or spell",
    "E": "move or charge",
    "F": "set weapon",
    "G": "strike blows",
    "H": "grapple",
}
"""The DMG p.61 action letters (addict, side-d6) in the DM's words."""

_LIST_WORDS = {"declarations": "declaration", "turns": "turn", "actions": "action"}
_FIELD_WORDS = {
    "nominates": "who acts next",
    "target": "target",
    "roll": "die",
    "hit": "hit",
    "hits": "hits",
    "damage": "damage",
    "spell": "spell",
    "weapon": "weapon",
    "change": "change of action",
    "effect": "effect",
    "ready": "readied action",
    "triggers": "readied action",
    "actor": "who",
    "action": "action",
    "initiative": "initiative",
    "surprise": "surprise",
    "reaction": "reaction",
    "distance": "distance",
    "morale": "morale",
    "opening_morale": "opening morale",
}


def ordinal(n: int) -> str:
    """Gets ``1st``, ``2nd``, ``3rd``, ``11th``…"""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def key_words(key: str) -> str:
    """Gets a snake_case or kebab-case key as words (``casting_time`` → ``casting time``)."""
    return _FIELD_WORDS.get(key, key.replace("_", " ").replace("-", " "))


def value_words(value: Any) -> str:
    """Gets any value as words: no ``None``, no ``{'…'}``, no ``True``."""
    if isinstance(value, Enum):
        return str(value.value).replace("-", " ")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Mapping):
        return ", ".join(f"{key_words(str(k))} {value_words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(value_words(v) for v in value) or "none"
    return str(value)


# --- names ----------------------------------------------------------------------------------


def _entries(items: Any) -> tuple[str, ...]:
    out = []
    for item in items or ():
        actor = item.get("actor") if isinstance(item, Mapping) else getattr(item, "actor", None)
        out.append(str(actor) if actor is not None else "")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Names:
    """Turns ids and scenario paths into names; sides and unknown ids print as they are."""

    labels: Mapping[str, str] = field(default_factory=dict)
    rounds: tuple[Mapping[str, tuple[str, ...]], ...] = ()
    """Per round: the actor id of each declaration and turn, by list name."""
    actions: tuple[str, ...] = ()
    """The actor id of each time-unit action."""

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> Names:
        """Gets the names of a scenario document (``scenario.raw`` or ``scenario_document``)."""
        labels = {}
        for c in document.get("combatants") or ():
            if isinstance(c, Mapping) and isinstance(c.get("id"), str):
                labels[c["id"]] = str(c.get("name") or c["id"])
        rounds = tuple(
            {which: _entries(spec.get(which)) for which in ("declarations", "turns")}
            for spec in document.get("rounds") or ()
            if isinstance(spec, Mapping)
        )
        return cls(labels, rounds, _entries(document.get("actions")))

    @classmethod
    def from_state(cls, state: EncounterState) -> Names:
        """Gets the names of an encounter as its log stands."""
        return cls(
            {cid: c.label for cid, c in state.combatants.items()},
            tuple(
                {which: _entries(spec.get(which)) for which in ("declarations", "turns")}
                for spec in state.rounds
            ),
            _entries(state.actions),
        )

    @classmethod
    def of(cls, combatants: Iterable[Any]) -> Names:
        """Gets names from combatants (anything with ``id`` and ``label``)."""
        return cls({c.id: c.label for c in combatants})

    def __call__(self, cid: Any) -> str:
        if cid is None:
            return ""
        return self.labels.get(str(cid), str(cid))

    @staticmethod
    def owner(name: str) -> str:
        """Gets ``Brannoc's``: always ``'s``, as a DM says it aloud."""
        return f"{name}'s"

    # --- paths ----------------------------------------------------------------------------

    def entry_actor(self, which: str, index: int, round_index: int | None = None) -> str | None:
        """Gets the actor id of a declaration, turn (of round ``round_index``) or TU action."""
        if which == "actions":
            entries = self.actions
        else:
            if not self.rounds:
                return None
            at = len(self.rounds) - 1 if round_index is None else round_index
            if not 0 <= at < len(self.rounds):
                return None
            entries = self.rounds[at].get(which, ())
        return entries[index] if 0 <= index < len(entries) else None

    def entry_words(self, which: str, index: int, round_index: int | None = None) -> str:
        """Gets ``Brannoc's declaration`` / ``Kobold 2's 2nd action`` for a list entry."""
        kind = _LIST_WORDS.get(which, key_words(which))
        actor = self.entry_actor(which, index, round_index)
        if actor is None:
            return f"{ordinal(index + 1)} {kind}"
        if which == "actions":
            before = self.actions[: index + 1].count(actor)
            total = self.actions.count(actor)
            if total > 1:
                return f"{self.owner(self(actor))} {ordinal(before)} action"
        else:
            at = len(self.rounds) - 1 if round_index is None else round_index
            entries = self.rounds[at].get(which, ())
            before = entries[: index + 1].count(actor)
            if entries.count(actor) > 1:
                return f"{self.owner(self(actor))} {ordinal(before)} {kind}"
        return f"{self.owner(self(actor))} {kind}"

    def path_words(self, path: str) -> str:
        """Gets a scenario path in words.

        ``rounds[0].turns[5].nominates`` → ``who acts next in Kobold 2's turn (round 1)``;
        ``actions[5]`` → ``Kobold 2's 2nd action``; ``initiative.party`` → ``initiative party``.
        """
        if path.startswith("options."):
            return f"the option “{option_label(path.removeprefix('options.'))}”"
        parts = re.findall(r"([A-Za-z_]+)(?:\[(\d+)\])?", path)
        round_index: int | None = None
        entry = ""
        rest: list[str] = []
        for name, index in parts:
            if name == "rounds" and index:
                round_index = int(index)
            elif name in _LIST_WORDS and index and not entry:
                entry = self.entry_words(name, int(index), round_index)
            elif name == "triggers" and index:
                rest.append(f"readied action {int(index) + 1}")
            elif index:
                rest.append(f"{key_words(name)} {int(index) + 1}")
            elif name == "actor" and entry:
                continue  # "Brannoc's declaration" already says who
            elif name in self.labels:
                rest.append(self(name))
            else:
                rest.append(key_words(name))
        words = ", ".join(reversed(rest)) if entry else " ".join(rest)
        if entry:
            words = f"{words} in {entry}" if words else entry
        if round_index is not None:
            where = f"round {round_index + 1}"
            if not words:
                words = where
            elif entry:
                words = f"{words} ({where})"
            else:
                words = f"{where}'s {words}"  # rounds[1].turns → round 2's turns
        return words or path

    # --- free text ------------------------------------------------------------------------

    def text(self, text: str) -> str:
        """Rewrites engine text for the DM: paths as places, ids as names.

        Used on messages the engine builds (``rounds[0].turns[5].nominates: kobold-1 is
        dead``) and on roll purposes (``initiative orc-1 (actions[4])``).
        """
        text = _PATH.sub(lambda m: self.path_words(m.group(0)), text)
        if self.labels:
            ids = sorted((i for i, n in self.labels.items() if n != i), key=len, reverse=True)
            if ids:
                pattern = r"(?<![\w-])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w-])"
                text = re.sub(pattern, lambda m: self.labels[m.group(1)], text)
        return text


_PATH = re.compile(
    r"(?:rounds\[\d+\](?:\.[A-Za-z_]+(?:\[\d+\])?)*"
    r"|(?:actions|declarations|turns)\[\d+\](?:\.[A-Za-z_]+(?:\[\d+\])?)*"
    r"|options\.[a-z_]+)"
)


def text_words(text: str, names: Names) -> str:
    """Gets an engine message or roll purpose in words (see :meth:`Names.text`)."""
    return names.text(text)


# --- actions and options --------------------------------------------------------------------


def action_words(action: Any) -> str:
    """Gets a declared action in words: ``G`` → ``G (strike blows)``, ``melee`` as it is."""
    if action is None or action == "":
        return "turn"
    text = str(action)
    if text in LETTERS:
        return f"{text} ({LETTERS[text]})"
    return text.replace("_", " ")


KIND_WORDS = {
    Kind.PC: "PC",
    Kind.HENCHMAN: "Henchman",
    Kind.HIRELING: "Hireling",
    Kind.MONSTER: "Monster",
}
"""What a roster entry or combatant is, as the screen shows it."""


def kind_words(kind: object) -> str:
    """Gets ``PC``, ``Henchman``… for a kind (or its stored value ``pc``, ``henchman``…)."""
    try:
        return KIND_WORDS[Kind(str(kind))]
    except ValueError:
        return str(kind).replace("_", " ").replace("-", " ").capitalize()


def status_words(status: object) -> str:
    """Gets ``Active``, ``Unconscious``… for a roster or combatant status (or its value)."""
    return str(status).replace("_", " ").replace("-", " ").capitalize()


def option_label(key: str) -> str:
    """Gets an option's label: ``spell_lost_on_any_damage`` → ``Spell lost on any damage``."""
    words = key.replace("_", " ").replace("-", " ").strip()
    words = re.sub(r"\b(tu|mar|pc|hp|sf)\b", lambda m: m.group(1).upper(), words)
    return words[:1].upper() + words[1:]


def option_words(key: str, value: Any) -> str:
    """Gets ``Death at: -10`` from an option key and value."""
    return f"{option_label(key)}: {value_words(value)}"


@dataclass(frozen=True, slots=True)
class HouseRule:
    """An option whose value differs from the source's reading."""

    key: str
    label: str
    value: str
    default: str
    meaning: str

    def sentence(self) -> str:
        """Gets ``Death at: -5 (the source: -10, “At -10 hp a combatant dies.”)``.

        The meaning is the catalogue's summary of the source's rule, so it is quoted as the
        source's, never read as the house rule's."""
        if self.meaning:
            return f"{self.label}: {self.value} (the source: {self.default}, “{self.meaning}”)"
        return f"{self.label}: {self.value} (the source: {self.default})"


def option_meanings(system: Any) -> dict[str, str]:
    """Gets, by option key, what each option decides in words.

    The summary of the first rule the option changes; an option that changes no catalogued
    rule (which dice, which table, how a step is listed) has its sentence in its system's
    ``Options.MEANINGS``.
    """
    meanings: dict[str, str] = dict(getattr(system.options_type, "MEANINGS", {}))
    for rule in system.rules.values():
        if rule.option and rule.option not in meanings:
            meanings[rule.option] = rule.summary
    return meanings


def house_rules(system: Any, options: Mapping[str, Any]) -> tuple[HouseRule, ...]:
    """Lists the options of ``options`` that differ from ``system``'s defaults, in words."""
    chosen = parse_options(system.options_type, options)
    defaults = system.options_type()
    meanings = option_meanings(system)
    rows = []
    for f in fields(chosen):
        value, default = getattr(chosen, f.name), getattr(defaults, f.name)
        if value != default:
            rows.append(
                HouseRule(
                    f.name, option_label(f.name), value_words(value), value_words(default),
                    meanings.get(f.name, ""),
                )
            )
    return tuple(rows)


# --- rolls ----------------------------------------------------------------------------------


def purpose_words(purpose: str, names: Names) -> str:
    """Gets what a roll decides in words (``initiative orc-1 (actions[4])`` →
    ``initiative Orc 1 (Orc 1's 2nd action)``)."""
    if not purpose:
        return "a roll"
    text = names.text(purpose)
    for name in sorted(set(names.labels.values()), key=len, reverse=True):
        # "initiative Orc 1 (Orc 1's 2nd action)" → "initiative Orc 1 (2nd action)"
        text = text.replace(f"{name} ({name}'s action)", name)
        text = text.replace(f"{name} ({name}'s ", f"{name} (")
    return text


def entered_words(manual: bool) -> str:
    """Gets how a die was entered, as the dice list on screen and the printed appendix say it."""
    return "typed in from the table" if manual else "rolled by the app"


def roll_words(roll: Roll, names: Names) -> str:
    """Gets ``initiative party: 5 on 1d6 (rolled by the app)``."""
    how = entered_words(roll.manual)
    return f"{purpose_words(roll.purpose, names)}: {roll.total} on {roll.expression} ({how})"


def request_words(purpose: str, expression: str, names: Names) -> str:
    """Gets a die the engine still asks for: ``Initiative Orc 1 (1d10)``."""
    text = purpose_words(purpose, names)
    return f"{text[:1].upper()}{text[1:]} ({expression})"


# --- steps ----------------------------------------------------------------------------------

BOOKKEEPING_KEYS = frozenset({"declaration", "turn", "interrupts"})
"""Keys of a step's detail that only point back into the scenario file."""
_BRIEF_SKIPS = frozenset({"compared", "effective_initiative", "roll", "level"})


def _detail_words(key: str, value: Any, step: Step, names: Names) -> str:
    if key == "compared" and isinstance(value, Mapping):
        casting, against = value.get("casting"), value.get("against")
        return f"the spell completes in segment {casting}, this comes in segment {against}"
    if key == "effective_initiative":
        return f"acts on initiative {value_words(value)}"
    if key == "routine":
        return f"{ordinal(int(value))} attack routine" if isinstance(value, int) else ""
    if key == "attack":
        return f"{ordinal(int(value))} attack" if isinstance(value, int) else ""
    if key == "roll":
        return f"d10 {value}" if step.tu is not None else f"rolled {value_words(value)}"
    if key == "level":
        return f"spell level {value_words(value)}"
    if key == "area":
        return f"area: {value_words(value)}"
    if key == "distance":
        return f"{value_words(value)} ft"
    if key == "retrieval" and isinstance(value, int):
        return f"{plural(value, 'segment')} to retrieve it"
    if key == "movement":
        return value_words(value)
    if key in ("by", "triggered_by"):
        return f"by {names(value)}"
    if key == "may_interrupt" and isinstance(value, list | tuple):
        return "may be interrupted by " + ", ".join(names(str(v)) for v in value)
    if key == "interrupt":
        return f"an interrupt: {value_words(value)}"
    if key == "doubled":
        return "double damage (weapon set against a charge)" if value else ""
    if key == "damage_rolled":
        return f"{value_words(value)} rolled"
    if key == "death_save":
        return ""  # said with death_saves_left
    if key == "death_saves_left" and isinstance(value, int):
        if step.event == StepEvent.DIES:
            return "no Death save left"
        who = names(step.target) if step.target else names(step.actor)
        return (f"{who} spends a Death save and is out of the fight "
                f"({plural(value, 'Death save')} left)")
    if key == "held" and value is True:
        return "held back: a slow weapon strikes once every creature not waiting has acted"
    if key == "contact_segment":
        return f"reaches in segment {value_words(value)}"
    if key == "contact_round":
        return f"of round {value_words(value)}"
    if isinstance(value, str) and value in names.labels:
        return f"{key_words(key)} {names(value)}"
    return f"{key_words(key)} {value_words(value)}"


def round_title(number: int, surprise: bool, after_surprise: bool = False) -> str:
    """Gets a round's heading as the board, the timeline and the printout all say it.

    The convention, said where it matters: the surprise segments are counted as round 1, so
    the first full round after them is round 2.
    """
    if surprise:
        return f"Round {number} — surprise segments"
    if after_surprise:
        return (f"Round {number} — first full round (round {number - 1} was the surprise "
                "segments)")
    return f"Round {number}"


def quiet_round_words(declared: int, dice: Sequence[str]) -> str:
    """Gets what a round in which no step happened says, on screen and on paper alike.

    ``dice`` are the round's rolls in words (``initiative party: 3``): a round whose dice were
    rolled did not see "nothing happen", and the page must not contradict its dice list.
    """
    rolled = f" Its dice were rolled: {'; '.join(dice)}." if dice else ""
    if declared:
        return (f"No one acted in this round: {plural(declared, 'declaration')} came to no "
                f"step (called off, or the actor was down).{rolled}")
    return f"No one acted in this round: no action was declared.{rolled}"


_FELL_WORDS = {"dead": "died", "fled": "fled", "unconscious": "fell unconscious",
               "surrendered": "surrendered"}
"""How a fallen nominee left the fight, as the verb of a sentence."""


def step_words(step: Step, names: Names, brief: bool = False) -> str:
    """Gets what happens in a step, in words, without the actor: ``hits Orc 1 for 3 …``.

    Facts the sentence does not use follow in brackets, in words (no Python values);
    ``brief`` leaves out the action letter and the figures :func:`step_why` already says.
    """
    d = dict(step.detail)
    used: set[str] = set(BOOKKEEPING_KEYS) | (_BRIEF_SKIPS if brief else set())
    target = names(step.target)

    def take(key: str) -> Any:
        used.add(key)
        return d.get(key)

    weapon, spell, damage, hp = take("weapon"), take("spell"), take("damage"), take("hp")
    with_weapon = f" with {weapon}" if weapon else ""
    on_target = f" on {target}" if target else ""
    hp_text = f" ({target or names(step.actor)} now at {hp} hp)" if hp is not None else ""
    event = step.event
    shot, shots, instead = take("shot"), take("shots"), take("instead_of")
    if isinstance(shot, int) and isinstance(shots, int):
        with_weapon += f", shot {shot} of {shots}"  # one step per shot of a volley
    aim = f" instead of {names(instead)}, who had fallen," if instead else ""
    if event == StepEvent.HITS:
        text = f"hits {target}{aim}{with_weapon}" + (
            f" for {damage}" if damage is not None else "")
        text += hp_text
    elif event == StepEvent.MISSES:
        text = f"misses {target}{aim}{with_weapon}"
    elif event == StepEvent.ATTACKS and take("fallen_target"):
        # time-units.attacks.fallen-target: no swing at a corpse; the DM names a new target.
        text = (f"attacks{with_weapon}, but {names(d['fallen_target'])} has already fallen: "
                "choose a new target")
    elif event == StepEvent.ATTACKS:
        text = f"attacks {target}{aim}{with_weapon} (no outcome recorded)"
    elif event == StepEvent.BEGINS_CASTING:
        ct, also = take("casting_time"), take("also")
        if isinstance(also, list) and also:  # an area spell naming several targets
            on_target += "".join(f", {names(t)}" for t in also)
        text = f"begins casting {spell or 'a spell'}{on_target}"
        text += f" ({plural(ct, 'segment')})" if isinstance(ct, int) else ""
    elif event == StepEvent.SPELL_TAKES_EFFECT:
        take("casting_time")
        text = f"{spell or 'spell'} takes effect{on_target}"
        text += (f", {damage} damage" if damage is not None else "") + hp_text
    elif event == StepEvent.SPELL_DISRUPTED:
        reason, by = take("reason"), take("by")
        text = f"{spell or 'spell'} is lost (disrupted)"
        text += (f": {value_words(reason)}" if reason else "") + (
            f" by {names(by)}" if by else ""
        )
    elif event == StepEvent.DIES:
        by = take("by")
        text = "dies" + (f" at {hp} hp" if hp is not None else "")
        if by:
            text += f" (felled by {names(by)})"
    elif event == StepEvent.BLEEDS:
        text = "bleeds" + (f", now at {hp} hp" if hp is not None else "")
    elif event == StepEvent.MORALE_CHECK:
        roll, morale, result = take("roll"), take("morale"), take("result")
        if roll is None and result is None:  # the table has not given the 2d6 yet
            text = f"checks morale against {value_words(morale)}: waits for its die"
        else:
            text = (
                f"checks morale: rolled {value_words(roll)} against {value_words(morale)}, "
                f"{value_words(result)}"
            )
    elif event == StepEvent.SURPRISED:
        segs = take("segments")
        text = "is surprised"
        text += f" for {plural(segs, 'segment')}" if isinstance(segs, int) else ""
    elif event == StepEvent.NOMINATES:
        fell, again = take("nominee_fell"), take("chosen_again")
        if fell:  # popcorn.pass.fallen-nominee: named before the blow was known
            text = (f"names {target} to act next, but {target} "
                    f"{_FELL_WORDS.get(str(fell), f'is {value_words(fell)}')} before acting: "
                    "the turn passes back to be named again")
        elif again:
            text = f"names {target} to act next instead, after the first choice fell"
        else:
            text = f"names {target} to act next"
    elif event == StepEvent.READIES:
        text = f"readies an action: {value_words(take('trigger'))}"
    elif event == StepEvent.READIED_TRIGGERS:
        take("trigger")
        text = f"readied action set off by {names(take('triggered_by'))}"
    elif event == StepEvent.EFFECT_EXPIRES:
        text = f"effect {value_words(take('effect'))} ends{on_target}"
    elif event == StepEvent.CONDITION_STARTS:
        name, by, rounds = take("condition"), take("by"), take("rounds")
        text = f"is {value_words(name)}"
        # "Orc 3 is asleep, from Halvaine's action, until the DM ends it": who put it so,
        # then how long, in words a DM reads aloud
        text += f", from {names(by)}'s action," if by and by != step.actor else ""
        if isinstance(rounds, int):
            text += " for the rest of this round" + (
                f" and {plural(rounds, 'more round')}" if rounds else "")
        else:
            text += " until the DM ends it"
    elif event == StepEvent.CONDITION_ENDS:
        name, by = take("condition"), take("by")
        text = f"is no longer {value_words(name)}"
        text += f" ({names(by)} ended it)" if by else ""
    elif event == StepEvent.CANNOT_ACT:
        text = f"cannot act: {value_words(take('condition'))}"
        text += f" (its action on {target} does not happen)" if target else ""
    elif event in (StepEvent.MOVES, StepEvent.CHARGES, StepEvent.FLEES):
        text = str(event) + (f" toward {target}" if target else "") + with_weapon
        movement = take("movement")
        if isinstance(movement, str) and movement not in ("move", str(event)):
            text += f" in a {movement.replace('-', ' ')}"  # retreat, fighting withdrawal
        distance = take("distance")
        if isinstance(distance, int) and not isinstance(distance, bool):
            text += f", {distance} ft"
    else:
        text = event_words(event) + (f" → {target}" if target else "")
    extra = [_detail_words(k, v, step, names) for k, v in d.items() if k not in used]
    extra = [e for e in extra if e]
    if step.action and event not in (StepEvent.NOMINATES,) and not brief:
        shown = action_words(step.action)
        if not _action_said(shown, event, text):
            extra.insert(0, f"action {shown}")
    return text + (f" [{'; '.join(extra)}]" if extra else "")


_SPELL_EVENTS = frozenset({StepEvent.BEGINS_CASTING, StepEvent.SPELL_TAKES_EFFECT,
                           StepEvent.SPELL_DISRUPTED})


def _action_said(shown: str, event: Any, text: str) -> bool:
    """Tells whether the sentence already says the action ("flees", "in a retreat", a spell
    being cast), so "[action flee]" would only repeat it. Letters (addict's "G (strike
    blows)") are never taken as said: they name the DMG's table."""
    word = shown.split(" (")[0].lower()
    if len(word) < 3:
        return False
    if event in _SPELL_EVENTS and "spell" in word:
        return True
    return re.search(rf"\b{re.escape(word)}", text.lower()) is not None


def event_words(event: Any) -> str:
    """Gets a step event in words: ``spell-takes-effect`` → ``spell takes effect``."""
    return str(event.value if isinstance(event, Enum) else event).replace("-", " ")


def step_sentence(step: Step, names: Names, brief: bool = False) -> str:
    """Gets the whole step as a sentence: ``Halvaine begins casting sleep on Orc 1 …``."""
    return f"{names(step.actor)} {step_words(step, names, brief)}"


# --- commands -------------------------------------------------------------------------------


def _entry_label(entry: Mapping[str, Any], names: Names) -> str:
    return f"{names(entry.get('actor'))}: {action_words(entry.get('action'))}"


def command_words(command: Command, names: Names, system_title: str = "") -> str:
    """Gets the undo/redo text of an encounter command, with names instead of ids.

    ``names`` describes the encounter *before* the command (so a taken-back entry can still
    be named).
    """
    if not command.events:
        return names.text(command.name)
    event = command.events[0]
    data = event.data
    kind = event.kind
    in_round = f" (round {data['round']})" if isinstance(data.get("round"), int) else ""
    round_index = data["round"] - 1 if isinstance(data.get("round"), int) else None
    if kind is EventKind.ENCOUNTER_CONFIGURED and system_title:
        return f"Use {system_title}"
    if kind is EventKind.COMBATANT_ADDED:
        c = data.get("combatant") or {}
        return f"Add {c.get('name') or c.get('id')}" if isinstance(c, Mapping) else command.name
    if kind is EventKind.ROLL_RECORDED:
        how = "typed in" if data.get("manual") else "rolled"
        instead = " instead" if data.get("replaces") is not None else ""
        purpose = purpose_words(str(data.get("purpose") or ""), names)
        return f"{purpose}: {data.get('total')} ({how}{instead})"
    if kind in (EventKind.ROUND_ENTRY_ADDED, EventKind.TIMED_ACTION_ADDED):
        entry = data.get("entry") or {}
        return _entry_label(entry, names) if isinstance(entry, Mapping) else command.name
    if kind is EventKind.ENTRY_REPLACED:
        entry = data.get("entry") or {}
        if isinstance(entry, Mapping):
            return f"Change {_entry_label(entry, names)}{in_round}"
    if kind is EventKind.ENTRY_REMOVED and isinstance(data.get("index"), int):
        what = names.entry_words(str(data.get("list")), int(data["index"]), round_index)
        return f"Take back {what}{in_round}"
    if kind in (EventKind.SCENARIO_FIELD_SET, EventKind.ROUND_FIELD_SET):
        if len(command.events) > 1:  # several fields at once: the command's own name says it
            return names.text(command.name)
        return f"Set {key_words(str(data.get('name')))}{in_round}"
    if kind is EventKind.HP_CHANGED:
        delta = data.get("delta")
        return f"{names(data.get('id'))}: {delta:+d} hp" if isinstance(delta, int) else (
            names.text(command.name))
    if kind is EventKind.STATUS_CHANGED:
        return f"{names(data.get('id'))}: {value_words(data.get('status'))}"
    if kind is EventKind.SURPRISE_MARKED:
        if data.get("surprised") is True:
            return f"Mark {names(data.get('id'))} surprised"
        return f"{names(data.get('id'))}: surprised as the side's die says"
    if kind is EventKind.HIDDEN_FROM_PLAYERS:
        return hidden_words(data.get("ids") or (), data.get("hidden") is True, names)
    if kind is EventKind.CLOCK_ADVANCED:
        return f"Advance the clock to TU {data.get('tu')} ({names(data.get('actor'))})"
    return names.text(command.name)


def hidden_words(ids: Iterable[Any], hidden: bool, names: Names) -> str:
    """Gets ``Hide Orc 3 and Orc 4 from the players`` / ``Reveal Orc 3 to the players``."""
    who = [names(cid) for cid in ids] or ["nobody"]
    listed = who[0] if len(who) == 1 else f"{', '.join(who[:-1])} and {who[-1]}"
    return f"Hide {listed} from the players" if hidden else f"Reveal {listed} to the players"


# --- why a step came where it did -----------------------------------------------------------

_SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def _first_sentence(text: str) -> str:
    sentence = re.split(r"(?<=[.;])\s", text.strip(), maxsplit=1)[0].rstrip(".;")
    sentence = _SNAKE.sub(lambda m: m.group(0).replace("_", " "), sentence)
    return sentence if sentence[1:2].isupper() else sentence[:1].lower() + sentence[1:]


def rule_summary(system_id: str, rule_id: str) -> str:
    """Gets the catalogue's plain-words summary of a rule (empty when unknown)."""
    try:
        rule = find_system(system_id).rules.get(rule_id)
    except UnknownSystemError:
        return ""
    return rule.summary if rule is not None else ""


def step_why(step: Step, names: Names, system_id: str) -> str:
    """Gets why a step came where it did, in one short clause a DM would say aloud."""
    compared = step.detail.get("compared")
    if isinstance(compared, Mapping) and step.target:
        casting, against = compared.get("casting"), compared.get("against")
        target = names(step.target)
        if isinstance(casting, int) and isinstance(against, int):
            if against <= casting:
                return (
                    f"{names.owner(target)} spell completes in segment {casting}; "
                    f"this came in segment {against}, before it"
                )
            return (
                f"{names.owner(target)} spell completes in segment {casting}, "
                f"before this comes in segment {against}"
            )
    if step.event == StepEvent.SPELL_DISRUPTED:
        by = step.detail.get("by")
        if by:
            return f"{names(by)} struck the caster before the spell went off"
    if step.event == StepEvent.READIED_TRIGGERS and step.detail.get("trigger"):
        return f"the readied action waited for this: {value_words(step.detail['trigger'])}"
    initiative = step.detail.get("effective_initiative")
    if isinstance(initiative, int):
        return f"it acts on initiative {initiative}"
    for rule_id in step.because:
        summary = rule_summary(system_id, rule_id)
        if summary:
            return _first_sentence(summary)
    return ""
