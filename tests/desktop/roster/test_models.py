"""The roster tree and its filter proxy obey Qt's model contract (pytest-qt's model tester)."""

from dataclasses import replace

from PySide6.QtCore import Qt

from core.model.values import Kind
from core.roster.entries import RosterStatus
from core.roster.sample import load_sample
from desktop.roster.tree_model import ITEM_ROLE, RosterFilterProxy, RosterTreeModel


def sample_values() -> tuple[list, list]:  # type: ignore[type-arg]
    _, roster, templates = load_sample()
    roster = [replace(e, id=i + 1) for i, e in enumerate(roster)]
    return roster, templates


def test_the_tree_model_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = RosterTreeModel()
    roster, templates = sample_values()
    model.set_values(roster, templates)
    qtmodeltester.check(model, force_py=True)
    model.set_values([*roster, replace(roster[0], id=99, name="Ghoul", kind=Kind.MONSTER)], [])
    assert model.rowCount() == 5  # a Monsters group appears only for monster entries


def test_the_filter_proxy_passes_the_model_tester_and_filters(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = RosterTreeModel()
    roster, templates = sample_values()
    roster[1] = replace(roster[1], status=RosterStatus.DEAD)
    model.set_values(roster, templates)
    proxy = RosterFilterProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy, force_py=True)  # and it keeps watching every change below
    proxy.set_filter(text="THE ")
    shown = [
        proxy.index(r, 0, proxy.index(g, 0)).data(ITEM_ROLE).name
        for g in range(proxy.rowCount())
        for r in range(proxy.rowCount(proxy.index(g, 0)))
    ]
    assert shown == ["Brannoc the Bold", "Halvaine the Arcane"]  # case-insensitive
    proxy.set_filter(status="dead")
    (group,) = [proxy.index(g, 0) for g in range(proxy.rowCount())]
    assert proxy.index(0, 0, group).data() == "Sister Ysolde"
    proxy.set_filter(side="monsters")
    assert proxy.rowCount() == 1 and proxy.index(0, 0).data().startswith("Monster templates")
    proxy.set_filter()
    proxy.sort(3, Qt.SortOrder.DescendingOrder)
    assert proxy.rowCount() == 4 and proxy.index(0, 0).data().startswith("PCs")
