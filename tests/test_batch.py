"""Issue 37.1: the planes on the table as one batch (maneuvers.batch.Planes) and the rule
predicates written once on it; the plan analysis's compiled grid form of DF.O2 answers as
the batch's may_fire."""
import numpy as np
from planes import RULES, plane

from furball.maneuvers.batch import Planes, fire_fixed, may_fire, may_tail, overlaps, tail_fixed
from furball.scenarios.dogfight.analysis import FLYING, LANDED, OUT, _jit

STATUS_CODE = {"flying": FLYING, "landed": LANDED, "out": OUT}


def _mixed():
    """Planes of every status and altitude 0-3, two sides, far apart (no overlap)."""
    out = []
    for k, (status, altitude) in enumerate([("flying", 1), ("flying", 2), ("flying", 3), ("landed", 0),
                                            ("out", 2), ("flying", 0), ("flying", 2)]):
        out.append(plane(f"P{k}", 100.0 + 200.0 * k, 100.0, side=f"S{k % 2}", altitude=altitude, status=status,
                         climb_counters=1 if altitude == 0 and status == "flying" else 0))
    return out


def test_DF_O2_the_batch_is_built_once_with_every_array_and_its_overlaps_on_first_use():
    planes = _mixed()
    board = Planes.of(planes)
    assert board.poses.shape == (7, 3) and board.stands.shape == (7, 2) and len(board) == 7
    assert [board.index[p.name] for p in planes] == list(range(7))
    assert np.allclose(board.stands, [p.stand for p in planes])
    assert "overlap" not in vars(board) and board.overlap is board.overlap  # computed once, on first use
    assert np.array_equal(board.overlap, overlaps(board)) and not board.overlap.any()
    assert len(Planes.on_table_of(planes)) == 6  # the plane out of the game is left out


def test_DF_O2_may_fire_pairs_equal_its_matrix_and_the_analysis_grid_form():
    """The compiled loops of the plan analysis apply DF.O2 to pose grids: for every pair of
    statuses and altitudes they keep exactly the pairs the batch's fire_fixed keeps
    (sides and balloons are the analysis's per-plane flags)."""
    planes = _mixed()
    board = Planes.of(planes)
    matrix = may_fire(board, RULES)
    i, j = np.nonzero(np.ones((7, 7), bool))
    assert np.array_equal(may_fire(board, RULES, i, j).reshape(7, 7), matrix)
    assert np.array_equal(fire_fixed(board, RULES, i, j).reshape(7, 7), fire_fixed(board, RULES))
    codes = _jit()
    alt = np.array([p.altitude for p in planes], np.int64)
    status = np.array([STATUS_CODE[str(p.status)] for p in planes], np.int8)
    shape = (7, 7)
    moment = codes.Moment(np.full(shape, codes.FIRE_LONG, np.int8), np.full(shape, codes.FIRE_LONG, np.int8),
                          np.zeros(shape, np.float32), np.zeros(shape, np.int8))
    codes.apply_rules(moment, alt, status, alt, status, RULES.fire_altitude_difference, np.empty(7, np.int64))
    enemies = board.sides[:, None] != board.sides[None, :]
    assert np.array_equal((moment.fire_ab != codes.FIRE_NONE) & enemies, matrix)


def test_DF_T6_T7_tail_fixed_names_each_failing_condition():
    a, b = plane("A", 100, 100, altitude=3), plane("B", 300, 100, altitude=1)
    bomber = plane("M", 500, 100, deck="M", base="large", engines="multi", altitude=3)
    board = Planes.of([a, b, bomber])
    fails = tail_fixed(board, np.array([0, 2]), np.array([1, 0]))
    assert fails["DF.T6"].tolist() == [True, False] and fails["DF.T7"].tolist() == [False, True]
    assert not may_tail(board, RULES).any()
