"""Golden games of 1975 White Christmas: the full logs and result rows of a few seeds for
2, 3 and 4 players and solo, with both bots, as the engine gave them before it was made
faster (issue 13). Same seed -> the byte-identical log and the same result row, with or
without a kept log (``play_game(..., keep_log=False)`` must play the same game).

The files live in ``tests/golden/white_christmas/``: ``<bot>-<players>-<seed>.log`` (the
log as ``furball play white-christmas`` prints it) and ``results.json`` (one result row
per game). Regenerate them ONLY for an intended change of the rules or of the log text:
``.venv/bin/python tests/test_white_christmas_golden.py``.
"""
import json
import pathlib
import sys

import pytest

from scenarios.engine import play_game
from scenarios.white_christmas.game import WHITE_CHRISTMAS

GOLDEN = pathlib.Path(__file__).parent / "golden" / "white_christmas"
CONFIGS = {"2p": {"players": 2}, "3p": {"players": 3}, "4p": {"players": 4}, "solo": {"solo": True}}
SEEDS = (1, 2, 14890550621337201733)   # the last is a 64-bit series seed (series_seeds(2025, 1)[0])
BOTS = ("heuristic", "random")
GAMES = [(bot, config, seed) for bot in BOTS for config in CONFIGS for seed in SEEDS]


def name(bot: str, config: str, seed: int) -> str:
    return f"{bot}-{config}-{seed}"


def log_text(bot: str, config: str, seed: int, keep_log: bool = True) -> tuple[str, dict]:
    record = play_game(WHITE_CHRISTMAS, seed, bot, CONFIGS[config], keep_log=keep_log)
    return "\n".join(record.log_lines()) + "\n", record.result


@pytest.fixture(scope="module")
def results():
    return json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("bot,config,seed", GAMES, ids=[name(*g) for g in GAMES])
def test_golden_log_is_byte_identical_and_the_result_row_the_same(bot, config, seed, results):
    text, row = log_text(bot, config, seed)
    expected = (GOLDEN / f"{name(bot, config, seed)}.log").read_bytes()
    assert text.encode("utf-8") == expected
    assert row == results[name(bot, config, seed)]


@pytest.mark.parametrize("bot,config", [(b, c) for b in BOTS for c in CONFIGS])
def test_golden_game_without_a_log_plays_the_same_game(bot, config, results):
    """The log-less path of a series (``keep_log=False``) reaches the same result and final
    score lines as the logged game."""
    seed = SEEDS[0]
    text, row = log_text(bot, config, seed, keep_log=False)
    assert row == results[name(bot, config, seed)]
    expected = (GOLDEN / f"{name(bot, config, seed)}.log").read_text(encoding="utf-8").splitlines()
    assert text.splitlines() == expected[-2:]   # the outcome lines only, without a kept log


def regenerate() -> None:  # pragma: no cover - run by hand, see the module docstring
    GOLDEN.mkdir(parents=True, exist_ok=True)
    rows = {}
    for bot, config, seed in GAMES:
        text, row = log_text(bot, config, seed)
        (GOLDEN / f"{name(bot, config, seed)}.log").write_bytes(text.encode("utf-8"))
        rows[name(bot, config, seed)] = row
    (GOLDEN / "results.json").write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    sys.path.insert(0, str(pathlib.Path(__file__).parent.parent))
    regenerate()
