"""Building planes for the dogfight tests."""
from geometry.pose import Pose
from maneuvers import shipped_bases, shipped_decks
from maneuvers.plane import Plane, default_rules

DECKS = shipped_decks()
BASES = shipped_bases()
RULES = default_rules()
SMALL = BASES["small"]


def plane(name, x, y, heading=0.0, side=None, altitude=2, deck="A", base="small", **kw):
    """A plane of deck A on the small base; side defaults to the name (everyone an enemy)."""
    return Plane(name=name, side=side or name, deck=DECKS[deck] if deck else None, base=BASES[base],
                 pose=Pose(x, y, heading), altitude=altitude, **kw)
