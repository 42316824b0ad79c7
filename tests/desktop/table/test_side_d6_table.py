"""side-d6 at the table: surprise segments, three rounds, declarations changed, moved and taken
back, Ctrl+Z after each; the GUI resolves as the CLI does."""

from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch
from tests.desktop.table.letter_fight import Lanes, fight
from tests.desktop.table.letter_helpers import letter_ids  # noqa: F401 (fixture)


def test_a_three_round_side_d6_fight_from_surprise_to_the_last_blow(
        table: MainWindow, letter_ids: IdWatch) -> None:  # noqa: F811
    fight(table, letter_ids, "side-d6", Lanes(
        blow="attack", blow_key="1", spell="spell", spell_key="3",
        move="move", other="other", other_key="0"))
