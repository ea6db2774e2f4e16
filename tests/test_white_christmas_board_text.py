"""Issue #36: a White Christmas room's board is drawn in parts whose JSON text is kept in a
bounded cache shared by every room (viz.white_christmas): the texts are the ones encoded
whole, and the cache's keys hold public values only (the same for every seat)."""
import json

from white_christmas_helpers import heuristic_game

from furball.i18n import translator
from furball.scenarios.web.views import white_christmas as view
from furball.viz.white_christmas import _parts, white_christmas_sketch, white_christmas_sketch_text


def _compact(value) -> str:
    return json.dumps(value, allow_nan=False, separators=(",", ":"))


def test_WC_G1_G5_the_board_and_public_half_texts_are_the_ones_encoded_whole():
    seen = 0
    for s in heuristic_game(5, 4)[:-1]:
        if s.step % 3 == 0:
            o = s.observation(s.step % 4)
            for lang in ("en", "es"):
                _ = translator(lang)
                assert white_christmas_sketch_text(o, _) == _compact(white_christmas_sketch(o, _).as_json())
                assert view.public_json(o, lang) == _compact(view.public(o, lang))
            seen += 1
    assert seen > 20


def test_WC_F2_F4_the_kept_parts_keys_are_the_same_for_the_state_and_every_seat():
    """What keys the cache is what every seat's observation holds alike (no hand, radar
    value or bid of anyone's): the state's keys are each observation's."""
    seen = 0
    for s in heuristic_game(8, 3)[:-1]:
        if s.step % 2 == 0:
            for lang in ("en", "es"):
                _ = translator(lang)
                keys = _parts(s, _)
                assert all(_parts(s.observation(seat), _) == keys for seat in range(3))
            seen += 1
    assert seen > 20
