"""addict at the table: surprise segments, three rounds, declarations changed, moved and taken
back, Ctrl+Z after each; the GUI resolves as the CLI does."""

from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch
from tests.desktop.table.letter_fight import Lanes, fight
from tests.desktop.table.letter_helpers import letter_ids  # noqa: F401 (fixture)


def test_a_three_round_addict_fight_from_surprise_to_the_last_blow(
        table: MainWindow, letter_ids: IdWatch) -> None:  # noqa: F811
    fight(table, letter_ids, "addict", Lanes(
        blow="G [G]", blow_key="G", spell="D [D]", spell_key="D",
        move="E [E]", other="H [H]", other_key="H"))
