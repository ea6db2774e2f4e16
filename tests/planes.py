"""Building planes and tables for the dogfight tests, in Python (no TOML)."""
from furball.maneuvers import shipped_bases, shipped_decks
from furball.maneuvers.plane import PlaneState, default_rules
from furball.scenarios.dogfight import Table

DECKS = shipped_decks()
BASES = shipped_bases()
RULES = default_rules()
SMALL = BASES["small"]


def plane(name, x, y, heading=0.0, side=None, altitude=2, deck="A", base="small", **kw):
    """A plane of deck A on the small base; side defaults to the name (everyone an enemy)."""
    return PlaneState(name=name, side=side or name, deck=DECKS[deck] if deck else None, base=BASES[base],
                      pose=(x, y, heading), altitude=altitude, **kw)


def table(*planes, turn=2, width=900.0, height=900.0, **kw):
    """A 900 x 900 mm table (turn 2 by default, so altitude 0 is allowed)."""
    return Table(width_mm=width, height_mm=height, planes=planes, turn=turn, **kw)

from furball.maneuvers.damage import DamageCard, DamageDeck  # noqa: E402

HARMLESS = tuple(DamageDeck(letter, (DamageCard(f"{letter}#1", 0),), provenance="reconstruction",
                            notes="test deck: every card 0 points, no special")
                 for letter in "ABCDE")
"""Damage decks whose cards do nothing: for tests about geometry only, so that no plane
is destroyed and the turn's geometry is the rules' alone."""
