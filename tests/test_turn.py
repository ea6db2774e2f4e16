"""One turn end to end through the Python API (DF.M1, DF.T2, DF.T4, DF.E1, DF.O1, DF.A1,
DF.B2, DF.C1, DF.H3), and saved states."""
import dataclasses
import math
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from planes import DECKS, plane, table

from furball.errors import InputError
from furball.maneuvers.plan import PlanError
from furball.maneuvers.tailing import tail_check
from furball.scenarios.dogfight import Orders, Scenario, adjudicate, load_scenario, parse_scenario, scenario_toml


def outcome(result):
    """What a turn decided, independent of list order: every plane's final state and the
    sets of shots, collisions, reveals and tail checks per maneuver."""
    final = {p.name: p for p in result.after.planes}
    per = [(frozenset((s.shooter, s.target, s.range, s.arc) for s in m.shots),
            frozenset((c.a, c.b, c.probability, c.drawn, c.collided) for c in m.collisions),
            frozenset((v.chaser, v.target, v.shown, v.after) for v in m.reveals),
            frozenset((c.chaser, c.target, c.ok) for c in m.tail_checks),
            frozenset(m.left_table), frozenset(frozenset(o) for o in m.overlaps),
            frozenset((s.shooter, s.target, s.arc) for s in m.autonomous_fire)) for m in result.maneuvers]
    return final, per


def test_DF_M1_everyone_moves_at_once_so_table_order_does_not_matter():
    """DF.M1: all planes reveal and move simultaneously."""
    a, b = plane("A", 300, 300), plane("B", 420, 320, 10)
    orders = {"A": ["A1", "A4", "A2"], "B": ["A6", "A2", "A5"]}
    assert outcome(adjudicate(table(a, b), orders, seed=1)) == outcome(adjudicate(table(b, a), orders, seed=1))


def test_DF_E1_stand_exactly_on_the_table_edge_stays_and_off_it_leaves():
    """DF.E1: judged at the stand (the base centre) at the end of a maneuver."""
    # A2 moves the centre by 22 + 60 + 22 = 104 mm: 796 + 104 = 900 exactly on the edge
    r = adjudicate(table(plane("Edge", 796, 300), plane("Off", 797, 600)),
                   {"Edge": ["A14", "A14", "A2"], "Off": ["A2", "A2", "A2"]}, seed=1)
    assert r.maneuvers[0].left_table == ("Off",)
    final = {p.name: p for p in r.after.planes}
    assert final["Edge"].pose.x_mm == 900.0 and final["Edge"].status == "flying"
    assert final["Off"].status == "out"
    assert [m.plane for m in r.maneuvers[1].moves] == ["Edge"]  # out planes no longer move


def test_DF_O1_overlap_is_legal_and_reported_each_maneuver():
    r = adjudicate(table(plane("A", 300, 300), plane("B", 300, 340)), {"A": ["A2"] * 3, "B": ["A2"] * 3}, seed=3)
    assert all(m.overlaps == (("A", "B"),) for m in r.maneuvers)
    assert all(len(m.collisions) == 1 for m in r.maneuvers)


def test_DF_A1_autonomous_planes_draw_each_maneuver_from_their_8_cards():
    """DF.A1: an independent uniform draw from 3 straights, 1 stall, 2 left, 2 right."""
    auto = table(plane("Gotha", 450, 450, autonomous=True))
    draws = [m.moves[0].card for seed in range(60) for m in adjudicate(auto, seed=seed, samples=False).maneuvers]
    pool = DECKS["A"].autonomous
    assert set(draws) == set(pool) and len(pool) == 8
    kinds = [DECKS["A"].card(c).flags for c in pool]
    assert sum("straight" in f for f in kinds) == 3 and sum("stall" in f for f in kinds) == 1
    assert sum("left" in f for f in kinds) == 2 and sum("right" in f for f in kinds) == 2
    again = [m.moves[0].card for seed in range(60) for m in adjudicate(auto, seed=seed, samples=False).maneuvers]
    assert again == draws  # same seeds, same draws


DUEL = (plane("Camel", 250, 420, side="Allies"), plane("Albatros", 400, 440, 10, side="Central"))
DUEL_ORDERS = {"Camel": ["A1", "A3", "A4"], "Albatros": ["A4", "A6", "A14"]}


def test_DF_T2_target_reveals_and_the_best_policy_reorders():
    """DF.T2: the target shows its next card; the chaser may reorder its remaining cards."""
    keep = adjudicate(table(*DUEL), DUEL_ORDERS, policy="keep", seed=1)
    first = keep.maneuvers[0].reveals[0]
    assert (first.chaser, first.target, first.shown, first.before, first.after) == \
        ("Camel", "Albatros", "A4", ("A1", "A3", "A4"), ("A1", "A3", "A4"))
    best = adjudicate(table(*DUEL), DUEL_ORDERS, policy="best", seed=1)
    assert best.maneuvers[0].reveals[0].after == ("A4", "A1", "A3")  # bank with the target
    flown = [mv.card for m in best.maneuvers for mv in m.moves if mv.plane == "Camel"]
    assert sorted(flown) == ["A1", "A3", "A4"]

    def firing_positions(result):
        return sum(any(s.shooter == "Camel" for s in m.shots) for m in result.maneuvers)
    assert (firing_positions(keep), firing_positions(best)) == (1, 2)


def test_DF_T2_only_the_first_and_second_cards_are_revealed():
    """DF.T2: the second card is shown if the tail holds after the first maneuver; the
    third is never shown."""
    tailing = table(plane("Camel", 250, 420, side="Allies"), plane("Albatros", 400, 420, side="Central"))
    r = adjudicate(tailing, {"Camel": ["A2", "A2", "A2"], "Albatros": ["A2", "A2", "A2"]}, seed=1)
    assert all(c.ok for m in r.maneuvers for c in m.tail_checks)  # the tail holds all turn
    assert [len(m.reveals) for m in r.maneuvers] == [1, 1, 0]


def _chain():
    """C tails A, A tails B: B (Allies) ahead, A (Central) behind it, C (Allies) behind A."""
    return (plane("B", 400, 300, side="Allies"), plane("A", 250, 300, side="Central"),
            plane("C", 100, 300, side="Allies"))


def test_DF_T2_a_shown_card_is_the_card_flown_in_a_chain_of_tails():
    """DF.T2: reveals run targets first: B shows, A may reorder, then A shows its
    (possibly reordered) card to C, and that is the card A flies."""
    orders = {"B": ["A4", "A2", "A2"], "A": ["A2", "A3", "A4"], "C": ["A2", "A2", "A2"]}
    r = adjudicate(table(*_chain()), orders, seed=2, policy="best")
    assert {c.chaser: c.target for c in r.tails} == {"A": "B", "C": "A"}
    first = r.maneuvers[0]
    assert [v.chaser for v in first.reveals] == ["A", "C"]
    a_flies = next(mv.card for mv in first.moves if mv.plane == "A")
    shown_to_c = next(v.shown for v in first.reveals if v.chaser == "C")
    assert shown_to_c == a_flies == first.reveals[0].after[0]
    assert first.reveals[0].after != first.reveals[0].before  # A did reorder (to bank with B)


@settings(max_examples=6, deadline=None)
@given(st.permutations(range(3)), st.sampled_from(["keep", "best"]), st.integers(0, 50))
def test_DF_T2_the_outcome_does_not_depend_on_the_order_of_planes_in_the_table(order, policy, seed):
    planes = _chain() + (plane("Gotha", 450, 600, deck="M", base="large", engines="multi", autonomous=True,
                               side="Central"),)
    orders = {"B": ["A4", "A2", "A2"], "A": ["A2", "A3", "A4"], "C": ["A2", "A2", "A2"]}
    shuffled = tuple(planes[i] for i in order) + planes[3:]
    reference = outcome(adjudicate(table(*planes), orders, seed=seed, policy=policy, samples=False))
    assert outcome(adjudicate(table(*shuffled), orders, seed=seed, policy=policy, samples=False)) == reference
    assert outcome(adjudicate(table(*reversed(shuffled)), orders, seed=seed, policy=policy,
                              samples=False)) == reference


def test_DF_T2_in_a_cycle_of_tails_each_shows_its_planned_card_which_is_fixed():
    """DF.T2 engine convention: four planes on a circle, each tailing the next (radius
    100 mm: chords of 141 mm leave and enter 45 degrees off the headings)."""
    planes, orders = [], {}
    for i, name in enumerate("PQRS"):
        angle = math.radians(90 * i)
        planes.append(plane(name, 450 + 100 * math.cos(angle), 450 + 100 * math.sin(angle),
                            heading=90 * i + 90, side="Allies" if i % 2 else "Central"))
        orders[name] = ["A4", "A2", "A3"]
    r = adjudicate(table(*planes), orders, seed=1, policy="best")
    assert sorted((c.chaser, c.target) for c in r.tails) == [("P", "Q"), ("Q", "R"), ("R", "S"), ("S", "P")]
    first = r.maneuvers[0].reveals
    assert len(first) == 4 and all(v.fixed for v in first)
    assert all(v.shown == "A4" for v in first)  # each shows its planned first card
    assert all(len(v.before) == 2 for v in first)  # only the two cards after it may move
    assert all(mv.card == "A4" for mv in r.maneuvers[0].moves)


def test_DF_T4_a_lost_tail_is_never_regained_within_the_turn():
    """DF.T3/DF.T4: tails are set at the start; once lost, no more reveals, even when
    the geometry would allow tailing again."""
    chaser, target = plane("Camel", 250, 420, side="Allies"), plane("Albatros", 440, 420, side="Central")
    r = adjudicate(table(chaser, target), {"Camel": ["A3", "A1", "A3"], "Albatros": ["A1", "A13", "A2"]}, seed=1)
    assert [len(m.tail_checks) for m in r.maneuvers] == [1, 0, 0]
    assert "DF.T1a" in r.maneuvers[0].tail_checks[0].rules  # ran out of reach
    assert all(not m.reveals for m in r.maneuvers[1:])
    after_second = {p.name: p for p in r.maneuvers[1].planes}
    again = tail_check(after_second["Camel"], after_second["Albatros"], list(after_second.values()), r.before.rules)
    assert again.ok  # the stall let the Camel catch up, but the tail stays lost


def test_DF_T3_an_unmeetable_tail_wish_means_tailing_nobody_and_is_reported():
    """DF.T3 engine convention: the player's pick is not replaced by another target."""
    camel = plane("Camel", 0 + 250, 420, side="Allies")
    near, far = plane("Near", 370, 460, side="Central"), plane("Far", 410, 360, side="Central", altitude=3)
    orders = {"Camel": Orders(plan=("A2",) * 3, tail="Far"), "Near": ["A2"] * 3, "Far": ["A2"] * 3}
    r = adjudicate(table(camel, near, far), orders, seed=1)
    assert r.tails == () and [c.target for c in r.unmet_wishes] == ["Far"]
    assert "DF.T6" in r.unmet_wishes[0].rules
    with pytest.raises(InputError, match=r"plane 'Camel': field 'tail': expected the name of an enemy plane"):
        adjudicate(table(camel, near, far.replace(side="Allies")),
                   {**orders, "Camel": Orders(plan=("A2",) * 3, tail="Far")})


def test_DF_T1d_and_DF_C1_a_landed_plane_is_still_on_the_table():
    """Issue #8's case: chaser (100,400) alt 0, 1 counter; landed plane at (200,400); enemy
    at (280,400) alt 0: no tail through the landed base; a low flyer over it is tested."""
    chaser = plane("Chaser", 100, 400, altitude=0, climb_counters=1, side="Allies")
    landed = plane("Landed", 200, 400, altitude=0, status="landed", side="Central")
    enemy = plane("Enemy", 280, 400, altitude=0, climb_counters=1, side="Central")
    r = adjudicate(table(chaser, landed, enemy), {"Chaser": ["A14", "A14", "A14"], "Enemy": ["A2"] * 3}, seed=1)
    assert r.tails == ()
    over = plane("Over", 200, 420, altitude=0, climb_counters=1, side="Allies")
    r = adjudicate(table(over, landed), {"Over": ["A14", "A14", "A14"]}, seed=1)
    assert [(c.a, c.b) for c in r.maneuvers[0].collisions] == [("Landed", "Over")]
    assert [m.plane for m in r.maneuvers[0].moves] == ["Over"]  # the landed plane does not move


def test_DF_B2_a_drop_mid_turn_frees_the_cards_after_it():
    """DF.B2: bombs 2/2, plan A2, A2, A12 (Immelmann third), drops [1, 0, 0]: legal."""
    bomber = plane("Breguet", 300, 300, bombs_at_start=2, bombs=2, last_card="A2")
    r = adjudicate(table(bomber), {"Breguet": Orders(plan=("A2", "A2", "A12"), drops=(1, 0, 0))}, seed=1)
    assert [mv.card for m in r.maneuvers for mv in m.moves] == ["A2", "A2", "A12"]
    assert r.after.plane("Breguet").bombs == 1


def test_illegal_plan_names_plane_card_and_rule():
    with pytest.raises(PlanError, match=r"plane 'Camel': card 'A9' \(2nd maneuver\): two steep.*DF.M5") as failed:
        adjudicate(table(plane("Camel", 300, 300)), {"Camel": ["A8", "A9", "A1"]}, seed=1)
    assert failed.value.rule == "DF.M5"
    with pytest.raises(InputError, match=r"plane 'Camel': field 'plan': expected 3 card ids"):
        adjudicate(table(plane("Camel", 300, 300)), {}, seed=1)
    with pytest.raises(InputError, match=r"no plane 'Ghost'"):
        adjudicate(table(plane("Camel", 300, 300)), {"Camel": ["A1"] * 3, "Ghost": ["A1"] * 3})


def test_tables_refuse_what_cannot_be_a_table():
    """Issue #14: a start pose far outside the table, an absurd size, a name with a newline."""
    with pytest.raises(InputError, match=r"plane 'Camel': field 'pose': expected the stand on the 900 x 900"):
        table(plane("Camel", 5000, 300))
    with pytest.raises(InputError, match=r"table: field 'width_mm': expected 10 to"):
        table(plane("Camel", 0, 0), width=1e-300)
    with pytest.raises(InputError, match="control characters"):
        plane("Camel\nMark", 0, 0)


# -- saved states -------------------------------------------------------------------------
names = st.sampled_from(["Camel", "SPAD", "Fokker", "Gotha", "Pup"])


@st.composite
def tables(draw):
    chosen = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    planes = []
    for n in chosen:
        status = draw(st.sampled_from(["flying", "landed", "out"]))
        alt = 0 if status == "landed" else draw(st.integers(1, 3))
        planes.append(plane(n, draw(st.floats(0, 900)), draw(st.floats(0, 900)), draw(st.floats(0, 359.999)),
                            altitude=alt, climb_counters=draw(st.integers(0, 2)), bombs_at_start=4,
                            bombs=draw(st.integers(0, 4)), status=status,
                            damage=tuple(draw(st.lists(st.sampled_from(["A", "B", "C"]), max_size=3)))))
    first = 2 if any(p.landed for p in planes) else 1  # DF.H2: turn 1 starts in the air
    return table(*planes, turn=draw(st.integers(first, 50)))


@given(tables(), st.booleans())
def test_state_to_file_to_state_is_lossless(tmp_path_factory, t, with_plans):
    folder = tmp_path_factory.mktemp("rt")
    orders = {p.name: Orders(plan=("A1", "A4", "A2")) for p in t.planes if p.flying} if with_plans else {}
    s = Scenario(t, orders, "best", 5)
    again = parse_scenario(tomllib.loads(scenario_toml(s, folder)), str(folder / "a.toml"), folder)
    assert again.table == s.table and again.policy == s.policy and again.seed == 5
    assert {n: o for n, o in again.orders.items() if o != Orders()} == orders


@settings(max_examples=25, deadline=None)
@given(tables(), st.integers(0, 10**6))
def test_DF_B2_every_state_after_a_turn_saves_and_loads_back(tmp_path_factory, t, seed):
    """Issue #8: every state the engine writes loads back (e.g. unloading at altitude 0)."""
    orders = {p.name: Orders(plan=("A2", "A15", "A2"), drops=(p.bombs, 0, 0) if p.bombs_at_start else None)
              for p in t.planes if p.flying}
    try:
        after = adjudicate(t, orders, seed=seed, samples=False).after
    except PlanError:
        return  # e.g. drops of a plane with no bombs aboard: nothing to save
    folder = tmp_path_factory.mktemp("saved")
    path = folder / "state.toml"
    path.write_text(scenario_toml(Scenario(after), folder), encoding="utf-8")
    assert load_scenario(path).table == after


@pytest.mark.parametrize("example", ["furball", "duel", "bomber"])
def test_every_shipped_example_runs_and_its_saved_state_reloads(tmp_path, example):
    s = load_scenario(example)
    after = adjudicate(s.table, s.orders, seed=s.seed, policy=s.policy, samples=False).after
    out = tmp_path / "deep" / "state.toml"
    out.parent.mkdir()
    out.write_text(scenario_toml(Scenario(after, {}, s.policy, s.seed), out.parent), encoding="utf-8")
    reloaded = load_scenario(out)
    assert reloaded.table == after and reloaded.table.turn == s.table.turn + 1
    assert all(o == Orders() for o in reloaded.orders.values())
    assert dataclasses.replace(reloaded, source="") == Scenario(after, reloaded.orders, s.policy, s.seed)


def test_names_may_hold_emoji_sequences_but_not_direction_overrides():
    """Issue #26 item 9: a pilot emoji joined by U+200D (a format character) is a fine
    name; a right-to-left override, which makes a name read as another, is not."""
    from furball.errors import InputError
    from furball.maneuvers.plane import check_name

    for name in ("Ace \U0001F9D1\u200d\u2708\ufe0f", "\U0001F3F4\U000E0067\U000E0062\U000E0077\U000E006C"
                 "\U000E0073\U000E007F Wales"):
        assert check_name(name, "plane") == name
    for name in ("Ace\u202egnirts", "a\u2066b", "tab\there"):
        with pytest.raises(InputError, match="direction overrides"):
            check_name(name, "plane")


def test_adjudicate_reads_as_the_numbered_steps_of_the_module_docstring():
    """Issue #19 item 7: each numbered step of the order of play is one function, whose
    docstring says which step it is, and ``adjudicate`` calls them in that order."""
    import inspect
    import re

    from furball.scenarios.dogfight import turn

    steps = re.findall(r"^(\d+)\. :func:`(\w+)`", turn.__doc__, re.M)
    assert [int(n) for n, _ in steps] == list(range(1, 11))
    body = inspect.getsource(turn.adjudicate)
    positions = []
    for n, name in steps:
        assert getattr(turn, name).__doc__.startswith(f"Step {n} ")
        positions.append(body.index(f"{name}(work"))
    assert positions == sorted(positions)
