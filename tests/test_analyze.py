"""Issue 12: plan analysis. The fast path and the referee never disagree; the plan tree,
chunks, reveals, weights, the CLI and the planning opponent."""
import dataclasses
import json
import pathlib
import pickle

import numpy as np
import pytest
from kernel_paths import MODES, compiled_path
from planes import DECKS, HARMLESS, RULES, plane, table

from furball import maneuvers
from furball.maneuvers.kernels import FIRE_LONG, FIRE_SHORT
from furball.maneuvers.placement import place_sequence
from furball.maneuvers.plan import plan_problem
from furball.scenarios.dogfight import adjudicate, analyze, best_plan
from furball.scenarios.dogfight.analysis import (
    OUT,
    duel_task,
    evaluate_chunk,
    legal_plans,
    load_enemy_weights,
    plan_tree,
)

SIX = dataclasses.replace(DECKS["A"], name="six", autonomous=None, cards=tuple(
    c for c in DECKS["A"].cards if c.id in ("A1", "A3", "A4", "A5", "A6", "A7")))
"""A six-card deck (the collision cards A6/A7 included): 216 plans, fast to analyse."""


def _duel(**kw):
    """Two planes closing head-on with a third, static plane near their paths."""
    a = plane("Camel", 300, 300, 0, side="Allies", **kw)
    b = plane("Albatros", 470, 330, 185, side="Central")
    c = plane("Balloon", 420, 250, side="Central", deck=None, kind="balloon")
    return table(a, b, c, damage_decks=HARMLESS)  # damage destroys nobody: the geometry is compared


def _shots_of(result, k, a="Camel", b="Albatros"):
    m = result.maneuvers[k]
    code = {"short": FIRE_SHORT, "long": FIRE_LONG}
    mine = max((code[s.range] for s in m.shots if s.shooter == a and s.target == b), default=0)
    theirs = max((code[s.range] for s in m.shots if s.shooter == b and s.target == a), default=0)
    return mine, theirs


def test_the_fast_path_and_the_referee_never_disagree_on_plan_pairs():
    """For plan pairs with shots both ways, overlaps, collision tests and planes leaving,
    the analysis's per-maneuver outcome equals a full ``adjudicate`` of those plans:
    the same firing positions and ranges (DF.O2, DF.O3, blocked by the balloon), the same
    overlaps with the exact collision chance (DF.C3), the same plane leaving (DF.E1)."""
    t = _duel()
    rng = np.random.default_rng(0)
    mine = [p for p in legal_plans(t.planes[0], RULES) if rng.random() < 0.05]
    theirs = [p for p in legal_plans(t.planes[1], RULES) if rng.random() < 0.05]
    a, b = plan_tree(t.planes[0], t, plans=mine), plan_tree(t.planes[1], t, plans=theirs)
    task = duel_task(a, b, t, others=[t.planes[2]])
    detail = evaluate_chunk(task, np.arange(len(mine)), detail=True).detail  # (P, Q, 3, 3)
    for mode in MODES:  # the compiled pair loops and the parallel grids: the same
        with compiled_path(mode):
            same = evaluate_chunk(duel_task(a, b, t, others=[t.planes[2]]), np.arange(len(mine)), detail=True)
        assert np.array_equal(same.detail, detail)
    interesting = np.argwhere((detail[..., 0] > 0).any(-1) | (detail[..., 1] > 0).any(-1)
                              | (detail[..., 2] > 0).any(-1))
    picks = [tuple(x) for x in interesting[rng.permutation(len(interesting))[:25]]]
    picks += [tuple(x) for x in rng.integers(0, [len(mine), len(theirs)], (5, 2))]
    seen = {"fire": 0, "coll": 0}
    for i, j in picks:
        r = adjudicate(t, {"Camel": mine[i], "Albatros": theirs[j]}, seed=1, samples=False)
        for k in range(3):
            assert _shots_of(r, k) == tuple(detail[i, j, k, :2].astype(int)), (mine[i], theirs[j], k)
            tests = [c for c in r.maneuvers[k].collisions if {c.a, c.b} == {"Camel", "Albatros"}]
            p = float(tests[0].probability) if tests else 0.0
            assert p == detail[i, j, k, 2], (mine[i], theirs[j], k)
            seen["fire"] += any(_shots_of(r, k))
            seen["coll"] += p > 0
    assert seen["fire"] > 5 and seen["coll"] > 2  # the pairs really test something


def _agree_on(t, plans):
    """The analysis of the first two planes' ``plans`` and ``adjudicate``: the same
    firing positions and ranges, maneuver by maneuver; returns the referee's result."""
    (a, pa), (b, pb) = plans.items()
    result = adjudicate(t, {n: p for n, p in plans.items() if p}, seed=1, samples=False)
    trees = plan_tree(t.plane(a), t, plans=[pa] if pa else None), plan_tree(t.plane(b), t, plans=[pb] if pb else None)
    others = [p for p in t.planes if p.name not in (a, b)]
    for mode in MODES:
        with compiled_path(mode):
            detail = evaluate_chunk(duel_task(*trees, t, others=others), np.arange(1), detail=True).detail
        for k in range(3):
            assert _shots_of(result, k, a, b) == tuple(detail[0, 0, k, :2].astype(int)), (mode, k)
    return result


def test_issue_26_a_target_exactly_at_short_range_is_short_for_the_analysis_as_for_the_referee():
    """Issue 26.10, first tie: after maneuver 1 the Boche's rear edge is 100.000001 mm
    (short range plus the tolerance) from the Ace's gun; the referee measures
    100.00000099999997 mm, a short-range rear-arc shot, and so must the analysis."""
    ace = plane("Ace", 319.84161436974404, 510.50352984374825, 291.8065442877595, base="large", climb_counters=2,
                last_card="A7")
    boche = plane("Boche", 334.105419337027, 514.056392648732, 111.8065442877595, last_card="A10")
    result = _agree_on(table(ace, boche), {"Ace": ("A13", "A1", "A5"), "Boche": ("A1", "A14", "A9")})
    shot = result.maneuvers[0].shots[0]
    assert (shot.shooter, shot.range, shot.arc) == ("Ace", "short", 1) and 100.0 < shot.distance_mm < 100.000001


def test_issue_26_a_base_edge_exactly_the_tolerance_inside_an_arc_line_is_outside_for_both():
    """Issue 26.10, second tie: after maneuver 1 a balloon's edge lies exactly the
    tolerance inside the Ace's left arc line, 58 mm away: outside the arc for the
    referee (no shot), and for the analysis."""
    ace = plane("Ace", 474.439093604867, 303.70344353404215, 254.69840424138383, side="Allies")
    blimp = plane("Blimp", 507.40962086119754, 129.47064371002728, 299.69840424138386, side="Central", deck=None,
                  kind="balloon")
    result = _agree_on(table(ace, blimp), {"Ace": ("A1", "A1", "A1"), "Blimp": ()})
    assert not result.maneuvers[0].shots


def test_the_compiled_loops_name_the_metric_columns_and_codes_of_the_analysis():
    """Issue 19.7: the metric columns, status codes and firing codes the compiled loops
    use are the analysis's (named in both files)."""
    from furball.maneuvers import kernels as mk
    from furball.scenarios.dogfight import analysis

    compiled = vars(analysis._jit())  # loaded with its cache in the user's cache directory
    assert compiled["N_METRICS"] == len(analysis.METRICS)
    for i, name in enumerate(analysis.METRICS):
        assert compiled[name.upper()] == i
    for name in ("FLYING", "LANDED", "OUT"):
        assert compiled[name] == getattr(analysis, name)
    for name in ("FIRE_NONE", "FIRE_LONG", "FIRE_SHORT"):
        assert compiled[name] == getattr(mk, name)
    assert compiled["Weights"]._fields == tuple(f.name for f in dataclasses.fields(analysis.ScoreWeights))


def test_the_plan_tree_computes_each_pose_once_and_matches_the_cards_flown():
    """Poses after maneuver k depend only on the first k cards; a plane whose stand
    leaves the table is out (DF.E1); altitude follows the climb and descent cards."""
    p = plane("Camel", 830, 300, 0, altitude=1)
    t = table(p)
    tree = plan_tree(p, t)
    assert len(tree.plans) == sum(plan_problem(p, q, None, RULES) is None for q in tree.plans)
    assert len(tree.poses[0]) == len({q[0] for q in tree.plans})
    assert len(tree.poses[1]) == len({q[:2] for q in tree.plans})
    for n in range(0, len(tree.plans), 97):
        plan = tree.plans[n]
        flown = place_sequence(p.pose, [p.deck.card(c) for c in plan], p.base)
        for k in range(3):
            node = tree.node[k, n]
            if tree.status[k][node] != OUT:
                assert np.allclose(tree.poses[k][node], flown[k].as_array(), atol=1e-9)
    first_out = tree.status[0][tree.node[0]] == OUT
    assert first_out.any() and not first_out.all()
    result = adjudicate(t, {"Camel": tree.plans[int(np.argmax(first_out))]}, seed=1, samples=False)
    assert result.maneuvers[0].left_table == ("Camel",)


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_DF_M5_DF_B1_DF_H3_DF_D6_legal_plans_are_the_plans_check_plan_accepts(deck):
    """``legal_plans`` checks each sequence of kinds of card once (cards agreeing on
    the flags the checks read): the same plans, in the same order, as checking every
    plan, for planes after a steep card or an Immelmann, at the ceiling, at altitude
    0, loaded with bombs, with a special forbidding a flag, and with either
    sequencing rule off."""
    import itertools

    from furball.maneuvers.damage import ActiveEffect, Special

    d = DECKS[deck]
    steep = next((c.id for c in d.cards if "steep" in c.flags), None)
    immelmann = next((c.id for c in d.cards if "immelmann" in c.flags), None)
    states = [dict(), dict(last_card=steep), dict(last_card=immelmann), dict(altitude=3, climb_counters=1),
              dict(altitude=0, climb_counters=1), dict(bombs=4, bombs_at_start=4),
              dict(effects=(ActiveEffect(Special.RUDDER, 2, forbids=("left", "steep")),))]
    rules = [RULES, dataclasses.replace(RULES, steep_sequencing=False, immelmann_sequencing=False)]
    for kw, r in itertools.product(states, rules):
        p = plane("P", 300, 300, deck=deck, **kw)
        every = [q for q in itertools.product(d.ids, repeat=3) if plan_problem(p, q, None, r) is None]
        assert list(legal_plans(p, r)) == every, (kw, r)
    loaded = plane("P", 300, 300, deck=deck, bombs=4, bombs_at_start=4)
    every = [q for q in itertools.product(d.ids, repeat=3) if plan_problem(loaded, q, (0, 2, 0), RULES) is None]
    assert list(legal_plans(loaded, RULES, (0, 2, 0))) == every


def test_plan_trees_kept_between_calls_give_the_same_report_and_never_key_on_a_plan():
    """Issue 36.1: Best plans while a plane is dragged keeps the plan trees in a bounded
    cache: the same reports as without it; the enemy's tree (and the dragged plane's
    legal plans) are reused; the keys hold public values only (the orders' plans may
    change without a new tree)."""
    from cachetools import LRUCache

    from furball.scenarios.dogfight.table import Orders

    cache = LRUCache(maxsize=16)
    t = _small_table()
    for k in range(3):
        moved = t.replace(planes=(t.planes[0].replace(pose=(250 + 7 * k, 420, 3 * k)), t.planes[1]))
        orders = {"Albatros": Orders(plan=("A1", "A3", "A4") if k % 2 else ("A6", "A6", "A6"))}
        kept = analyze(moved, "Camel", orders=orders, tree_cache=cache)
        fresh = analyze(moved, "Camel", orders=orders)
        assert np.array_equal(kept.metrics, fresh.metrics) and np.array_equal(kept.ranking, fresh.ranking)
    trees = [key for key in cache.keys() if key[0] == "tree"]
    assert len(trees) == 4 and sum(key[0] == "plans" for key in cache.keys()) == 1  # 3 Camels, 1 Albatros
    assert not any(("A1", "A3", "A4") in key or ("A6", "A6", "A6") in key for key in cache.keys())


def test_issue36_1_the_unmoved_planes_placed_poses_are_kept_while_the_other_is_dragged(monkeypatch):
    """The sides (each tree's poses after maneuver 3, placed to fire, to be fired at and
    by the collision cards) are kept with the trees: dragging the Camel places only the
    Camel's plans again; the reports are those without a cache."""
    from cachetools import LRUCache

    from furball.scenarios.dogfight import analysis as an

    placed = []
    side = an._side
    monkeypatch.setattr(an, "_side", lambda tree, rules: placed.append(tree.plane.name) or side(tree, rules))
    cache = LRUCache(maxsize=16)
    t = _small_table()
    for k in range(3):
        moved = t.replace(planes=(t.planes[0].replace(pose=(250 + 7 * k, 420, 3 * k)), t.planes[1]))
        kept = analyze(moved, "Camel", tree_cache=cache)
        placed.append("|")
        fresh = analyze(moved, "Camel")
        assert np.array_equal(kept.metrics, fresh.metrics) and np.array_equal(kept.ranking, fresh.ranking)
        placed.append("/")
    assert "".join(p[0] for p in placed) == "CA|CA/C|CA/C|CA/"  # with the cache, the Albatros placed once


def test_chunks_are_pure_and_picklable_and_add_up_to_the_whole():
    t = _duel()
    a = plan_tree(t.planes[0].replace(deck=SIX), t)
    b = plan_tree(t.planes[1].replace(deck=SIX), t)
    task = pickle.loads(pickle.dumps(duel_task(a, b, t, others=[t.planes[2]])))
    whole = evaluate_chunk(task, np.arange(len(a.plans)))
    parts = [evaluate_chunk(task, rows) for rows in np.array_split(np.arange(len(a.plans)), 3)]
    assert np.allclose(np.concatenate([r.grouped for r in parts]), whole.grouped)
    assert np.allclose(sum(r.their_score for r in parts), whole.their_score)
    assert np.allclose(evaluate_chunk(task, np.arange(len(a.plans))).grouped, whole.grouped)


def test_issue36_2_the_sums_on_runs_of_plans_are_those_plan_by_plan_to_the_bit():
    """``combine`` sums the enemy's plans run by run (plans sharing a level-2 node) when
    they are listed by first card: the same terms in the same order as the plan-by-plan
    loop, so the same sums, scores and enemy scores, bit for bit."""
    t = _duel()
    a = plan_tree(t.planes[0].replace(deck=SIX), t)
    b = plan_tree(t.planes[1].replace(deck=SIX), t)
    task = duel_task(a, b, t, others=[t.planes[2]])
    assert len(task.them.node2_runs) > len(task.them.first_starts)  # runs inside the groups: the run loop is taken
    none = np.zeros(0, np.int64)
    plain = dataclasses.replace(task, them=dataclasses.replace(task.them, node2_runs=none, group_runs=none))
    rows = np.arange(len(a.plans))
    runs, by_plan = (evaluate_chunk(x, rows, keep_scores="exact", their_score=True) for x in (task, plain))
    for got, want in ((runs.grouped, by_plan.grouped), (runs.their_score, by_plan.their_score),
                      (runs.scores, by_plan.scores)):
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def _small_table(**kw):
    a = plane("Camel", 250, 420, 0, side="Allies").replace(deck=SIX, **kw)
    b = plane("Albatros", 400, 440, 10, side="Central").replace(deck=SIX)
    return table(a, b)


def test_analyze_ranks_every_legal_plan_and_the_weights_choose_the_enemy_plans():
    t = _small_table()
    report = analyze(t, "Camel")
    assert len(report.plans) == len(legal_plans(t.planes[0], RULES)) == len(report.ranking)
    ranked = np.round(report.score[report.ranking], 9)
    assert list(ranked) == sorted(ranked, reverse=True)
    assert report.enemies[0].name == "Albatros" and report.pairs == len(report.plans) ** 2
    only = ("A6", "A6", "A6")
    weighted = analyze(t, "Camel", enemy_weights={"Albatros": {only: 2.0}})
    a, b = plan_tree(t.planes[0], t), plan_tree(t.planes[1], t, plans=[only])
    alone = evaluate_chunk(duel_task(a, b, t), np.arange(len(a.plans))).grouped.sum(axis=1)
    assert np.allclose(weighted.metrics[:, -1], alone[:, -1])
    assert not np.allclose(weighted.metrics[:, -1], report.metrics[:, -1])


def test_DF_T2_the_revealed_order_is_never_worse_than_the_plan_as_flown():
    """With ``reveal`` the chaser (the Camel tails the Albatros at the start) flies the
    best order of its cards against the card shown: never a lower score."""
    t = _small_table()
    flown, revealed = analyze(t, "Camel"), analyze(t, "Camel", reveal=True)
    assert flown.enemies[0].tails == "Camel tails Albatros" and flown.enemies[0].reveal is None
    assert revealed.enemies[0].reveal is not None
    assert np.all(revealed.score >= flown.score - 1e-9) and np.any(revealed.score > flown.score + 1e-9)
    their = analyze(t, "Albatros", reveal=True)  # the Albatros is tailed: the Camel reorders against it
    assert their.enemies[0].reveal.startswith("Camel tails Albatros")
    assert np.all(their.score <= analyze(t, "Albatros").score + 1e-9)


def test_DF_T2_the_chaser_keeps_its_order_when_it_is_among_the_best_else_the_first_best_one():
    """The reorder on whole arrays (issue 36): per class of plans with the same cards
    and per column, a plan among the best keeps itself, the others fly the first best
    plan of the class (plan order; the first NaN where there is one, as ``argmax``);
    checked against that rule written plan by plan, with ties, NaN and infinities."""
    from furball.scenarios.dogfight.analysis import _reveal_columns, _reveal_rows

    plans = [("A1", "A2", "A3"), ("A3", "A2", "A1"), ("A4", "A4", "A1"), ("A2", "A1", "A3"), ("A1", "A4", "A4"),
             ("A5", "A5", "A5"), ("A2", "A3", "A1")]
    rng = np.random.default_rng(36)
    for trial in range(20):
        score = rng.integers(-2, 3, (len(plans), 4)).astype(float)  # small integers: many ties
        score[rng.random(score.shape) < 0.1] = [np.nan, np.inf, -np.inf][trial % 3]
        want = np.empty(score.shape, np.int64)
        for i, p in enumerate(plans):
            members = [k for k, q in enumerate(plans) if sorted(q) == sorted(p)]
            for f in range(score.shape[1]):
                column = score[members, f]
                best = members[int(np.argmax(column))]
                want[i, f] = i if score[i, f] >= np.max(column) else best
        grouped = np.zeros((len(plans), score.shape[1], 10))
        grouped[:, :, 9] = score  # the score column; no plan leaves
        with np.errstate(invalid="ignore"):
            assert np.array_equal(_reveal_rows(grouped, plans, 10.0), want)
            assert np.array_equal(_reveal_columns(score.T.copy(), plans), want.T)


def test_the_ranking_rounds_scores_exactly_as_python_round_9():
    """The ranking's rounding on whole arrays (issue 36) is Python's ``round(x, 9)`` to
    the bit, halves and their neighbours, huge and non-finite values included."""
    from furball.scenarios.dogfight.analysis import _round_9

    rng = np.random.default_rng(9)
    halves = (np.arange(-2000, 2000) + 0.5) / 1e9
    values = np.concatenate([rng.uniform(-40, 40, 20000), np.arange(-8000, 8000) / 2615.0, halves, halves + 7.0,
                             np.nextafter(halves, 1), np.nextafter(halves, -1),
                             [0.0, -0.0, 1e-12, -1e-12, 1e7 + 0.3, 3e15, -1e300, np.inf, -np.inf, np.nan]])
    want = np.array([round(x, 9) for x in values.tolist()])
    got = _round_9(values)
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(want))


def test_planning_opponent_beats_random_plans_over_many_seeded_duels():
    """Issue 12: over many seeded duels, the plane planned by the analysis gets more
    firing positions (short counts double) relative to the enemy's than a plane flying
    random legal plans from the same starts."""
    rng = np.random.default_rng(12)
    planned, random_ = [], []
    for duel in range(24):
        x, y = rng.uniform(300, 600, 2)
        a = plane("Camel", x, y, rng.uniform(0, 360), side="Allies").replace(deck=SIX)
        b = plane("Albatros", x + rng.uniform(-150, 150), y + rng.uniform(-150, 150), rng.uniform(0, 360),
                  side="Central").replace(deck=SIX)
        t = table(a, b)
        plans_a, plans_b = legal_plans(a, RULES), legal_plans(b, RULES)
        enemy = plans_b[int(rng.integers(len(plans_b)))]
        for mine, out in ((best_plan(t, "Camel").plan, planned), (plans_a[int(rng.integers(len(plans_a)))], random_)):
            r = adjudicate(t, {"Camel": mine, "Albatros": enemy}, seed=duel, samples=False)
            value = {"short": 2, "long": 1}
            out.append(sum(value[s.range] * (1 if s.shooter == "Camel" else -1) for s in r.shots))
    assert np.mean(planned) > np.mean(random_) + 1.0
    assert np.mean(planned) > 0


def _scenario(tmp_path, extra=""):
    deck = tmp_path / "six.toml"
    text = (pathlib.Path(maneuvers.__file__).parent / "data" / "decks" / "A.toml").read_text(encoding="utf-8")
    blocks = text.split("[[card]]")
    keep = [b for b in blocks[1:] if any(f'id = "{c}"\n' in b for c in ("A1", "A3", "A4", "A5", "A6", "A7"))]
    head = blocks[0].replace('name = "A"', 'name = "six"').replace(
        'autonomous = ["A1", "A2", "A3", "A13", "A4", "A6", "A5", "A7"]', "")
    deck.write_text(head + "".join("[[card]]" + b for b in keep), encoding="utf-8")
    scenario = tmp_path / "duel.toml"
    planes = "".join(f"""[[plane]]
name = "{name}"
side = "{side}"
deck = "six.toml"
pose = {{ x_mm = {x}, y_mm = {y}, heading_deg = {h} }}
altitude = 2
""" for name, side, x, y, h in (("Camel", "Allies", 250.0, 420.0, 0.0), ("Albatros", "Central Powers", 400.0, 440.0,
                                                                            10.0)))
    scenario.write_text(f"""[scenario]
name = "six-card duel"
turn = 1
[table]
width_mm = 900.0
height_mm = 900.0
{planes}{extra}""", encoding="utf-8")
    return scenario


def test_cli_analyze_the_shipped_duel_prints_a_ranked_table(cli):
    code, out, err = cli(["analyze", "duel", "--plane", "Camel"])
    assert code == 0
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("rank"))
    ranks = [int(line.split()[0]) for line in lines[header + 1:header + 11]]
    assert ranks == list(range(1, 11))
    assert "Camel tails Albatros" in out and "as flown" in out


def test_cli_analyze_json_plot_and_weights(cli, tmp_path):
    scenario = _scenario(tmp_path)
    weights = tmp_path / "weights.toml"
    weights.write_text('[[plan]]\nplane = "Albatros"\ncards = ["A6", "A6", "A6"]\nweight = 1.0\n', encoding="utf-8")
    plot = tmp_path / "analysis.png"
    code, out, err = cli(["analyze", scenario, "--plane", "Camel", "--vs", "Albatros", "--json", "--top", "3",
                          "--enemy-weights", weights, "--plot", plot, "--reveal"])
    assert code == 0, err
    doc = json.loads(out)
    assert [row["rank"] for row in doc["top"]] == [1, 2, 3] and doc["reveal"] is True
    assert doc["enemies"][0]["name"] == "Albatros" and plot.stat().st_size > 10_000
    loaded = load_enemy_weights(weights, _small_table())
    assert loaded == {"Albatros": {("A6", "A6", "A6"): 1.0}}


@pytest.mark.parametrize("content,words", [
    ('[[plan]]\nplane = "Albatros"\ncards = ["A6", "A6", "A12"]\nweight = 1.0\n', "a legal plan of"),
    ('[[plan]]\nplane = "Nobody"\ncards = ["A6", "A6", "A6"]\nweight = 1.0\n', "field 'plane'"),
    ('[[plan]]\nplane = "Albatros"\ncards = ["A6", "A6"]\nweight = 1.0\n', "field 'cards'"),
    ('[[plan]]\nplane = "Albatros"\ncards = ["A6", "A6", "A6"]\nweight = -1.0\n', "field 'weight'"),
    ('[[plan]]\nplane = "Albatros"\ncards = ["A6", "A6", "A6"]\nweight = 1.0\ncolour = "red"\n', "colour"),
    ('[[plan]]\nplane = "Albatros"\ncards = ["A6", "A6", "A6"]\nweight = 0.0\n', "positive weight for at least one plan"),
])
def test_bad_enemy_weights_give_one_line_and_exit_2(cli, tmp_path, content, words):
    scenario = _scenario(tmp_path)
    weights = tmp_path / "weights.toml"
    weights.write_text(content, encoding="utf-8")
    code, out, err = cli(["analyze", scenario, "--plane", "Camel", "--enemy-weights", weights])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and words in err


def test_cli_turn_auto_flies_the_plan_the_analysis_ranks_first(cli, tmp_path):
    scenario = _scenario(tmp_path, 'plan = ["A1", "A1", "A1"]\n')
    code, out, err = cli(["turn", scenario, "--auto", "Camel", "--json", "--seed", "3"])
    assert code == 0, err
    doc = json.loads(out)
    from furball.scenarios.dogfight import load_scenario

    sc = load_scenario(scenario)
    assert doc["auto"] == {"Camel": list(analyze(sc.table, "Camel", orders=sc.orders).best())}
    assert [m["moves"][0]["card"] for m in doc["maneuvers"] if m["moves"][0]["plane"] == "Camel"] == doc["auto"]["Camel"]
    code, out, err = cli(["turn", scenario, "--auto", "Camel,Albatros"])
    assert code == 0 and "planned by the analysis" in out


@pytest.mark.cluster
def test_the_plan_pairs_spread_over_a_dask_cluster_give_the_same_report():
    """Issue #13: `furball analyze` splits its plan pairs into chunks Dask can run anywhere;
    gathered in order, the report on a local cluster of two worker processes is the one
    made in one process, every plan and number (each run in a clean interpreter of its
    own, as tests/test_sweep_cluster.py explains)."""
    pytest.importorskip("distributed")
    from cluster_child import child

    argv = ["furball", "analyze", "duel", "--plane", "Camel", "--json", "--top", "10000"]
    here, spread = child(argv), child(argv + ["--workers", "2"])
    assert here.returncode == 0 and spread.returncode == 0, here.stderr + spread.stderr
    here, spread = json.loads(here.stdout), json.loads(spread.stdout)
    assert here.pop("seconds") >= 0 and spread.pop("seconds") >= 0
    assert here == spread and here["plans"] == len(here["top"]) > 100


def test_pair_scores_are_the_matrix_whose_weighted_rows_are_the_ranked_scores(monkeypatch):
    """The plan-pair score table for equilibria: both sides' plans as arrays, the plane's
    score of every pair (its expectation over the enemy's plans is the score the ranking
    uses) and the enemy's own score of the same pair (the same formula from its side:
    swapping the planes swaps the matrices, transposed). Too many pairs: one line."""
    from furball.errors import InputError
    from furball.scenarios.dogfight import analysis

    t = _small_table()
    ps = analysis.pair_scores(t, "Camel", "Albatros")
    report = analyze(t, "Camel", vs=["Albatros"])
    assert ps.plans.shape == (len(report.plans), 3) and [tuple(p) for p in ps.plans] == list(report.plans)
    assert ps.mine.shape == ps.theirs.shape == (len(ps.plans), len(ps.enemy_plans))
    assert np.allclose(ps.mine @ ps.enemy_weights, report.score)
    back = analysis.pair_scores(t, "Albatros", "Camel")
    assert np.allclose(back.mine, ps.theirs.T) and np.allclose(back.theirs, ps.mine.T)
    monkeypatch.setattr(analysis, "MAX_PAIR_SCORES", 100)
    with pytest.raises(InputError, match="plan pairs; expected at most 100"):
        analysis.pair_scores(t, "Camel", "Albatros")


def test_huge_enemy_weights_rank_as_their_ratios_do():
    """Issue #26 item 6: two weights of 1e308 overflowed their sum and scored every plan
    0; weights are scaled by their largest first, so only their ratios count."""
    import warnings

    from furball.scenarios.dogfight import load_scenario
    from furball.scenarios.dogfight.analysis import legal_plans

    s = load_scenario("duel")
    plans = legal_plans(s.table.plane("Albatros"), s.table.rules)[:2]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy overflow warning either
        huge = analyze(s.table, "Camel", vs=["Albatros"], enemy_weights={"Albatros": {p: 1e308 for p in plans}})
    small = analyze(s.table, "Camel", vs=["Albatros"], enemy_weights={"Albatros": {p: 1.0 for p in plans}})
    assert list(huge.ranking) == list(small.ranking) and np.array_equal(huge.score, small.score)
    assert np.any(huge.score != 0)

