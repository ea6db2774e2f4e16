"""1942 USS Yorktown invariants under any sequence of legal actions (hypothesis state
machine), reproducibility, and the players."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from yorktown_helpers import play_out

from furball.scenarios.engine import play_game, play_many
from furball.scenarios.yorktown import YORKTOWN, new_game, summary
from furball.scenarios.yorktown.actions import EndReason, Expansion, Phase
from furball.scenarios.yorktown.players import HeuristicPlayer, RandomPlayer

FUEL_MAX = 14


def check_invariants(s, clock_before=0):
    """YT.R4 at most 2 planes per island; YT.K2 fuel 0-14; YT.A1 search 0-7; YT.E1/E2
    damage 0-3; YT.K3 tokens conserved (8 Jakes, 12 Kate/Zeke); YT.S4 the clock never
    runs backwards and never passes the timer; YT.K3 at most 4 bombs carried."""
    assert all(len(p) <= 2 for p in s.japanese)
    assert all(0 <= f <= FUEL_MAX for f in s.fuel)
    assert 0 <= s.search <= 7 and 0 <= s.yorktown <= 3 and 0 <= s.shoho <= 3 and 0 <= s.cap <= 2
    assert s.pool_tokens() == {"Jake": 8, "Kate/Zeke": 12}
    assert min(s.supply) >= 0
    assert clock_before <= s.clock <= s.setup.limit
    assert 0 <= s.bombs_left() <= 4
    assert all(0 <= k <= s.setup.rules.max_points for k in s.skill)
    if s.over is None:
        assert s.legal_actions() and s.phase != Phase.OVER
        assert (s.roll is not None) == (s.phase in (Phase.ROLL, Phase.ASSIGN))  # YT.D2: a roll under way is shown
        if s.roll is not None:
            assert s.roll.throws > 0 and len(s.roll.faces) + s.roll.ones == s.roll.dice
        assert len(s.legal_actions()) >= 2 or s.phase == Phase.SET_UP  # single answers are taken at once
    else:
        assert s.legal_actions() == () and s.current_player() is None
    if s.over == EndReason.SHOHO_SUNK:
        assert s.shoho == 3
    if s.over == EndReason.YORKTOWN_SUNK:
        assert s.yorktown == 3
    if s.over == EndReason.NO_PLANES:
        assert not s.alive()


class YorktownMachine(RuleBasedStateMachine):
    """Any legal action, chosen by hypothesis, from any seed, player count and
    expansions (YT.R1-R6, YT.A1-A10)."""

    @initialize(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4),
                expansions=st.sets(st.sampled_from(list(Expansion))))
    def start(self, seed, players, expansions):
        self.state = new_game(seed, players=players, expansions=expansions)
        self.clock = 0

    @rule(data=st.data())
    def act(self, data):
        actions = self.state.legal_actions()
        if not actions:
            return
        self.clock = self.state.clock
        seat = self.state.current_player()
        self.state = self.state.apply(data.draw(st.sampled_from(actions)))
        assert seat is not None

    @invariant()
    def invariants(self):
        if hasattr(self, "state"):
            check_invariants(self.state, self.clock)

    def teardown(self):
        # YT.E1, YT.E2: from wherever hypothesis left it, the game goes on to an end
        if hasattr(self, "state"):
            assert play_out(self.state, check_invariants).over in tuple(EndReason)


YorktownMachine.TestCase.settings = settings(stateful_step_count=40, max_examples=25, deadline=None)
TestYorktownMachine = YorktownMachine.TestCase


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(["random", "heuristic"]), st.integers(1, 4))
def test_whole_games_keep_the_invariants_and_end(seed, player, players):
    """YT.E1, YT.E2: every game ends (the clock always advances)."""
    s = new_game(seed, players=players)
    bots = [YORKTOWN.player(player, seed, seat) for seat in range(players)]
    steps = 0
    while not s.over:
        clock = s.clock
        s = s.apply(bots[s.current_player()].choose(s))
        check_invariants(s, clock)
        steps += 1
        assert steps < 5000
    assert s.result()["result"] in ("victory", "defeat")


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**9))
def test_same_seed_same_game_byte_for_byte(seed):
    a = "\n".join(play_game(YORKTOWN, seed, "heuristic").log_lines())
    b = "\n".join(play_game(YORKTOWN, seed, "heuristic").log_lines())
    assert a.encode() == b.encode()
    assert new_game(seed).deck == new_game(seed).deck


def test_different_seeds_give_different_games():
    logs = {"\n".join(play_game(YORKTOWN, seed, "random").log_lines()) for seed in range(5)}
    assert len(logs) == 5


def test_a_game_without_a_log_gives_the_same_result():
    for seed in (3, 4):
        assert play_game(YORKTOWN, seed, "heuristic", keep_log=False).result == \
            play_game(YORKTOWN, seed, "heuristic").result


@pytest.mark.slow
def test_heuristic_clearly_beats_random():
    heuristic = summary(play_many(YORKTOWN, 80, 100, "heuristic"), "heuristic")
    random = summary(play_many(YORKTOWN, 80, 100, "random"), "random")
    win = {c.name: c for c in (heuristic.column("result"), random.column("result"))}
    h = dict((v, (n, p, lo, hi)) for v, n, p, lo, hi in heuristic.column("result").shares)["victory"]
    r = dict((v, (n, p, lo, hi)) for v, n, p, lo, hi in random.column("result").shares)["victory"]
    assert win and h[2] > r[3]  # the heuristic's lower bound above the random player's upper bound
    assert h[1] > 0.3 and r[1] < 0.05


def test_players_only_choose_legal_actions_for_every_seat():
    s = new_game(4, players=3)
    bots = {seat: (RandomPlayer(4, seat), HeuristicPlayer(4, seat)) for seat in range(3)}
    for k in range(400):
        if s.over:
            break
        action = bots[s.current_player()][k % 2].choose(s)
        assert action in s.legal_actions()
        s = s.apply(action)


def test_results_row_and_outcome():
    record = play_game(YORKTOWN, 7, "heuristic", options={"players": 2, "difficulty": "hard"})
    row = record.result
    assert set(row) >= {"result", "end", "minutes", "turns"} and row["minutes"] <= 28
    assert len(record.players) == 2 and record.final.returns() in ((0.0, 0.0), (1.0, 1.0))
    assert record.final.outcome()[0].startswith("game over in turn")
