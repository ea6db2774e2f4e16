"""Decks and bases as data: shipped files load, bad files give one located line."""

import pytest

from furball.errors import InputError
from furball.maneuvers import find_base, find_deck, load_deck, shipped_bases, shipped_decks

GOOD = '''
[deck]
name = "T"
provenance = "measured"
notes = "test"

[[card]]
id = "T1"
name = "straight"
path = [ { straight_mm = 40.0 } ]
flags = ["straight"]

[[card]]
id = "T2"
name = "bank left"
path = [ { arc = { radius_mm = 80.0, angle_deg = 45.0 } } ]
twin = "T3"

[[card]]
id = "T3"
name = "bank right"
path = [ { arc = { radius_mm = 80.0, angle_deg = -45.0 } } ]
twin = "T2"

[[card]]
id = "T9"
name = "measured card"
end = { x_mm = 60.0, y_mm = 12.5, heading_deg = 30.0 }
final_turn_deg = 180.0
'''


def write(tmp_path, text, name="deck.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_shipped_decks_and_bases_load_and_say_their_provenance():
    decks = shipped_decks()
    assert {"A", "M", "template"} <= set(decks)
    for deck in decks.values():
        assert deck.provenance in ("official", "measured", "reconstruction")
        assert deck.notes
    assert decks["A"].provenance == decks["M"].provenance == "reconstruction"
    for base in shipped_bases().values():
        assert base.provenance == "reconstruction"


def test_DF_H1_each_shipped_game_deck_ends_with_climb_then_descent():
    """DF.H1: the last two cards are the climb (red stall) and the descent (red straight)."""
    for name in ("A", "M"):
        deck = shipped_decks()[name]
        assert "climb" in deck.cards[-2].flags and "descent" in deck.cards[-1].flags
        assert "straight" not in deck.cards[-1].flags  # DF.H5


def test_template_deck_is_fully_defined_by_its_numbers():
    deck = shipped_decks()["template"]
    assert all(c.path is not None or c.has("stall") for c in deck)
    assert len(deck.cards_with("left")) == len(deck.cards_with("right")) >= 6


def test_good_file_loads(tmp_path):
    deck = load_deck(write(tmp_path, GOOD))
    assert deck.ids == ("T1", "T2", "T3", "T9")
    assert deck.card("T9").transform.heading_deg == pytest.approx(210.0)


@pytest.mark.parametrize("old, new, words", [
    ('name = "straight"\npath = [ { straight_mm = 40.0 } ]', 'name = "straight"', ["card 'T1'", "'path/end'", "exactly one"]),
    ('end = { x_mm = 60.0, y_mm = 12.5, heading_deg = 30.0 }', 'end = { x_mm = 60.0, y_mm = 12.5, heading_deg = 30.0 }\npath = [ { straight_mm = 1.0 } ]', ["card 'T9'", "both"]),
    ('radius_mm = 80.0, angle_deg = 45.0', 'radius_mm = -80.0, angle_deg = 45.0', ["card 'T2'", "path[0]", "'radius_mm'", "positive"]),
    ('straight_mm = 40.0', 'straight_mm = "forty"', ["card 'T1'", "'straight_mm'", "number"]),
    ('y_mm = 12.5, ', '', ["card 'T9'", "'y_mm'", "missing"]),
    ('provenance = "measured"', 'provenance = "guess"', ["deck", "'provenance'", "official"]),
    ('id = "T3"', 'id = "T2"', ["card 'T2'", "duplicate"]),
    ('twin = "T2"', 'twin = "T1"', ["card 'T3'", "'twin'", "mirror"]),
    ('flags = ["straight"]', 'flags = "straight"', ["card 'T1'", "'flags'", "list"]),
    ('name = "bank left"', 'name = "bank left"\nradius = 3', ["card 'T2'", "unknown field 'radius'"]),
    ('[deck]\nname = "T"', '[deck]\nname = 5', ["deck", "'name'", "string"]),
    ('angle_deg = 45.0 } } ]\ntwin = "T3"', 'angle_deg = 0.0 } } ]', ["card 'T2'", "'angle_deg'", "non-zero"]),
])
def test_bad_deck_file_gives_one_line_naming_file_card_and_field(tmp_path, old, new, words):
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(InputError) as info:
        load_deck(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    for word in words:
        assert word in message


def test_not_toml_and_missing_file(tmp_path):
    with pytest.raises(InputError, match="not valid TOML"):
        load_deck(write(tmp_path, "[deck\nname="))
    with pytest.raises(InputError, match="no such file"):
        load_deck(tmp_path / "nope.toml")


def test_find_deck_and_base_by_name_path_and_size(tmp_path):
    assert find_deck("A").name == "A"
    assert find_deck(str(write(tmp_path, GOOD))).name == "T"
    with pytest.raises(InputError, match="shipped: A, M, template"):
        find_deck("Z")
    assert find_base("small").length_mm == 44.0
    b = find_base("50x70.5")
    assert (b.length_mm, b.width_mm, b.front_mark_mm) == (50.0, 70.5, 25.0)
    f = write(tmp_path, '[base.one]\nlength_mm = 30\nwidth_mm = 40\nprovenance = "measured"\n'
                        '[base.two]\nlength_mm = 31\nwidth_mm = 41\nprovenance = "measured"\n', "b.toml")
    assert find_base(f"{f}:two").width_mm == 41.0
    with pytest.raises(InputError, match="pick one"):
        find_base(str(f))
    with pytest.raises(InputError, match="LENGTHxWIDTH"):
        find_base("huge")
