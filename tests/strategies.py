"""Hypothesis strategies shared by the tests."""
from hypothesis import strategies as st

from furball.geometry.base import Base
from furball.geometry.pose import Pose
from furball.maneuvers.card import Arc, ManeuverCard, Straight

coord = st.floats(-2000, 2000, allow_nan=False, allow_infinity=False)
heading = st.floats(-720, 720, allow_nan=False, allow_infinity=False)
poses = st.builds(Pose, coord, coord, heading)
small = st.floats(-200, 200, allow_nan=False, allow_infinity=False)
local_poses = st.builds(Pose, small, small, heading)

bases = st.builds(
    Base,
    st.floats(10, 120),
    st.floats(10, 160),
)

straights = st.builds(Straight, st.floats(1, 150))
arcs = st.builds(
    Arc,
    st.floats(5, 300),
    st.floats(-180, 180).filter(lambda a: abs(a) > 0.5),
)
segments = st.lists(st.one_of(straights, arcs), min_size=1, max_size=3)


@st.composite
def cards(draw, with_anchor=True):
    anchor = draw(st.sampled_from(["marks", "stand"])) if with_anchor else "marks"
    final = draw(st.sampled_from([0.0, 0.0, 180.0, -180.0, 90.0]))
    if draw(st.booleans()):
        return ManeuverCard.from_path("X", "x", draw(segments), final_turn_deg=final, anchor=anchor)
    end = draw(st.builds(Pose, st.floats(-20, 150), st.floats(-80, 80), st.floats(-170, 170)))
    return ManeuverCard.from_end("X", "x", end, final_turn_deg=final, anchor=anchor)


@st.composite
def mangled(draw, text: str, alphabet: str = '[]{}=",.-0123456789AZaz_ \n#\'', span: int = 15):
    """``text`` with 1-4 random stretches replaced by junk: malformed data files."""
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + span)))
        text = text[:i] + draw(st.text(alphabet=alphabet, max_size=8)) + text[j:]
    return text
