"""Golden games of 1975 White Christmas: the full logs and result rows of a few seeds for
2, 3 and 4 players and solo, with both bots, as the engine gave them before it was made
faster (issue 13). Same seed -> the byte-identical log and the same result row, with or
without a kept log (``play_game(..., keep_log=False)`` must play the same game).

The files live in ``tests/golden/white_christmas/``: ``<bot>-<players>-<seed>.log`` (the
log as ``furball play white-christmas`` prints it) and ``results.json`` (one result row
per game). Regenerate them ONLY for an intended change of the rules or of the log text:
``.venv/bin/python tests/test_white_christmas_golden.py``. The last tests check that what
makes the engine fast (answers shared between states, memoised, kept by the heuristic)
equals the answers computed from scratch.
"""
import json
import pathlib
import sys
from dataclasses import replace

import pytest

from furball.scenarios.engine import play_game
from furball.scenarios.white_christmas import options
from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS
from furball.scenarios.white_christmas.players import HeuristicPlayer

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


@pytest.mark.parametrize("bot,config", [(b, c) for b in BOTS for c in CONFIGS])
def test_a_state_without_log_plays_the_same_game_and_keeps_no_line(bot, config, results):
    """``State.without_log()`` (what ``play_game(..., keep_log=False)`` asks for when the
    runner offers it): the same draws, decisions and result, and no log line made."""
    seed = SEEDS[2]
    opts = WHITE_CHRISTMAS.defaults()
    opts.update(CONFIGS[config])
    s = WHITE_CHRISTMAS.new_game(seed, **opts).without_log()
    bots = [WHITE_CHRISTMAS.player(bot, seed, seat) for seat in range(WHITE_CHRISTMAS.seat_count(opts))]
    while not s.is_terminal():
        s = s.apply(bots[s.current_player()].choose(s.observation(s.current_player())))
        assert s.events == () and not s.logging
    assert s.result() == results[name(bot, config, seed)]
    assert s == play_game(WHITE_CHRISTMAS, seed, bot, CONFIGS[config]).final


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


# -- what makes the engine fast must not change what it does --------------------------------
def fresh_answers(s, side):
    """The public questions of ``s`` answered from scratch (no shared or memoised answer)."""
    comp, b, me = s.setup.comp, s.board, s.sides[side]
    return (options.moves(s.table, s.sides, side),
            options.fleet_rescues.__wrapped__(comp, s.table, me.at, me.aboard, me.night, b.roofs, b.stairs),
            options.occupied(s.sides))


@pytest.mark.parametrize("bot,config", [(b, c) for b in BOTS for c in CONFIGS])
def test_shared_answers_and_the_heuristics_kept_values_equal_fresh_ones(bot, config):
    """A seat's observation answers the public questions (:class:`Queries`) with a side's
    rescues from a cache of public answers kept across positions
    (:func:`options.fleet_rescues`), the legal actions use the same cache, and the
    heuristic keeps valuations from one decision to the next: at every decision of a
    game, all of them equal the answers computed from scratch, and a bot made afresh
    picks the same action."""
    seed = SEEDS[1]
    opts = WHITE_CHRISTMAS.defaults()
    opts.update(CONFIGS[config])
    s = WHITE_CHRISTMAS.new_game(seed, **opts)
    bots = [WHITE_CHRISTMAS.player(bot, seed, seat) for seat in range(WHITE_CHRISTMAS.seat_count(opts))]
    hits = options.fleet_rescues.cache_info().hits
    while not s.is_terminal():
        seat = s.current_player()
        obs = s.observation(seat)
        q = obs.queries
        for side in range(len(s.sides)):
            moves, rescues, occupied = fresh_answers(s, side)
            assert (q.moves(side), q.rescues(side), q.occupied()) == (moves, rescues, occupied)
            assert q.can_move(side) == options.can_move(s.table, s.sides, side) == bool(moves)
            assert q.rescue_types(side) == {p for _, _, p in rescues}
        action = bots[seat].choose(obs)
        if bot == "heuristic":
            assert HeuristicPlayer(seed, seat).choose(obs) is action
        s = s.apply(action)
    assert options.fleet_rescues.cache_info().hits > hits + 20          # the sharing did happen


def test_memoised_special_order_options_equal_a_fresh_enumeration():
    """WC.F5: the Special Order menus (memoised per card set) equal those of a fresh copy
    of the card sets, and their sizes (:func:`special_costs`: each action's smallest
    payment) match them, at every decision of a few games."""
    asked = 0
    for seed in SEEDS:
        s = WHITE_CHRISTMAS.new_game(seed, players=3)
        bots = [HeuristicPlayer(seed, seat) for seat in range(3)]
        while not s.is_terminal():
            seat = s.current_player()
            comp, me = s.setup.comp, s.sides[seat]
            args = (me, s.setup.colours[seat], s.private[seat].radar, s.board.orders_row)
            menu = options.special_options(comp, *args)
            assert menu == options.special_options(replace(comp), *args)
            assert options.special_possible(comp, *args) == options.special_possible(replace(comp), *args) == bool(menu)
            smallest = {}
            for kind, index, paid in menu:
                smallest[kind, index] = min(len(paid), smallest.get((kind, index), len(paid)))
            assert {(k, i): n for k, i, n in options.special_costs(comp, *args)} == smallest
            asked += bool(menu)
            s = s.apply(bots[seat].choose(s.observation(seat)))
    assert asked >= 50
