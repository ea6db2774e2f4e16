"""Issue 33 for the dogfight: its room log, its outcome, its actions and its room view
read in each reader's language (the log as entries, like the card games'); English is
the engine's own text, byte for byte (the golden logs hold it)."""
import re

import pytest

from furball.i18n import Lang, MessageText, render
from furball.maneuvers.altitude import after_drop
from furball.scenarios.dogfight.state import new_game

NEUTRAL = re.compile(r"^(\s*|\s*P\d+: .*)$")
"""Lines with no words of either language: blank, or a seat's planes (``  P1: Allies: SPAD``)."""


def _room(seed: int, reorder: str = "chaser", turn_limit: int = 3):
    """A dogfight duel room played to its end, every decision the first legal one (a
    chaser keeps its order)."""
    from furball.scenarios.web.rooms import Room, make_spec

    room = Room.new(make_spec({"game": "dogfight", "options": {"reorder": reorder, "turn_limit": str(turn_limit)},
                               "seed": seed, "seats": None}))
    for _ in range(50):
        if room.terminal:
            break
        room, _ = room.act(room.to_act, 0, room.view_version(room.to_act), now=0.0)
    assert room.terminal
    return room


@pytest.mark.parametrize("seed", [3, 4])
def test_DF_V1_V2_a_whole_dogfight_room_log_in_spanish_has_no_line_left_in_english(seed):
    """Every seat's and the spectators' log of a whole duel (set-up, each turn's report,
    the chaser's reveal, the seat's own plans and orders) reads in Spanish: no line is
    its English itself (as a line no id matched would be), and English is the lines the
    room has always sent (the engine's ``events_for``, the actions' ``describe``)."""
    room = _room(seed)
    checked = 0
    for viewer in (0, 1, None):
        english = [line.as_json(Lang.EN) for line in room.log_for(viewer)]
        spanish = [line.as_json(Lang.ES) for line in room.log_for(viewer)]
        assert [x["lines"] for x in english] == [list(line.lines) for line in room.log_for(viewer)]
        for en, es in zip(english, spanish):
            assert len(en["lines"]) == len(es["lines"])
            left = [b for a, b in zip(en["lines"], es["lines"]) if a == b and not NEUTRAL.match(a)]
            assert left == []
            assert (en["action"] is None) == (es["action"] is None)
            if en["action"] is not None:
                assert en["action"] != es["action"]
            checked += len(en["lines"])
    assert checked > 100
    spanish_log = "\n".join(t for line in room.log_for(0) for t in line.as_json(Lang.ES)["lines"])
    assert "Maniobra 1" in spanish_log and "Fin del turno" in spanish_log


def test_DF_V1_V2_the_outcome_and_the_actions_as_entries_render_english_as_before():
    state = new_game(5, reorder="policy", turn_limit=1)
    action = state.legal_actions()[0]
    assert state.describe(action) == f"{action.plane} flies {', '.join(action.cards)}"
    while not state.is_terminal():
        state = state.apply(state.legal_actions()[0])
    english = state.outcome()
    assert english[0] == "game over after 1 turns: turn limit 1 reached (DF.V2)"
    assert english[-1] == f"winner: {state.winner}"
    from furball.i18n import render_entry

    spanish = [render_entry(t, a, Lang.ES) for t, a in state.outcome_entries()]
    assert [es for en, es in zip(english, spanish) if en == es] == []


def test_DF_B1_B2_move_events_are_english_text_that_keeps_its_message():
    from furball.maneuvers.plane import PlaneState

    plane = next(p for p in new_game(1, "bomber").table.planes if p.bombs_at_start)
    assert isinstance(plane, PlaneState)
    _, events = after_drop(plane, 1)
    assert events[0] == f"drops 1 bomb ({plane.bombs - 1}/{plane.bombs_at_start} left)"
    assert isinstance(events[0], MessageText) and render(events[0], Lang.ES) != events[0]


def test_DF_T2_the_room_view_writes_the_reports_and_the_ending_in_the_readers_language():
    """The seat's last-turn report and its replay's lines, and the public replay, in the
    page's language; English as the observation's own lines."""
    room = _room(6, reorder="policy", turn_limit=1)
    english, spanish = room.view(0, lang=Lang.EN)["view"], room.view(0, lang=Lang.ES)["view"]
    o = room.state.observation(0)
    assert english["private"]["last_turn"] == list(o.last_turn)
    assert english["public"]["replay"] == o.public_replay
    assert len(spanish["private"]["last_turn"]) == len(o.last_turn)
    assert spanish["private"]["last_turn"] != english["private"]["last_turn"]
    assert spanish["public"]["replay"]["end"]["lines"] != english["public"]["replay"]["end"]["lines"]
    assert english["public"]["ending"].startswith("Game over: turn 1 was played")
    assert spanish["public"]["ending"] != english["public"]["ending"]
    assert room.public_view(Lang.ES)["ending"] == spanish["public"]["ending"]


def test_DF_V2_furball_play_dogfight_log_in_spanish_has_no_line_left_in_english():
    """The referee's log (``furball play dogfight --lang es``): set-up, plans, each turn's
    whole report, the outcome, every line in Spanish; English is the engine's text."""
    from furball.scenarios.engine.registry import load_game
    from furball.scenarios.engine.runner import play_game

    record = play_game(load_game("dogfight"), 3, players="random", options={"turn_limit": 2})
    english, spanish = record.log_lines(Lang.EN), record.log_lines(Lang.ES)
    assert len(spanish) == len(english) > 50
    assert [es for en, es in zip(english, spanish) if en == es and not NEUTRAL.match(en)] == []
    assert english[-1] == record.final.outcome()[-1]


def test_DF_T1_D3_furball_turn_margins_report_reads_in_spanish():
    """``furball turn --margins --lang es``: every line of the margins report (rulings,
    margins' kinds and units, close calls) in Spanish; English as ever."""
    from furball.scenarios.dogfight.margins import margin_lines, turn_margins
    from furball.scenarios.dogfight.scenario import load_scenario
    from furball.scenarios.dogfight.turn import adjudicate

    scenario = load_scenario("bomber")
    tm = turn_margins(adjudicate(scenario.table, scenario.orders, seed=1, policy=scenario.policy), close_call=0.0001)
    english, spanish = margin_lines(tm), margin_lines(tm, Lang.ES)
    assert tm.close_calls and len(english) == len(spanish) > 20
    assert english[1].startswith("Margins (docs/margins.md): placement error 1 mm, 1 deg per base")
    assert english[-1].endswith(f"close calls of {len(tm.rulings)} rulings")
    assert [es for en, es in zip(english, spanish) if en == es and en.strip()] == []
