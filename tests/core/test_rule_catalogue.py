"""The rule catalogue: docs/rules.md is the code's catalogue, and every rule is tested."""

from pathlib import Path

from core.printout.report import rules_markdown
from core.rules import SYSTEM_MODULES, all_systems

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {
    "addict": {"addict-procedure.md", "addict-procedure-2024-03-revision.md"},
    "side-d6": {"side-d6-segment-initiative.md"},
    "popcorn": {"popcorn-initiative-ose.md"},
    "time-units": {"time-unit-combat.md"},
}


def test_docs_rules_md_is_the_catalogue_the_engine_applies() -> None:
    """Regenerate with: .venv/bin/python -m core rules > docs/rules.md"""
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == rules_markdown()


def test_every_system_is_registered_and_cites_its_own_sources() -> None:
    systems = all_systems()
    assert [s.id for s in systems] == list(SYSTEM_MODULES)
    for system in systems:
        assert system.rules, f"{system.id} has no rules"
        assert system.phases(), f"{system.id} has no phases"
        for rule in system.rules.values():
            assert rule.id.startswith(f"{system.id}."), rule.id
            assert rule.source in SOURCES[system.id], f"{rule.id}: {rule.source}"
            assert rule.heading and rule.summary, rule.id


def test_every_rule_id_is_cited_by_a_test() -> None:
    texts = [
        p.read_text(encoding="utf-8")
        for p in (ROOT / "tests").rglob("*")
        if p.suffix in {".py", ".json"} and p.name != Path(__file__).name
    ]
    corpus = "\n".join(texts)
    uncited = [
        rule.id for system in all_systems() for rule in system.rules.values()
        if rule.id not in corpus
    ]
    assert not uncited, f"rules no test cites: {uncited}"
