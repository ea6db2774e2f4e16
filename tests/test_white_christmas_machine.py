"""1975 White Christmas invariants under any sequence of legal actions (a hypothesis state
machine), whole games with both bots, reproducibility, and the bots' strength."""
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from furball.scenarios.engine import play_game, play_many
from furball.scenarios.white_christmas import new_game
from furball.scenarios.white_christmas.components import MODELS, PEOPLE
from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS, summary
from furball.scenarios.white_christmas.players import HeuristicPlayer, RandomPlayer

CONFIGS = st.sampled_from([(2, False), (3, False), (4, False), (2, True)])


def check_invariants(s, previous_vp=None):
    """WC.G2/G6/F6 People conservation (32 tokens: supply, rooftops, staircases,
    helicopters, carriers, discard); WC.G3 one helicopter per slot; WC.F6 no helicopter over
    capacity or carrying a type it cannot; VP never decreases; WC.F2 hands hold at most 5;
    and every other pile conserved (action cards, radar tokens, staircases, orders)."""
    comp, b = s.setup.comp, s.board
    for t, person in enumerate(PEOPLE):
        where = b.supply[t] + b.discarded[t] + sum(r.count(person) for r in b.roofs)
        where += sum(x.count(person) for x in b.stairs)
        where += sum(x.carrier.count(person) + sum(a.count(person) for a in x.aboard) for x in s.sides)
        assert where == comp.people[t]
        assert min(b.supply[t], b.discarded[t]) >= 0
    assert sum(comp.people) == 32
    slots = [node for x in s.sides for node in x.at if node not in s.table.carriers]
    assert len(slots) == len(set(slots))                       # WC.G3
    for side, x in enumerate(s.sides):
        for i, model in enumerate(MODELS):
            card = comp.helicopters[i].side(x.night[i])
            assert len(x.aboard[i]) <= card.capacity and all(card.carries(p) for p in x.aboard[i])
            node = x.at[i]
            assert node == s.table.carriers[side] or s.table.graph.node(node).attr("model") == model.value
        assert len(x.carrier) <= x.spaces
        mine = s.private[side]
        assert len(mine.hand) <= 5 and x.hand == len(mine.hand)
        assert x.radar == len(mine.radar) + len(mine.bid) and x.orders == len(mine.orders)
        if previous_vp is not None:
            assert x.vp >= previous_vp[side]
    for k, people in enumerate(b.roofs):
        assert len(people) <= s.table.spaces[k]
    cards = list(s.deck) + [c for c in b.row if c is not None] + list(b.discard) + list(b.removed)
    cards += [c for m in s.private for c in m.hand] + [x.faceup for x in s.sides if x.faceup is not None]
    assert sorted(cards) == list(range(len(comp.cards)))
    tokens = list(s.radar_supply) + [v for m in s.private for v in m.radar + m.bid]
    assert sorted(tokens) == list(comp.radar) and b.radar_left == len(s.radar_supply)
    assert sorted(s.stairs_deck + s.stairs_used + s.stairs_down) == list(range(len(comp.staircases)))
    orders = list(b.orders_row) + list(s.orders_deck) + [o for m in s.private for o in m.orders]
    assert sorted(orders) == list(range(len(comp.orders)))
    if b.over:
        assert s.legal_actions() == () and s.current_player() is None and b.winner is not None
    else:
        assert s.legal_actions() and s.current_player() in range(s.setup.seats)


class WhiteChristmasMachine(RuleBasedStateMachine):
    """Any legal action, chosen by hypothesis, from any seed and seat count."""

    @initialize(seed=st.integers(0, 2**32 - 1), config=CONFIGS)
    def start(self, seed, config):
        players, solo = config
        self.state = new_game(seed, players=players, solo=solo)
        self.vp = [x.vp for x in self.state.sides]

    @rule(data=st.data())
    def act(self, data):
        actions = self.state.legal_actions()
        if not actions:
            return
        self.state = self.state.apply(data.draw(st.sampled_from(actions)))

    @invariant()
    def invariants(self):
        if hasattr(self, "state"):
            check_invariants(self.state, self.vp)
            self.vp = [x.vp for x in self.state.sides]

    def teardown(self):
        """From wherever hypothesis left it, random play ends the game (WC.F7)."""
        if not hasattr(self, "state"):
            return
        s = self.state
        bots = [RandomPlayer(s.seed, seat) for seat in range(s.setup.seats)]
        vp = [x.vp for x in s.sides]
        for _ in range(3000):
            if s.is_terminal():
                break
            s = s.apply(bots[s.current_player()].choose(s.observation(s.current_player())))
            check_invariants(s, vp)
            vp = [x.vp for x in s.sides]
        assert s.is_terminal() and s.board.round == 4


WhiteChristmasMachine.TestCase.settings = settings(max_examples=20, stateful_step_count=60, deadline=None)
TestWhiteChristmasMachine = WhiteChristmasMachine.TestCase


@settings(max_examples=16)
@given(st.integers(0, 10**9), CONFIGS, st.sampled_from(["random", "heuristic"]))
def test_whole_games_keep_the_invariants_and_end_after_four_rounds(seed, config, player):
    """WC.F1 (4 rounds x 3 phases) and every invariant, step by step, with both bots."""
    players, solo = config
    s = new_game(seed, players=players, solo=solo)
    cls = HeuristicPlayer if player == "heuristic" else RandomPlayer
    bots = [cls(seed, seat) for seat in range(s.setup.seats)]
    vp, steps = [x.vp for x in s.sides], 0
    while not s.is_terminal():
        s = s.apply(bots[s.current_player()].choose(s.observation(s.current_player())))
        check_invariants(s, vp)
        vp = [x.vp for x in s.sides]
        steps += 1
        assert steps < 3000
    assert s.board.round == 4 and s.board.phase == "sighting"
    assert s.returns() == tuple(float(x.vp) for x in s.sides[:s.setup.seats])


@settings(max_examples=10)
@given(st.integers(0, 10**9), CONFIGS)
def test_same_seed_same_game_byte_for_byte(seed, config):
    players, solo = config
    opts = {"players": players, "solo": solo}
    a = "\n".join(play_game(WHITE_CHRISTMAS, seed, "heuristic", opts).log_lines())
    b = "\n".join(play_game(WHITE_CHRISTMAS, seed, "heuristic", opts).log_lines())
    assert a.encode() == b.encode() and len(a) > 2000
    assert new_game(seed, players, solo) == new_game(seed, players, solo)


def test_different_seeds_give_different_games():
    logs = {"\n".join(play_game(WHITE_CHRISTMAS, seed, "random", {"players": 3}).log_lines()) for seed in range(5)}
    assert len(logs) == 5


def test_the_heuristic_clearly_beats_random_play():
    """The heuristic rescues, completes orders and bids: far more VP than random play."""
    opts = {"players": 2}
    h = summary(play_many(WHITE_CHRISTMAS, 30, 3, "heuristic", opts), "heuristic")
    r = summary(play_many(WHITE_CHRISTMAS, 30, 3, "random", opts), "random")
    assert h.column("vp_P1").low > r.column("vp_P1").high + 10
    assert h.column("rescued").mean > 3 * r.column("rescued").mean


def test_result_rows_name_the_winner_and_every_sides_vp():
    record = play_game(WHITE_CHRISTMAS, 2, "heuristic", {"players": 3})
    row = record.result
    assert set(row) == {"players", "solo", "winner", "vp_P1", "vp_P2", "vp_P3", "margin", "rescued", "empty_stairs"}
    assert row["players"] == 3 and row["solo"] is False and row["winner"] in ("P1", "P2", "P3")
    assert row[f"vp_{row['winner']}"] == max(row["vp_P1"], row["vp_P2"], row["vp_P3"])
    solo = play_game(WHITE_CHRISTMAS, 2, "heuristic", {"solo": True}).result
    assert solo["players"] == 1 and solo["solo"] is True and "vp_Chambers" in solo
    assert solo["winner"] in ("P1", "Chambers")
