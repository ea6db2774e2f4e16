"""Golden games of 1942 USS Yorktown: the full logs and result rows of a few seeds with
both bots, for one and four players, a hard game with a novice and a game with every
expansion. Same seed -> the byte-identical log and the same result row, with or without
a kept log (``play_game(..., keep_log=False)`` must play the same game), and a series
of games played without a log gives the same result rows.

The files live in ``tests/golden/yorktown/``: ``<bot>-<config>-<seed>.log`` (the log as
``furball play yorktown`` prints it), ``results.json`` (one result row per game) and
``<bot>-rows.json`` (the rows of a series). Regenerate them ONLY for an intended change
of the rules or of the log text, in a commit of its own that says why:
``.venv/bin/python tests/test_yorktown_golden.py``.
"""
import json
import pathlib
import sys

import pytest

from furball.scenarios.engine import play_game, play_many
from furball.scenarios.yorktown import YORKTOWN

GOLDEN = pathlib.Path(__file__).parent / "golden" / "yorktown"
CONFIGS = {"1p": {}, "4p": {"players": 4}, "hard-2p-novice": {"players": 2, "difficulty": "hard", "novices": 1},
           "expansions": {"expansions": "expert,tank,weather"}}
SEEDS = (1, 2, 14890550621337201733)   # the last is a 64-bit series seed (series_seeds(2025, 1)[0])
BOTS = ("heuristic", "random")
GAMES = [(bot, config, seed) for bot in BOTS for config in CONFIGS for seed in SEEDS]
SERIES_SEED, SERIES_GAMES = 11, 60


def name(bot: str, config: str, seed: int) -> str:
    return f"{bot}-{config}-{seed}"


def options(config: str) -> dict:
    opts = dict(CONFIGS[config])
    if "expansions" in opts:
        opts["expansions"] = YORKTOWN.option("expansions").parse(opts["expansions"])
    return opts


def log_text(bot: str, config: str, seed: int, keep_log: bool = True) -> tuple[str, dict]:
    record = play_game(YORKTOWN, seed, bot, options(config), keep_log=keep_log)
    return "\n".join(record.log_lines()) + "\n", record.result


def rows(bot: str) -> list[dict]:
    return play_many(YORKTOWN, SERIES_GAMES, SERIES_SEED, bot, options("expansions"))


@pytest.fixture(scope="module")
def results():
    return json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("bot,config,seed", GAMES, ids=[name(*g) for g in GAMES])
def test_golden_log_is_byte_identical_and_the_result_row_the_same(bot, config, seed, results):
    text, row = log_text(bot, config, seed)
    assert text.encode("utf-8") == (GOLDEN / f"{name(bot, config, seed)}.log").read_bytes()
    assert row == results[name(bot, config, seed)]


@pytest.mark.parametrize("bot,config", [(b, c) for b in BOTS for c in CONFIGS])
def test_golden_game_without_a_log_plays_the_same_game(bot, config, results):
    """The log-less path of a series (``keep_log=False``) reaches the same result."""
    seed = SEEDS[0]
    _, row = log_text(bot, config, seed, keep_log=False)
    assert row == results[name(bot, config, seed)]


@pytest.mark.parametrize("bot", BOTS)
def test_golden_series_without_a_log_gives_the_same_rows(bot):
    expected = json.loads((GOLDEN / f"{bot}-rows.json").read_text(encoding="utf-8"))
    assert json.loads(json.dumps(rows(bot))) == expected


def regenerate() -> None:  # pragma: no cover - run by hand, see the module docstring
    GOLDEN.mkdir(parents=True, exist_ok=True)
    found = {}
    for bot, config, seed in GAMES:
        text, row = log_text(bot, config, seed)
        (GOLDEN / f"{name(bot, config, seed)}.log").write_bytes(text.encode("utf-8"))
        found[name(bot, config, seed)] = row
    (GOLDEN / "results.json").write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for bot in BOTS:
        (GOLDEN / f"{bot}-rows.json").write_text(json.dumps(rows(bot), indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    regenerate()
    sys.exit(0)
