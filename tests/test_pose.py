"""SE(2) pose algebra: group laws, batch == single, exact quarter turns."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from strategies import local_poses, poses

from furball.geometry.pose import (
    Pose,
    compose_batch,
    cos_sin_deg,
    heading_difference_deg,
    inverse_batch,
    mirror_batch,
    to_local_batch,
    to_table_batch,
)


def close(a: Pose, b: Pose, tol=1e-7):
    return a.isclose(b, tol)


@given(poses, local_poses, local_poses)
def test_composition_is_associative(a, b, c):
    assert close((a @ b) @ c, a @ (b @ c))


@given(poses)
def test_identity_and_inverse_laws(p):
    e = Pose.identity()
    assert close(p @ e, p) and close(e @ p, p)
    assert close(p @ p.inverse(), e) and close(p.inverse() @ p, e)
    assert close(p.inverse().inverse(), p)


@given(poses, local_poses)
def test_inverse_of_product_reverses_order(a, b):
    assert close((a @ b).inverse(), b.inverse() @ a.inverse())


@given(st.lists(st.tuples(poses, local_poses), min_size=1, max_size=20))
def test_batch_equals_single(pairs):
    a = np.array([p.as_array() for p, _ in pairs])
    b = np.array([q.as_array() for _, q in pairs])
    batch = compose_batch(a, b)
    inv = inverse_batch(a)
    for row, inv_row, (p, q) in zip(batch, inv, pairs):
        assert close(Pose.from_array(row), p @ q, 1e-9)
        assert close(Pose.from_array(inv_row), p.inverse(), 1e-9)


@given(poses, st.lists(st.tuples(st.floats(-300, 300), st.floats(-300, 300)), min_size=1, max_size=8))
def test_apply_and_to_local_are_inverse(p, pts):
    pts = np.array(pts)
    table = p.apply(pts)
    back = to_local_batch(p.as_array(), table)
    assert np.allclose(back, pts, atol=1e-7)
    assert np.allclose(to_table_batch(p.as_array()[None], pts)[0], table)


@given(poses, local_poses)
def test_apply_respects_composition(a, b):
    pt = np.array([[3.0, -7.5]])
    assert np.allclose((a @ b).apply(pt), a.apply(b.apply(pt)), atol=1e-7)


@given(poses, local_poses)
def test_mirror_is_an_automorphism(a, b):
    assert close((a @ b).mirrored(), a.mirrored() @ b.mirrored())
    assert close(a.mirrored().mirrored(), a)
    assert np.allclose(mirror_batch(a.as_array()), a.mirrored().as_array())


def test_quarter_turns_are_exact():
    c, s = cos_sin_deg(np.array([0.0, 90.0, 180.0, 270.0, 360.0, -90.0, 450.0]))
    assert c.tolist() == [1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0]
    assert s.tolist() == [0.0, 1.0, 0.0, -1.0, 0.0, -1.0, 1.0]
    p = Pose(0, 0, 90) @ Pose(10, 0, 90) @ Pose(10, 0, 90)
    assert (p.x_mm, p.y_mm, p.heading_deg) == (-10.0, 10.0, 270.0)


def test_headings_are_normalised_to_0_360():
    assert Pose(0, 0, -90).heading_deg == 270.0
    assert Pose(0, 0, 720).heading_deg == 0.0
    tiny = Pose(0, 0, -1e-18).heading_deg
    assert 0.0 <= tiny < 360.0
    assert float(heading_difference_deg(10, 350)) == 20.0


def test_non_finite_pose_is_rejected():
    import pytest

    with pytest.raises(ValueError):
        Pose(float("nan"), 0, 0)


# -- one type, single or batch (like scipy's Rotation) --------------------------------------
@given(poses, st.lists(local_poses, min_size=1, max_size=12))
def test_a_batch_behaves_like_its_single_poses(p, qs):
    batch = Pose.concatenate(qs)
    assert not batch.single and p.single and len(batch) == len(qs)
    assert [q for q in batch] == qs and batch[0] == qs[0]
    left, right = p @ batch, batch @ p
    inv = batch.inverse()
    for k, q in enumerate(qs):
        assert left[k] == p @ q and right[k] == q @ p and inv[k] == q.inverse()
    pts = np.array([[1.0, 2.0], [-3.0, 4.5]])
    assert np.array_equal(batch.apply(pts)[len(qs) - 1], qs[-1].apply(pts))
    assert batch.isclose(batch).all() and p.isclose(p) is True


def test_pose_values_are_immutable_hashable_and_convert_at_the_boundary():
    p = Pose(1.5, -2.0, 370.0)
    assert p == Pose(1.5, -2.0, 10.0) and hash(p) == hash(Pose(1.5, -2.0, 10.0))
    assert Pose.from_json(p.as_json()) == p and p.as_json() == {"x": 1.5, "y": -2.0, "heading": 10.0}
    assert Pose.from_array(p.as_array()) == p
    arr = p.as_array()
    arr[0] = 99.0  # a copy: the pose does not change
    assert p.x_mm == 1.5
    batch = Pose.from_array([[0, 0, 0], [1, 1, -90]])
    assert batch.heading_deg.tolist() == [0.0, 270.0] and batch != Pose(0, 0, 0)
    import pytest

    with pytest.raises(ValueError):
        batch.heading_deg[0] = 5.0  # read-only view
    with pytest.raises(ValueError):
        Pose.from_array([[1.0, 2.0]])
    with pytest.raises(TypeError):
        len(p)
