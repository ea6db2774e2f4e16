"""Golden logs of Operation Canuck: the same seed gives the same log, byte for byte,
before and after any change to the engine's speed (files under ``tests/golden/``,
written by ``tests/golden/regenerate.py`` from the engine before it was optimised)."""
import pathlib

import pytest
from golden.regenerate import PLAYERS, SEEDS, log_text, rows_text

GOLDEN = pathlib.Path(__file__).parent / "golden"


@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_gives_the_golden_log_byte_for_byte(player, seed):
    expected = (GOLDEN / f"canuck_{player}_seed{seed}.log").read_text(encoding="utf-8")
    assert log_text(player, seed) == expected


@pytest.mark.slow
@pytest.mark.parametrize("player", PLAYERS)
def test_series_without_a_log_gives_the_golden_result_rows(player):
    """Games played without a log (the Monte Carlo path) end exactly as before."""
    expected = (GOLDEN / f"canuck_{player}_rows.csv").read_text(encoding="utf-8")
    assert rows_text(player) == expected


def test_CN_E5_a_game_ending_on_exactly_5_VP_is_a_defeat():
    """CN.E5's engine convention: 6-10 is a minor victory, 5 or less a defeat (the
    source's bands share 5). ``furball play canuck --seed 423`` (heuristic) ends on 5 VP
    at the sixth Allied Advance: it printed MINOR before issue #35."""
    lines = log_text("heuristic", 423).splitlines()
    assert lines[-2] == "game over after 23 options: the 6th red face card was drawn (CN.E1)"
    assert lines[-1] == "VP: operations 5 + Alba 0 = 5: DEFEAT"
