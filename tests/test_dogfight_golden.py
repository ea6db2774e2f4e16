"""Golden logs of whole dogfight games (random bots): the same seed gives the same log,
byte for byte (files under ``tests/golden/``, written by
``tests/golden/regenerate_dogfight.py``)."""
import pathlib

import pytest
from golden.regenerate_dogfight import GAMES, log_text

GOLDEN = pathlib.Path(__file__).parent / "golden"


@pytest.mark.parametrize("scenario,seats,seed", GAMES)
def test_same_seed_gives_the_golden_log_byte_for_byte(scenario, seats, seed):
    expected = (GOLDEN / f"dogfight_{scenario}_{seats}_seed{seed}.log").read_text(encoding="utf-8")
    assert log_text(scenario, seats, seed) == expected
