"""1942 USS Yorktown: the rules-fidelity fixes of issue #20 (items 1-4), one golden test
or more per item, named after the rule: the continuous roll judged after it (YT.D2,
YT.A5, YT.A7, YT.A9, with the audit's scenarios), the bomb jettisoned at any moment of
the plane's turn (YT.A4), a clock that matters (YT.S4, YT.E2), and bots that use the
expansions."""
import math

import pytest
from yorktown_helpers import APPROACH, RUNWAY, acting, decide, japanese, node, of_kind, position, script, started

from furball.scenarios.engine import play_game, play_many
from furball.scenarios.yorktown import YORKTOWN, new_game
from furball.scenarios.yorktown.actions import (
    Card,
    EndReason,
    Expansion,
    Kind,
    Load,
    Maneuver,
    MoveKind,
    Phase,
    PlaneType,
    Scope,
    Target,
    Weather,
)
from furball.scenarios.yorktown.crews import attack_dice, landing_dice
from furball.scenarios.yorktown.players import HeuristicPlayer
from furball.scenarios.yorktown.tables import check_expansions


# -- item 1: a roll is a continuous throw, judged after it (YT.D2) -------------------------
def test_YT_A5_D2_audit_a_landing_thrown_1_1_1_5_6_then_5_crashes_with_the_pilot_unhurt(monkeypatch):
    """YT.A5, YT.D2. The audit's landing: five dice show 1 1 1 5 6 (three 1s locked, free
    when landing), the 6 is thrown again and shows 5: a pair, no third die to make three
    equal — the player stops: a crash with the pilot unhurt, skill kept."""
    s = acting(started(9), 0, Card.LAND_TAKE_OFF, loc=(APPROACH, node(1), RUNWAY, RUNWAY), fuel=(2, 9, 13, 13),
               skill=(2, 0, 0, 0))
    assert landing_dice(s, 0) == 3 + 2
    script(monkeypatch, [1, 1, 1, 5, 6, 5])
    t = s.apply(of_kind(s, Kind.LAND)[0])
    assert t.phase == Phase.ROLL and t.roll.faces == (5, 6) and t.roll.ones == 3 and t.fuel[0] == 2
    assert "throw 1: throws 5 dice: 1 1 1 5 6 -> showing 5 6; 3 one(s) locked (no fuel: a landing)" in "\n".join(t.events)
    t = decide(t, (5,))
    assert t.roll.faces == (5, 5)
    stop = of_kind(t, Kind.STOP)[0]
    assert t.describe(stop) == "stop with 5 5: a crash, pilot unhurt"
    u = t.apply(stop)
    assert u.side_b[0] and u.loc[0] == RUNWAY and u.fuel[0] == 14 and u.skill[0] == 2 and u.crashes == 1
    assert "keeps 5, throws 1: 5 -> showing 5 5" in "\n".join(t.events)
    assert "the pilot is unhurt" in "\n".join(u.events)


def test_YT_A9_D2_audit_an_emergency_landing_with_two_dice_4_4_leaves_the_pilot_unhurt(monkeypatch):
    """YT.A9, YT.A5. Two dice (3 skill dice, 1 fewer for the bomb) are thrown — a roll is
    never skipped for having fewer dice than a safe landing needs — and 4 4 is a pair."""
    s = acting(started(14), 0, Card.MOVE, loc=(node(9), APPROACH, RUNWAY, RUNWAY), fuel=(1, 14, 13, 13),
               skill=(2, 0, 0, 0), load=(Load.BOMB, None, None, None), jp=japanese())
    t = s.apply(of_kind(s, Kind.MOVE, via=MoveKind.RETURN)[0])
    assert t.fuel[0] == 0 and landing_dice(t, 0, emergency=True) == 2
    script(monkeypatch, [4, 4])
    u = t.apply(of_kind(t, Kind.EMERGENCY_LANDING)[0])
    assert u.roll.throws == 1 and u.roll.faces == (4, 4) and u.throws == t.throws + 1
    v = decide(u, "stop")
    assert v.side_b[0] and v.skill[0] == 2 and v.loc[0] == RUNWAY and "the pilot is unhurt" in "\n".join(v.events)


def test_YT_A7_D2_audit_four_dice_3_3_5_6_against_a_jake_and_a_kate_shoot_the_kate(monkeypatch):
    """YT.A7. The results are judged after the roll: 3 3 is a pair, the Kate's need."""
    s = acting(started(11), 0, Card.ATTACK, loc=(node(4), APPROACH, RUNWAY, RUNWAY), jp=japanese(i4=["Jake", "Kate"]),
               fuel=(9, 14, 13, 13))
    attack = of_kind(s, Kind.ATTACK, scope=Scope.PLANES)[0]
    assert attack_dice(s, 0, Scope.PLANES) == 4
    script(monkeypatch, [3, 3, 5, 6])
    t = s.apply(attack)
    assert t.describe(of_kind(t, Kind.STOP)[0]) == "stop with 3 3 5 6: shoot down a Kate"
    u = decide(t, "stop")
    assert u.japanese[3] == (PlaneType.JAKE,) and u.shot_down == 1 and "the Kate on 4 Trobriand is shot down (3 3)" \
        in "\n".join(u.events)


def test_YT_A7_D2_several_kills_in_one_roll(monkeypatch):
    """YT.A7: "asignar los resultados como quieras para hacer múltiples derribos"."""
    s = acting(started(11), 0, Card.ATTACK, loc=(node(4), APPROACH, RUNWAY, RUNWAY), jp=japanese(i4=["Jake", "Kate"]),
               skill=(3, 0, 0, 0))
    script(monkeypatch, [3, 3, 3, 6, 6])
    t = s.apply(of_kind(s, Kind.ATTACK, scope=Scope.PLANES)[0])  # every target served: the roll stops by itself
    assert t.japanese[3] == () and t.shot_down == 2 and t.roll is None


def test_YT_A7_D2_the_results_go_where_the_player_says(monkeypatch):
    """YT.A7: 3 3 3 with 6 6 against a Jake, a Kate and the Shōhō: the player chooses among
    the outcomes no other beats (Jake and Kate; Jake and a hit; Kate and two hits)."""
    s = acting(started(12), 0, Card.ATTACK, loc=(node(3), APPROACH, RUNWAY, RUNWAY), search=4,
               load=(Load.BOMB, None, None, None), jp=japanese(i3=["Jake", "Kate"]), cap=0, skill=(6, 0, 0, 0))
    script(monkeypatch, [3, 3, 3, 6, 6, 2])
    t = decide(s.apply(of_kind(s, Kind.ATTACK, scope=Scope.SHOHO)[0]), "stop")
    assert t.phase == Phase.ASSIGN
    texts = [t.describe(a) for a in t.legal_actions()]
    assert "shoot down a Kate (6 6) and the Shōhō: 2 hits (3 3 3)" in texts
    assert "shoot down a Jake (3 3 3) and shoot down a Kate (6 6)" in texts
    u = t.apply(next(a for a in t.legal_actions() if a.targets == (Target.KATE, Target.SHOHO)))
    assert u.shoho == 2 and u.japanese[2] == (PlaneType.JAKE,) and u.phase != Phase.ASSIGN


@pytest.mark.parametrize("faces, levels", [([4, 4, 2, 3, 6], 1), ([2, 3, 5, 6, 1], 0)])
def test_YT_A1_D2_a_search_stopped_with_a_pair_counts_plus_one(monkeypatch, faces, levels):
    """YT.A1: a lesser result still counts: a pair when stopping is +1 level."""
    s = acting(started(7), 0, Card.SEARCH, loc=(node(3), node(5), RUNWAY, RUNWAY), fuel=(9, 9, 13, 13))
    script(monkeypatch, faces)
    t = decide(s.apply(of_kind(s, Kind.SEARCH)[0]), "stop")
    assert t.search == levels and t.skill[0] == levels


def test_YT_A7_D2_one_or_two_hits_on_the_shoho_count(monkeypatch):
    """YT.A7: a pair is one hit, three equal two, when the roll stops short of a perfect hit."""
    s = acting(started(12), 0, Card.ATTACK, loc=(node(3), APPROACH, RUNWAY, RUNWAY), search=4,
               load=(Load.BOMB, None, None, None), jp=japanese(), cap=0)
    for faces, hits in (([5, 5, 2, 3], 1), ([5, 5, 5, 3], 2)):
        script(monkeypatch, faces)
        t = decide(s.apply(of_kind(s, Kind.ATTACK, scope=Scope.SHOHO)[0]), "stop")
        assert t.shoho == hits and t.over is None


def test_YT_D2_people_choose_when_to_stop_and_what_to_keep(monkeypatch):
    """YT.D2: "puedes repetir tantas veces como quieras, apartando dados o volviendo a
    tirar dados apartados": stop, or keep any faces and throw the other dice, in words."""
    s = acting(started(7), 0, Card.SEARCH, loc=(node(3), node(5), RUNWAY, RUNWAY), fuel=(9, 9, 13, 13))
    script(monkeypatch, [2, 2, 5, 6, 6, 4, 4, 4, 2])
    t = s.apply(of_kind(s, Kind.SEARCH)[0])
    texts = [t.describe(a) for a in t.legal_actions()]
    assert texts[0] == "stop with 2 2 5 6 6: +1 search level(s)"
    assert "keep 2 2 6 6, throw the other die again" in texts and "throw all 5 dice again" in texts
    assert len(texts) == 1 + 2 ** 3 - 1  # stop, and every choice of the 3 faces to keep but all of them
    t = decide(t, (5,))  # the pairs are thrown again: keep only the 5
    assert "throw 2: keeps 5, throws 4: 4 4 4 2 -> showing 2 4 4 4 5" in "\n".join(t.events)
    assert t.search == 2 and t.roll is None  # three equal: nothing better to throw for, the roll stops
    assert not of_kind(t, Kind.JETTISON)  # never during a roll (YT.A4)


def test_YT_D2_the_log_shows_every_die_thrown_and_kept(monkeypatch):
    s = acting(started(11), 0, Card.ATTACK, loc=(node(4), APPROACH, RUNWAY, RUNWAY), jp=japanese(i4=["Jake"]),
               fuel=(9, 14, 13, 13), skill=(3, 0, 0, 0))
    script(monkeypatch, [3, 3, 5, 2, 6, 1, 4, 5, 3, 6])
    t = s.apply(of_kind(s, Kind.ATTACK)[0])
    u = decide(t, (3,))
    v = decide(u, (3,))
    log = "\n".join(t.events + u.events + v.events)
    for line in ("throw 1: throws 5 dice: 3 3 5 2 6 -> showing 2 3 3 5 6",
                 "throw 2: keeps 3 3, throws 3: 1 4 5 -> showing 3 3 4 5; 1 one(s) locked",
                 "pays 1 fuel for the 1s", "throw 3: keeps 3 3, throws 2: 3 6 -> showing 3 3 3 6",
                 "the Jake on 4 Trobriand is shot down (3 3 3)"):
        assert line in log, line


def test_YT_D2_no_fuel_or_bomb_is_spent_on_a_roll_that_is_never_thrown():
    """The first throw comes with the action: every roll begun is thrown (the audit found
    an emergency landing with 0 throws, its fuel and bomb spent)."""
    for seed in range(12):
        record = play_game(YORKTOWN, seed, "random", {"players": 2, "expansions": check_expansions("expert,tank")})
        lines = [line for _, _, events in record.steps for line in events]
        for i, line in enumerate(lines):
            if " rolls " in line and " dice for its " in line:
                assert lines[i + 1].startswith("  throw 1: throws ") or record.final.over == EndReason.TIME, \
                    (seed, line)


def test_YT_D2_the_heuristic_throws_again_while_it_pays_and_stops_when_it_cannot_do_better(monkeypatch):
    s = acting(started(9), 0, Card.LAND_TAKE_OFF, loc=(APPROACH, node(1), RUNWAY, RUNWAY), fuel=(2, 9, 13, 13))
    bot = HeuristicPlayer()
    script(monkeypatch, [5, 5, 2, 6, 3, 1, 1, 1, 1, 1])
    t = s.apply(of_kind(s, Kind.LAND)[0])
    a = bot.choose(t)
    assert a.kind == Kind.THROW and a.keep == (5,)  # the 1s are free when landing: try for the third 5
    t = t.apply(a)
    assert t.roll.faces == (5, 5) and bot.choose(t).kind == Kind.STOP  # two dice left: the pair is the best


# -- item 2: the bomb may be jettisoned at any moment of the plane's turn (YT.A4) ---------
def test_YT_A4_jettison_after_a_move_before_the_lightning_attack():
    """YT.A4: "en cualquier momento de tu turno, excepto cuando estés tirando los dados":
    after moving, before a Lightning Attack, so that the attack has its die back."""
    s = acting(started(14), 0, Card.MOVE, loc=(node(9), APPROACH, RUNWAY, RUNWAY), jp=japanese(i10=["Kate"]),
               load=(Load.BOMB, None, None, None))
    t = s.apply(of_kind(s, Kind.MOVE, to=node(10))[0])
    assert t.phase == Phase.AFTER_MOVE and of_kind(t, Kind.JETTISON)
    assert "roll 2 dice" in t.describe(of_kind(t, Kind.LIGHTNING)[0])
    u = t.apply(of_kind(t, Kind.JETTISON)[0])
    assert u.load[0] is None and u.phase == Phase.AFTER_MOVE and u.bombs_left() == t.bombs_left() + 1
    assert "roll 3 dice" in u.describe(of_kind(u, Kind.LIGHTNING)[0]) and not of_kind(u, Kind.JETTISON)


def test_YT_A4_jettison_before_an_emergency_landing():
    s = acting(started(14), 0, Card.MOVE, loc=(node(9), APPROACH, RUNWAY, RUNWAY), fuel=(1, 14, 13, 13),
               load=(Load.BOMB, None, None, None), jp=japanese())
    t = s.apply(of_kind(s, Kind.MOVE, via=MoveKind.RETURN)[0])
    assert [a.kind for a in t.legal_actions()] == [Kind.JETTISON, Kind.EMERGENCY_LANDING, Kind.CARRY_ON]
    assert landing_dice(t.apply(of_kind(t, Kind.JETTISON)[0]), 0, emergency=True) == 3


# -- item 3: the clock matters (YT.S4, YT.E2) ----------------------------------------------
def _rates(rows):
    n = len(rows)
    wins = sum(r["result"] == "victory" for r in rows)
    p = wins / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return p, p - half, p + half


def test_YT_S4_a_game_uses_most_of_the_timer():
    """YT.S4: the box's 30 minutes: the heuristic's games last most of the timer, and some
    are lost to it (the model of docs/yorktown.md "Time")."""
    rows = play_many(YORKTOWN, 40, 7, "heuristic")
    minutes = sum(r["minutes"] for r in rows) / len(rows)
    assert minutes > 0.7 * new_game(0).setup.limit / 60
    assert any(r["end"] == "time" for r in rows)


@pytest.mark.slow
def test_YT_S4_E2_the_win_rate_is_ordered_by_difficulty():
    """YT.S4: 35, 30 or 25 minutes "para aumentar o reducir la dificultad": the win rates
    are ordered, easy's and hard's 95 % intervals apart."""
    found = {d: _rates(play_many(YORKTOWN, 400, 2026, "heuristic", {"difficulty": d}))
             for d in ("easy", "normal", "hard")}
    assert found["easy"][0] > found["normal"][0] > found["hard"][0]
    assert found["easy"][1] > found["hard"][2]


# -- item 4: bots that use the expansions ---------------------------------------------------
def test_expansions_the_heuristic_plays_expert_maneuvers_and_weather_searches():
    rows = play_many(YORKTOWN, 40, 3, "heuristic", {"expansions": check_expansions("expert,tank,weather")})
    assert sum(r["tiles_played"] for r in rows) > 20 and sum(r["weather_searches"] for r in rows) > 0
    plain = play_many(YORKTOWN, 10, 3, "heuristic")
    assert sum(r["tiles_played"] + r["tanks_used"] + r["weather_searches"] for r in plain) == 0


def test_expansions_the_heuristic_takes_a_spare_tank():
    s = acting(started(3, expansions={Expansion.TANK}), 2, Card.LAND_TAKE_OFF, loc=(node(1), node(3), RUNWAY, RUNWAY),
               load=(Load.BOMB, Load.BOMB, None, None))
    a = HeuristicPlayer().choose(s)
    assert a.kind == Kind.TAKE_OFF and a.load == Load.TANK


def test_expansions_the_heuristic_turns_a_weather_tile_on_the_way_to_strike():
    s = started(3, expansions={Expansion.WEATHER})
    weather = tuple(Weather.UPDRAFT if k == 5 else None for k in range(10))  # island 6 Woodlark, next to 3 and 5
    s = position(s, phase=Phase.CHOOSE, loc=(node(6), node(6), RUNWAY, RUNWAY), load=(Load.BOMB, Load.BOMB, None, None),
                 weather=weather, search=0, choice=(None,) * 4, done=(False,) * 4, jp=japanese())
    plan = HeuristicPlayer()._plan(s)
    assert Card.SEARCH in (plan[0], plan[1])


def test_expansions_the_heuristic_lands_with_ground_ace_when_a_roll_is_due():
    s = acting(started(3, expansions={Expansion.EXPERT}), 0, Card.LAND_TAKE_OFF,
               loc=(APPROACH, node(1), RUNWAY, RUNWAY), fuel=(2, 9, 13, 13), tile=(Maneuver.GROUND_ACE,) + (None,) * 3)
    a = HeuristicPlayer().choose(s)
    assert a.kind == Kind.LAND and a.maneuver == Maneuver.GROUND_ACE
