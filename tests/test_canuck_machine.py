"""Operation Canuck invariants under any sequence of legal actions (hypothesis state
machine), reproducibility, and the players."""
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from furball.scenarios.canuck.board import default_map
from furball.scenarios.canuck.game import BANDS, play_game, play_many
from furball.scenarios.canuck.players import HeuristicPlayer, RandomPlayer, p_axis_at_most
from furball.scenarios.canuck.state import BASES, GROUPS, LEADERS, new_game

MAP = default_map()


def check_invariants(s, previous_vp=0):
    """CN.K1 card and counter conservation, CN.S2 strengths, CN.E4/E5 scores."""
    piles = s.deck + s.reserve + s.partisan_discard + s.axis_deck + s.axis_discard + s.removed + s.cards_in_play
    assert sorted(piles) == list(range(52))  # CN.K1: 52 cards, none lost or doubled
    assert sum(s.groups) + s.unused_groups == GROUPS
    assert sum(s.leaders) + s.lost_leaders == LEADERS
    assert sum(s.bases) + s.unused_bases == BASES
    assert min(s.groups + s.leaders + s.bases) >= 0 and min(s.unused_groups, s.unused_bases) >= 0
    for a in range(len(MAP.areas)):
        assert 0 <= s.garrison[a] <= 6  # CN.S2 strengths stay 0..6
        if a not in MAP.gar:
            assert s.garrison[a] == 0
        assert s.bases[a] <= 1 and (s.bases[a] == 0 or a in MAP.base)  # CN.S3, CN.P11
    assert 0 <= s.red_faces <= 6 and s.vp >= previous_vp >= 0
    score = s.score()
    assert score.total == s.vp + score.alba and score.alba in (0, 5, 10) and score.band in BANDS
    if s.over:
        assert s.legal_actions() == () and s.pending is None
    else:
        assert s.legal_actions()
    if s.pending is None and not s.over:
        assert s.draws_due == 0


class CanuckMachine(RuleBasedStateMachine):
    """Any legal action, chosen by hypothesis, from any seed (CN.P1, CN.K1, CN.E1)."""

    @initialize(seed=st.integers(0, 2**32 - 1))
    def start(self, seed):
        self.state = new_game(seed)
        self.vp = 0

    @rule(data=st.data())
    def act(self, data):
        actions = self.state.legal_actions()
        if not actions:
            return
        action = data.draw(st.sampled_from(actions))
        self.state = self.state.apply(action)
        self.vp = max(self.vp, self.state.vp)

    @invariant()
    def invariants(self):
        if hasattr(self, "state"):
            check_invariants(self.state, self.vp)

    def teardown(self):
        # CN.E1/CN.E2: from wherever hypothesis left it, the game ends and scores in a band
        if not hasattr(self, "state"):
            return
        s = self.state
        player = RandomPlayer(s.seed)
        for _ in range(5000):
            if s.over:
                break
            s = s.apply(player.choose(s))
            check_invariants(s)
        assert s.over in ("sixth_advance", "last_base", "deadlock")
        assert s.score().band in BANDS


CanuckMachine.TestCase.settings = settings(stateful_step_count=40, deadline=None)
TestCanuckMachine = CanuckMachine.TestCase


@given(st.integers(0, 10**9), st.sampled_from(["random", "heuristic"]))
def test_whole_games_keep_the_invariants_and_end_in_a_band(seed, player):
    """CN.K1, CN.E1, CN.E2, CN.E5 over whole games."""
    from furball.scenarios.canuck.players import make_player
    s, chooser, steps = new_game(seed), make_player(player, seed), 0
    while not s.over:
        s = s.apply(chooser.choose(s))
        check_invariants(s)
        steps += 1
        assert steps < 5000
    assert s.options <= 52  # every option draws from a deck that only shrinks


@given(st.integers(0, 10**9))
def test_same_seed_same_game_byte_for_byte(seed):
    a = "\n".join(play_game(seed, "heuristic").log_lines())
    b = "\n".join(play_game(seed, "heuristic").log_lines())
    assert a.encode() == b.encode()
    assert new_game(seed) == new_game(seed)


def test_different_seeds_give_different_games():
    logs = {"\n".join(play_game(seed, "random").log_lines()) for seed in range(5)}
    assert len(logs) == 5


def test_heuristic_clearly_beats_random_on_mean_vp():
    heuristic = play_many(120, 1000, "heuristic")
    random = play_many(120, 1000, "random")
    h, r = heuristic.column("vp"), random.column("vp")
    assert h.low > r.high + 5
    assert h.mean > 10 and r.mean < 3


def test_players_only_choose_legal_actions():
    s = new_game(4)
    for player in (RandomPlayer(4), HeuristicPlayer(4)):
        t = s
        for _ in range(60):
            if t.over:
                break
            action = player.choose(t)
            assert action in t.legal_actions()
            t = t.apply(action)


def test_axis_probability_estimate_is_close_to_sampling():
    s = new_game(8)
    pool = np.array([c % 13 + 1 for c in s.axis_deck])
    rng = np.random.default_rng(0)
    sums = np.array([rng.choice(pool, 2, replace=False).sum() for _ in range(4000)])
    for value in (5, 9, 13):
        assert abs(p_axis_at_most(s, 2, value) - (sums <= value).mean()) < 0.2
    assert p_axis_at_most(s, 1, 100) == 1.0 and p_axis_at_most(s, 1, 0) == 0.0


def test_CN_P1_is_legal_agrees_with_the_list_of_legal_actions():
    """``is_legal`` (the listed menu's membership, :class:`ListedMenu`) says yes exactly
    for the listed actions, in every position of whole games of both players, for every
    action of the map and for malformed ones."""
    from furball.scenarios.canuck.actions import Action, Piece, action_table
    from furball.scenarios.canuck.actions import ActionKind as K

    table = action_table(len(new_game(0).groups))
    universe = [a for row in table.by_area.values() for a in row] + list(table.add_card) + \
        list(table.move.values()) + list(table.participants.values()) + list(table.lose.values()) + \
        list(table.plain.values())
    universe += [Action(K.AMBUSH, area=99), Action(K.AMBUSH), Action(K.PAUSE, area=-1), Action(K.ADD_CARD),
                 Action(K.ADD_CARD, card=60), Action(K.ADD_CARD, card=3, area=1), Action(K.RESOLVE, card=2),
                 Action(K.MOVE_COUNTER, area=0, to=0, piece=Piece.GROUP), Action(K.TRAIN, area=2),
                 Action(K.MOVE_COUNTER, area=0, to=1, piece=Piece.BASE), Action(K.DONE, area=0),
                 Action(K.PARTICIPANTS, groups=9, leaders=1), Action(K.CANCEL, groups=1), "ambush", None]
    checked = 0
    for seed in (1, 2, 5):
        for player in (RandomPlayer(seed), HeuristicPlayer(seed)):
            s = new_game(seed)
            while not s.over:
                legal = set(s.legal_actions())
                for a in universe:
                    assert s.is_legal(a) == (a in legal), (s.pending, a)
                checked += 1
                s = s.apply(player.choose(s))
            assert not any(s.is_legal(a) for a in universe)
            assert not s.is_legal([])  # unhashable: not an action
    assert checked > 200


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), shuffle_seed=st.integers(0, 2**32))
def test_CN_K1_CN_P1_the_menu_never_depends_on_the_draw_decks_order(seed, shuffle_seed):
    """CN.K1, CN.P1: in every position of a random game, the menu listed on the position,
    on the observation the bot decides on (the draw deck face down, sorted) and on the
    position with its deck in any other order is the same, in the same order."""
    from furball.scenarios.canuck.operations import legal_actions

    s, player, order = new_game(seed), RandomPlayer(seed), random.Random(shuffle_seed)
    while True:
        deck = list(s.deck)
        order.shuffle(deck)
        menu = legal_actions(s)
        seen = s.observation(0)
        assert legal_actions(seen) == menu == legal_actions(s.replace(deck=tuple(deck)))
        assert s.legal_actions() == menu == seen.legal_actions() and seen.deck == tuple(sorted(s.deck))
        if s.over:
            break
        s = s.apply(player.choose(s.observation()))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16), other_seed=st.integers(0, 2**31), shuffle_seed=st.integers(0, 2**32))
def test_CN_K1_the_observation_holds_neither_the_deck_order_nor_the_seed_that_deals_it(seed, other_seed,
                                                                                         shuffle_seed):
    """CN.K1: what the bot decides on is the same whatever the draw deck's order and the
    game's seed (from which the order could be dealt again): the same position with its
    deck in another order and another seed is observed identically, at every step."""
    s, player, order = new_game(seed), RandomPlayer(seed), random.Random(shuffle_seed)
    while not s.over:
        deck = list(s.deck)
        order.shuffle(deck)
        seen = s.observation(0)
        assert seen == s.replace(deck=tuple(deck), seed=other_seed).observation(0)
        assert seen.seed != s.seed or s.seed == 0
        s = s.apply(player.choose(seen))

