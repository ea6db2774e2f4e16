"""Every engine as an OpenSpiel game and a PettingZoo environment, and the search bots
(issue #24): OpenSpiel's own consistency checks, its own game loop against our engine's
log, hidden information over whole games, PettingZoo's API and seed tests, short games
of the search bots."""
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from furball.errors import InputError  # noqa: E402
from furball.scenarios.engine import play_game  # noqa: E402
from furball.scenarios.engine.search import parse_search  # noqa: E402
from furball.scenarios.rl.openspiel import load_game  # noqa: E402
from furball.scenarios.rl.spec import spec  # noqa: E402

GAMES = [("canuck", {}), ("canuck", {"setup": "free"}), ("yorktown", {}),
         ("yorktown", {"players": 3, "expansions": "expert+tank+weather", "difficulty": "hard"}),
         ("white_christmas", {"players": 3}), ("white_christmas", {"solo": True, "payment": "discard"}),
         ("dogfight", {"turn_limit": 3}), ("dogfight", {"scenario": "furball", "seats": "planes", "turn_limit": 4})]
"""(engine, OpenSpiel parameters): small but whole games of every engine."""
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in p.items()) or 'default'}" for g, p in GAMES]
SLOW = {"white_christmas-players=3"}
"""Cases of GAMES whose whole-game checks take seconds: slow-marked where noted."""
CASES = [pytest.param(g, p, id=i, marks=[pytest.mark.slow] if i in SLOW else []) for (g, p), i in zip(GAMES, IDS)]
"""GAMES with the long cases slow-marked (the heavy checks: OpenSpiel's simulation and
the resampling over whole games)."""


@pytest.fixture(autouse=True, scope="module")
def absl_writes_to_the_real_stderr():
    """OpenSpiel's search modules import absl.logging, whose handler keeps the
    ``sys.stderr`` of that moment: pytest's capture file. A later test that configures
    logging (uvicorn in ``furball serve``) shuts every handler down, and absl's closes
    that stream, and with it pytest's capture of every later test. Point it at the real
    stderr, which absl never closes."""
    yield
    absl = sys.modules.get("absl.logging")
    if absl is not None:
        absl.get_absl_handler().python_handler.setStream(sys.__stderr__)


def random_game(game, seed, rng):
    """The states of one game through OpenSpiel's own API, random legal actions."""
    state = game.new_initial_state(seed)
    states = [state]
    while not state.is_terminal():
        state = state.child(int(rng.choice(state.legal_actions())))
        states.append(state)
    return states


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), CASES)
def test_openspiel_random_simulations_pass_its_own_consistency_checks(name, params):
    """pyspiel.random_sim_test: cloning (state and history equal after the same action),
    legal actions sorted and empty for other seats, the mask, the game length and the
    utility bounds. (Its serialisation round trip needs the game's RNG state, which
    OpenSpiel does not let a Python game give: the next test checks serialisation.)"""
    game = load_game(name, **params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_states_serialise_clone_and_pickle_whole(name, params):
    game = load_game(name, **params)
    for state in random_game(game, 5, np.random.default_rng(1))[::3]:
        for copy in (game.deserialize_state(state.serialize()), state.clone(), pickle.loads(pickle.dumps(state))):
            assert str(copy) == str(state)
            assert copy.history() == state.history()
            assert copy.legal_actions() == state.legal_actions()
            assert all(copy.information_state_string(p) == state.information_state_string(p)
                       for p in range(game.num_players()))


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_same_seed_and_actions_give_the_engines_log(name, params):
    """A game played through OpenSpiel from seed S, and the same actions given to the
    engine's own game of seed S (as `furball play` starts it), log the same lines."""
    game = load_game(name, **params)
    states = random_game(game, 11, np.random.default_rng(2))
    engine = spec(name).new_game(spec(name).params(params), 11)
    assert engine.events == states[0].engine.events
    for before, after, action in zip(states, states[1:], states[-1].history()):
        engine = engine.apply(game.codec.decode(engine, action))
        assert engine.events == after.engine.events
        assert before.action_to_string(action) == before.engine.describe(game.codec.decode(before.engine, action))
    assert states[-1].returns() == list(engine.returns())


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_a_game_recorded_by_the_runner_replays_through_openspiel(name, params):
    """`furball play GAME --seed 3 --player random`'s log, replayed action by action
    through OpenSpiel's game of seed 3: the same lines, the same result."""
    g = spec(name)
    record = play_game(g.game(), 3, "random", g.options(g.params(params)))
    state = load_game(name, **params).new_initial_state(3)
    assert tuple(state.engine.events) == record.steps[0][2]
    for seat, text, events in record.steps[1:]:
        assert state.current_player() == seat
        state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a) == text))
        assert tuple(state.engine.events) == events
    assert state.is_terminal() and state.engine.result() == record.result
    assert state.returns() == list(record.final.returns())


def test_the_game_types_say_what_each_game_is():
    canuck, duel = load_game("canuck"), load_game("dogfight")
    for game in (canuck, duel):
        t = game.get_type()
        assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert canuck.num_players() == 1 and canuck.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert canuck.num_distinct_actions() == 2 * 10 ** 2 + 3 * 10 + 112 + 89
    assert duel.num_players() == 2 and duel.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert duel.num_distinct_actions() == 15 ** 3 and (duel.min_utility(), duel.max_utility()) == (-1, 1)
    four = load_game("dogfight", scenario="furball", seats="planes")
    assert four.num_players() == 4 and four.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_load_game_by_name_string_and_bad_parameters():
    load_game("canuck")  # registers
    game = pyspiel.load_game("furball_dogfight(turn_limit=2,swap_start=True)")
    assert game.max_game_length() == 4
    with pytest.raises(InputError, match="unknown parameter 'players'"):
        load_game("canuck", players=2)
    with pytest.raises(InputError, match="option setup: expected one of default, free"):
        load_game("canuck", setup="nope")
    with pytest.raises(InputError, match="expected one of furball_.*furball_canuck"):
        load_game("chess")


def test_series_and_fixed_seeds():
    """Without a seed, the k-th new game a game object uses is game k of the series
    started at rng_seed (as `furball play --games N --seed rng_seed` plays it; a state
    takes its seed when first used, so clones made by a search take none); seed=S
    fixes it."""
    from furball.scenarios.engine import series_seeds

    game = load_game("canuck", rng_seed=5)
    first, second = game.new_initial_state(), game.new_initial_state()
    assert first.legal_actions() and first.clone().engine.seed == first.engine.seed == series_seeds(5, 1)[0]
    assert second.engine.seed == series_seeds(5, 2)[1]
    fixed = load_game("canuck", seed=7)
    assert fixed.new_initial_state().engine.seed == fixed.new_initial_state().engine.seed == 7


# -- hidden information -------------------------------------------------------------------
def _views(state, player):
    return (state.observation_string(player), state.information_state_string(player),
            list(state.observation_tensor(player)),
            state.legal_actions() if state.current_player() == player else None)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), CASES)
def test_resampling_keeps_what_the_seat_sees_and_reads_nothing_it_cannot(name, params):
    """Over whole games, for every seat at every state: a resampled world shows the seat
    exactly what the real one does (strings, tensor, legal actions), and resampling it
    again gives what resampling the real state gives: the resample reads nothing the
    seat cannot see (else a world, whose hidden parts differ, would resample
    differently)."""
    game = load_game(name, **params)
    full = game.spec.full_text
    for seed in (1, 2):
        for state in random_game(game, seed, np.random.default_rng(seed)):
            for p in range(game.num_players()):
                world = state.resample(p, np.random.default_rng(100 + seed))
                assert _views(world, p) == _views(state, p)
                again = world.resample(p, np.random.default_rng(7))
                assert full(again.engine) == full(state.resample(p, np.random.default_rng(7)).engine)


def test_dogfight_strings_never_hold_another_sides_plan_or_damage_cards():
    """A plan locked by one side is in no string of another side's seat until the turn
    is flown; another side's damage card ids never are."""
    game = load_game("dogfight", turn_limit=4)
    for seed in range(3):
        for state in random_game(game, seed, np.random.default_rng(seed)):
            engine = state.engine
            for p in range(2):
                side = engine.seat_sides[p]
                text = state.information_state_string(p) + state.observation_string(p) + str(
                    state.observation_tensor(p))
                for name, cards in engine.locked:
                    if engine.table.plane(name).side != side:
                        assert " ".join(cards) not in text and ", ".join(cards) not in text
                for plane in engine.table.planes:
                    if plane.side != side:
                        assert not any(f"{cid} " in text or f"{cid})" in text for cid in plane.damage)


def test_yorktown_strings_never_hold_another_seats_tile_or_a_face_down_weather_tile():
    """Another seat's unused expert tile and a face-down weather tile are in no string
    or tensor of a seat; a seat's own tiles are."""
    game = load_game("yorktown", players=2, expansions="expert+weather")
    own_seen = 0
    for seed in range(3):
        for state in random_game(game, seed, np.random.default_rng(seed)):
            engine = state.engine
            for p in range(2):
                text = state.information_state_string(p) + state.observation_string(p)
                for plane, tile in enumerate(engine.tile):
                    if tile is not None and engine.setup.seat_of[plane] != p:
                        assert f"maneuver {tile}" not in text and f"expert maneuver: {tile}" not in text
                    elif tile is not None:
                        own_seen += f"maneuver {tile}" in text
                shown = sum(w is not None and engine.revealed[k] for k, w in enumerate(engine.weather))
                assert state.observation_string(p).count("[weather: ") == shown
    assert own_seen


# -- PettingZoo ---------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(name, params):
    from pettingzoo.test import api_test, seed_test

    from furball.scenarios.rl.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observation (like PettingZoo's own card games)
        api_test(env(name, **params), num_cycles=200)
        seed_test(lambda: env(name, **params), num_cycles=100)


def test_pettingzoo_plays_the_engines_game_of_the_seed():
    from furball.scenarios.rl.pettingzoo import env

    e = env("dogfight", turn_limit=2)
    e.reset(seed=4)
    engine = spec("dogfight").new_game(spec("dogfight").params({"turn_limit": 2}), 4)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated:
            e.step(None)
            continue
        assert agent == f"player_{engine.current_player()}"
        assert obs["observation"].shape == (e.encoder.size,) and obs["observation"].dtype == np.float32
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        engine = engine.apply(e.codec.decode(engine, action))
        e.step(action)
    assert [e.rewards.get(a, 0) for a in ()] == [] and engine.is_terminal()
    names = [n for n, *_ in e.observation_pieces()]
    assert names[:3] == ["own", "position", "heading"]


# -- search bots --------------------------------------------------------------------------
def test_search_bot_spellings():
    assert parse_search("random", 100) is None
    assert parse_search("ismcts", 100) == ("ismcts", 100, None, None)
    assert parse_search("mcts:250", 100) == ("mcts", 250, None, None)
    assert parse_search("mcts:0.5s:random", 100) == ("mcts", None, 0.5, "random")
    for bad in ("mcts:0", "mcts:x", "ismcts:-1s", "mcts:1:2:3", "mcts:2000000"):
        with pytest.raises(InputError, match="--player"):
            parse_search(bad, 100)


def test_search_bots_are_in_every_games_bot_list_and_refuse_a_bad_rollout():
    from furball.scenarios.canuck import CANUCK
    from furball.scenarios.dogfight.game import DOGFIGHT
    from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS
    from furball.scenarios.yorktown.game import YORKTOWN

    for game in (CANUCK, YORKTOWN, WHITE_CHRISTMAS, DOGFIGHT):
        assert list(game.players)[-2:] == ["mcts", "ismcts"] and "ismcts:20:random" in game.players
        with pytest.raises(InputError, match="rollout bot 'nope'"):
            game.player("mcts:5:nope", 0, 0)
        with pytest.raises(InputError, match="rollout bot 'mcts'"):
            game.player("mcts:5:mcts", 0, 0)


def test_a_missing_rl_extra_is_one_line_naming_it():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "from furball.scenarios.cli import main\n"
            "sys.exit(main(['play', 'canuck', '--player', 'ismcts:5']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "furball: error: --player ismcts:5 needs the optional package 'pyspiel': pip install 'furball[rl]'"]


@pytest.mark.parametrize("bot", ["mcts:6:random", "ismcts:6:random"])
@pytest.mark.parametrize(("name", "params", "seats"), [("canuck", {}, 1), ("yorktown", {"players": 2}, 2),
                                                       pytest.param("white_christmas", {"players": 2}, 2,
                                                                    marks=pytest.mark.slow),
                                                       ("dogfight", {"turn_limit": 1}, 2)])
@pytest.mark.slow
def test_a_short_search_game_per_engine_is_reproducible(name, params, seats, bot):
    g = spec(name)
    options = g.options(g.params(params))
    players = (bot,) + ("random",) * (seats - 1)
    first = play_game(g.game(), 9, players, options)
    again = play_game(g.game(), 9, players, options)
    assert first.final.is_terminal() and first.log_lines() == again.log_lines()


def test_search_bots_play_in_furball_play_and_sweep(cli, tmp_path):
    code, out, err = cli(["play", "dogfight", "duel", "--turn-limit", "1", "--player", "ismcts:3:random,random",
                          "--seed", "2"])
    assert code == 0 and "winner:" in out
    code, out, err = cli(["sweep", "dogfight", "--games", "2", "--workers", "1", "--set", "turn_limit=1",
                          "--grid", "player=mcts:2:random/random,random/random"])
    assert code == 0, err
    assert "player=mcts:2:random/random" in out


@pytest.mark.slow
def test_resampling_re_deals_what_is_hidden():
    """A resample is a different world where the seat cannot look: Canuck's draw deck in
    another order; another side's locked plan and damage cards changed; new seeds."""
    canuck = load_game("canuck").new_initial_state(4)
    worlds = [canuck.resample(0, np.random.default_rng(k)).engine for k in range(5)]
    assert {w.deck for w in worlds} != {canuck.engine.deck} and len({w.seed for w in worlds}) == 5
    assert all(sorted(w.deck) == sorted(canuck.engine.deck) for w in worlds)
    game = load_game("dogfight", turn_limit=6)
    rng = np.random.default_rng(3)
    chosen = [s for seed in range(14) for s in random_game(game, seed, rng)
              if s.current_player() == 1 and any(p.damage for p in s.engine.table.planes if p.side == "Allies")]
    state = chosen[0]
    engine = state.engine
    enemy = next(p for p in engine.table.planes if p.side != engine.seat_sides[1])
    worlds = [state.resample(1, np.random.default_rng(k)).engine for k in range(8)]
    assert len({w.locked for w in worlds}) > 1 and all(w.locked[0][0] == engine.locked[0][0] for w in worlds)
    assert len({w.table.plane(enemy.name).damage for w in worlds}) > 1


def test_yorktown_resampling_re_deals_the_deck_face_down_weather_and_other_seats_tiles():
    state = load_game("yorktown", players=2, expansions="expert+weather").new_initial_state(6)
    engine = state.engine
    worlds = [state.resample(0, np.random.default_rng(k)).engine for k in range(12)]
    assert len({w.deck for w in worlds}) > 1 and all(sorted(w.deck) == sorted(engine.deck) for w in worlds)
    assert len({w.weather for w in worlds}) > 1 and all(w.revealed == engine.revealed for w in worlds)
    mine = [p for p in range(4) if engine.setup.seat_of[p] == 0]
    assert all(w.tile[p] == engine.tile[p] for w in worlds for p in mine)
    assert len({tuple(w.tile[p] for p in range(4) if p not in mine) for w in worlds}) > 1
    assert all(len({t for t in w.tile if t is not None}) == 4 for w in worlds)


# -- White Christmas ------------------------------------------------------------------------
def test_white_christmas_strings_never_hold_another_seats_bid_radar_values_or_hand():
    """WC.F4, WC.F5: over whole 3-player games, a seat's information-state string names
    the value of its own radar tokens put into a sealed bid and of its own sealed bid
    only (another seat's bid appears only once sealed: a token put in changes nothing in
    the others' strings, not even a count), and its observation lists its own hand and
    radar tokens, never another seat's."""
    from furball.scenarios.white_christmas.actions import ActionKind

    game = load_game("white_christmas", players=3)
    bids_seen = 0
    for seed in range(2):
        states = random_game(game, seed, np.random.default_rng(seed))
        mine = [0, 0, 0]
        for before, action in zip(states, states[-1].history()):
            seat = before.current_player()
            kind = game.codec.decode(before.engine, action).kind
            mine[seat] += kind in (ActionKind.BID, ActionKind.SEAL)
            after = before.child(action)
            engine = after.engine
            comp = engine.setup.comp
            for p in range(3):
                info = after.information_state_string(p)
                assert info.count(" worth ") == mine[p]
                if kind == ActionKind.BID and p != seat:
                    assert info == before.information_state_string(p)
                own = engine.private[p]
                text = after.observation_string(p)
                assert f"Your hand: {'; '.join(comp.cards[c].name for c in own.hand) or '-'}\n" in text
                assert f"Your radar tokens: {' '.join(map(str, own.radar)) or '-'}" in text
                assert text.count("Your hand:") == 1 and text.count("Your radar tokens:") == 1
                assert "worth" not in text
            bids_seen += kind == ActionKind.BID
    assert bids_seen


def test_white_christmas_resampling_re_deals_other_hands_radar_staircases_and_decks():
    """A resample for a seat keeps what it holds and what is public, and re-deals the
    rest: the other hands (same sizes) with the action deck, radar values (the same
    tokens in all), the face-down staircases it did not inspect, the decks."""
    from furball.scenarios.white_christmas.actions import Stairs

    game = load_game("white_christmas", players=3)
    rng = np.random.default_rng(5)
    states = [s for seed in range(3) for s in random_game(game, seed, rng)
              if s.engine.board.stairs_state == Stairs.FACE_DOWN and s.engine.sides[1].radar and s.engine.sides[2].hand]
    state = states[len(states) // 2]
    engine = state.engine
    worlds = [state.resample(0, np.random.default_rng(k)).engine for k in range(10)]
    cards = sorted(engine.deck + engine.private[1].hand + engine.private[2].hand)
    radar = sorted(engine.radar_supply + tuple(v for s in (1, 2) for v in engine.private[s].radar + engine.private[s].bid))
    for w in worlds:
        assert w.private[0] == engine.private[0] and w.board == engine.board and w.sides == engine.sides
        assert [len(w.private[s].hand) for s in (1, 2)] == [len(engine.private[s].hand) for s in (1, 2)]
        assert sorted(w.deck + w.private[1].hand + w.private[2].hand) == cards
        assert sorted(w.radar_supply + tuple(v for s in (1, 2) for v in w.private[s].radar + w.private[s].bid)) == radar
        assert all(w.stairs_down[k] == card for k, card in engine.private[0].inspected)
        assert sorted(w.stairs_down + w.stairs_deck) == sorted(engine.stairs_down + engine.stairs_deck)
    assert len({(w.private[1].hand, w.private[2].hand) for w in worlds}) > 1
    assert len({w.private[1].radar for w in worlds}) > 1 and len({w.seed for w in worlds}) == 10
    assert len({w.stairs_down for w in worlds}) > 1


@pytest.mark.parametrize(("name", "params"), [("white_christmas", {"players": 3}), ("yorktown", {"players": 2})])
def test_an_information_state_fixes_the_legal_action_ids(name, params):
    """Information-set search keys its tree by the information-state string: in worlds
    resampled for a seat and played on with the same random ids, equal strings of the
    seat to act give equal legal ids (White Christmas: copies of a card in hand are one
    id, else two worlds holding different copies would clash)."""
    from furball.scenarios.rl.openspiel import FurballGame

    game = load_game(name, **params)
    rng = np.random.default_rng(0)
    checked = 0
    for state in random_game(game, 3, np.random.default_rng(3))[:-1:9]:
        root = FurballGame.around_state(game.spec.short_name, state.engine).state_from(state.engine)
        keys = {}
        for _ in range(8):
            world = root.resample(state.current_player(), rng)
            for _ in range(10):
                if world.is_terminal():
                    break
                legal = tuple(world.legal_actions())
                key = world.information_state_string(world.current_player())
                assert keys.setdefault(key, legal) == legal
                checked += 1
                world = world.child(int(rng.choice(legal)))
    assert checked > 100
