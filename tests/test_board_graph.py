"""geometry.board_graph: loading with located errors, every query, and properties."""
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from furball.errors import InputError
from furball.geometry.board_graph import BoardGraph, Edge, Node, load_board, parse_board
from furball.geometry.datafile import parse_toml

ISLANDS = '''
[board]
name = "islands"
provenance = "reconstruction"
notes = "a test archipelago"

[[node]]
name = "I1"
kind = "island"
colour = "orange"
number = 1

[[node]]
name = "I2"
kind = "island"
colour = "green"
number = 2
capacity = 2
attrs = { x = 1.5, named = true, tags = ["reef"] }

[[node]]
name = "I3"
kind = "island"
colour = "red"
number = 3
boxes = ["GAR", "GAR"]

[[node]]
name = "I4"
kind = "island"
colour = "red"
number = 4

[[node]]
name = "carrier"
kind = "ship"

[[edge]]
between = ["I1", "I2"]
kind = "white line"

[[edge]]
between = ["I2", "I3"]
kind = "white line"

[[edge]]
between = ["I1", "I4"]

[[edge]]
between = ["carrier", "I1"]
kind = "flight"
'''


def board(text=ISLANDS, source="islands.toml"):
    return parse_board(parse_toml(text, source), source)


def test_loads_nodes_attributes_and_edges(tmp_path):
    path = tmp_path / "islands.toml"
    path.write_text(ISLANDS, encoding="utf-8")
    b = load_board(path)
    assert b.name == "islands" and b.provenance == "reconstruction" and b.notes == "a test archipelago"
    assert b.names == ("I1", "I2", "I3", "I4", "carrier") and len(b) == 5 and "I3" in b
    i2 = b.node("I2")
    assert (i2.kind, i2.colour, i2.number, i2.capacity) == ("island", "green", 2, 2)
    assert i2.attr("x") == 1.5 and i2.attr("named") is True and i2.attr("tags") == ("reef",)
    assert i2.attr("order", "none") == "none" and b.node("I3").has_box("GAR")
    assert b.edge_kind("I2", "I1") == "white line" and b.edge_kind("I1", "I4") == ""
    assert b.edge_kind("I3", "I4") is None


def test_select_by_kind_colour_box_and_attribute():
    b = board()
    assert b.select(kind="island", colour="red") == ("I3", "I4")
    assert b.select(box="GAR") == ("I3",)
    assert b.select(named=True) == ("I2",)
    assert b.select(kind="ship") == ("carrier",)


def test_neighbours_by_edge_kind_and_own_or_adjacent():
    b = board()
    assert b.neighbours("I1") == ("I2", "I4", "carrier")
    assert b.neighbours("I1", kind="white line") == ("I2",)
    assert b.neighbours("I1", kind="flight") == ("carrier",)
    with pytest.raises(InputError, match="unknown edge kind 'no such kind'"):
        b.neighbours("I1", kind="no such kind")  # a misspelt kind is an error, never "no edges"
    assert b.neighbours("I1", kind=["white line", "flight"]) == ("I2", "carrier")
    assert b.own_or_adjacent("I3") == ("I3", "I2")
    assert b.adjacent("I4", "I1") and not b.adjacent("I4", "I2")
    assert not b.adjacent("I1", "I4", kind="white line")


def test_next_node_wraps_around_and_filters():
    b = board()
    assert b.next_node("I1", key="number") == "I2"
    assert b.next_node("I4", key="number") == "I1"  # wrap-around (like island 10 -> 1)
    assert b.next_node("I1", key="number", step=-1) == "I4"
    assert b.next_node("I2", key="number", among=["I2", "I4"]) == "I4"
    with pytest.raises(InputError, match="no integer 'number'"):
        b.next_node("carrier", key="number")


def test_path_existence_restricted_to_a_subset():
    b = board()
    orange, red = b.select(colour="orange"), b.select(colour="red")
    # a chain of occupied islands along white lines from an orange to a red island
    assert b.path_exists(orange, red, within=["I1", "I2", "I3"], kind="white line")
    assert not b.path_exists(orange, red, within=["I1", "I3"], kind="white line")
    assert b.path_exists(orange, red, within=["I1", "I4"])  # untyped edge I1-I4
    assert not b.path_exists(orange, red, within=["I1", "I4"], kind="white line")
    assert not b.path_exists(["I2"], ["I3"], within=[])
    assert b.path_exists(["I2"], ["I2"], within=["I2"])  # a node in both sets


def test_components_reachable_shortest_path_and_distance():
    b = board()
    assert set(b.components(kind="white line")) == {frozenset({"I1", "I2", "I3"}), frozenset({"I4"}),
                                                   frozenset({"carrier"})}
    assert b.components(within=[]) == ()
    assert b.reachable("I3", within=["I1", "I2", "I3", "I4"]) == ("I3", "I2", "I1", "I4")
    assert b.reachable("I3", within=["I1"]) == ()
    assert b.shortest_path("I3", "carrier") == ("I3", "I2", "I1", "carrier")
    assert b.shortest_path("I3", "I4", within=["I2", "I3", "I4"]) is None
    assert b.distance("I4", "I3") == 3 and b.distance("I3", "I3") == 0
    assert b.distance("I4", "I3", kind="white line") is None


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace('between = ["I2", "I3"]', 'between = ["I2", "I9"]'), ["islands.toml", "edge #2", "'between'", "unknown node 'I9'"]),
    (lambda t: t.replace('between = ["I2", "I3"]', 'between = ["I2", "I2"]'), ["edge #2", "self loop", "'I2'"]),
    (lambda t: t.replace('between = ["I1", "I4"]', 'between = ["I2", "I1"]'), ["edge #3", "duplicate edge", "edge #1"]),
    (lambda t: t.replace('name = "I4"', 'name = "I3"'), ["node #4", "'name'", "duplicate node name 'I3'"]),
    (lambda t: t.replace('provenance = "reconstruction"', 'provenance = "guess"'), ["board", "'provenance'", "one of"]),
    (lambda t: t.replace('provenance = "reconstruction"\n', ''), ["'provenance'", "missing"]),
    (lambda t: t.replace('capacity = 2', 'capacity = -1'), ["node 'I2'", "'capacity'", ">= 0"]),
    (lambda t: t.replace('number = 3', 'number = "three"'), ["node 'I3'", "'number'", "an integer"]),
    (lambda t: t.replace('named = true', 'named = { a = 1 }'), ["node 'I2'", "attrs", "'named'"]),
    (lambda t: t.replace('colour = "green"', 'color = "green"'), ["node 'I2'", "unknown field 'color'"]),
    (lambda t: t.replace('between = ["I1", "I4"]', 'between = ["I1"]'), ["edge #3", "two node names"]),
    (lambda t: t.replace('kind = "flight"', 'kind = 3'), ["edge #4", "'kind'"]),
    (lambda t: t.split("[[node]]")[0], ["'node'", "missing"]),
])
def test_bad_files_give_one_located_line(edit, words):
    with pytest.raises(InputError) as info:
        board(edit(ISLANDS))
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, (word, message)


def test_missing_file_and_unknown_node_queries(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_board(tmp_path / "nope.toml")
    b = board()
    with pytest.raises(InputError, match="unknown node 'I9'"):
        b.neighbours("I9")
    with pytest.raises(InputError, match="unknown node"):
        b.path_exists(["I1"], ["I9"])


def test_programmatic_graph_is_validated_and_hashable():
    nodes = (Node("a"), Node("b", attrs=(("w", 1.0),)))
    g = BoardGraph("g", "official", nodes, (Edge("a", "b"),))
    assert hash(g) == hash(BoardGraph("g", "official", nodes, (Edge("a", "b"),)))
    with pytest.raises(InputError, match="board 'g': edge #1: field 'between': unknown node 'c'"):
        BoardGraph("g", "official", nodes, (Edge("a", "c"),))
    with pytest.raises(InputError, match="expected a string, integer"):
        BoardGraph("g", "official", (Node("a", attrs=(("w", float("nan")),)),))


# -- properties on random graphs -------------------------------------------------------
@st.composite
def graphs(draw):
    n = draw(st.integers(1, 9))
    names = [f"n{i}" for i in range(n)]
    pairs = list(itertools.combinations(range(n), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) if pairs else []
    kinds = draw(st.lists(st.sampled_from(["", "road", "river"]), min_size=len(chosen), max_size=len(chosen)))
    edges = tuple(Edge(names[a], names[b], k) for (a, b), k in zip(chosen, kinds))
    nodes = tuple(Node(name, order=draw(st.integers(0, 5))) for name in names)
    subset = draw(st.lists(st.sampled_from(names), unique=True))
    return BoardGraph("random", "official", nodes, edges, edge_kinds=("", "road", "river")), subset


@given(graphs())
def test_neighbours_are_symmetric_and_match_edges(data):
    g, _ = data
    for a in g.names:
        for b in g.neighbours(a):
            assert a in g.neighbours(b) and a != b
    assert sum(len(g.neighbours(a)) for a in g.names) == 2 * len(g.edges)
    for kind in ("road", "river"):
        for a in g.names:
            assert set(g.neighbours(a, kind)) <= set(g.neighbours(a))


@given(graphs(), st.data())
def test_path_existence_agrees_with_components_of_the_induced_subgraph(data, more):
    g, subset = data
    comps = g.components(within=subset)
    assert sorted(itertools.chain.from_iterable(comps)) == sorted(subset)
    sources = more.draw(st.lists(st.sampled_from(g.names), max_size=3))
    targets = more.draw(st.lists(st.sampled_from(g.names), max_size=3))
    expected = any(set(sources) & c and set(targets) & c for c in comps)
    assert g.path_exists(sources, targets, within=subset) == expected


@given(graphs(), st.data())
def test_shortest_path_is_a_minimal_path_inside_the_subset(data, more):
    g, subset = data
    a = more.draw(st.sampled_from(g.names))
    b = more.draw(st.sampled_from(g.names))
    path = g.shortest_path(a, b, within=subset)
    assert (path is not None) == g.path_exists([a], [b], within=subset)
    if path is not None:
        assert path[0] == a and path[-1] == b and set(path) <= set(subset)
        assert all(g.adjacent(x, y) for x, y in zip(path, path[1:]))
        assert len(set(path)) == len(path)
        # minimal: an independent oracle grows the set of nodes within k steps of a
        assert b in g.reachable(a, within=subset)
        frontier, k = {a}, 0
        while b not in frontier:
            frontier |= {y for x in frontier for y in g.neighbours(x) if y in subset}
            k += 1
        assert len(path) - 1 == k == g.distance(a, b, within=subset)


@given(graphs(), st.data())
def test_next_node_cycles_through_every_ranked_node(data, more):
    g, _ = data
    start = more.draw(st.sampled_from(g.names))
    seen = [start] + [g.next_node(start, step=k) for k in range(1, len(g))]
    assert sorted(seen) == sorted(g.names)
    assert g.next_node(start, step=len(g)) is None  # the start itself is never the answer
    ranks = [g.node(n).order for n in seen]
    assert sum(1 for x, y in zip(ranks, ranks[1:]) if y < x) <= 1  # one wrap at most
    full = set(more.draw(st.lists(st.sampled_from(g.names), unique=True)))
    free = [n for n in g.names if n not in full]
    spill = g.next_node(start, among=free)
    if set(free) - {start}:
        assert spill == next(n for n in seen[1:] if n in free)
    else:
        assert spill is None  # every candidate full: "none", never the start


# -- queries added for the island and rooftop games -------------------------------------
def _line(n=5):
    """n0 - n1 - n2 - n3 - n4, plus a 'ferry' edge n0 - n4."""
    names = [f"n{i}" for i in range(n)]
    edges = [(names[i], names[i + 1], "road") for i in range(n - 1)] + [(names[0], names[-1], "ferry")]
    nodes = [Node(name, number=i + 1) for i, name in enumerate(names)]
    return BoardGraph.build("line", nodes, edges)


def test_interior_nodes_must_satisfy_the_filter_but_the_ends_need_not():
    g = _line()
    empty = {"n1"}  # n2 holds a plane, n1 does not
    # a two-step move through an empty island: n0 -> n1 -> n2 is fine even though n2 is occupied
    assert g.reachable("n0", kind="road", max_edges=2, interior=empty) == ("n0", "n1", "n2")
    # through an occupied island it is not: from n1, n3 is two steps away through n2
    assert "n3" not in g.reachable("n1", kind="road", max_edges=2, interior=empty)
    assert g.shortest_path("n0", "n3", kind="road", interior={"n1"}) is None
    assert g.shortest_path("n0", "n3", kind="road", interior={"n1", "n2"}) == ("n0", "n1", "n2", "n3")
    assert g.path_exists(["n0"], ["n4"], kind=["road", "ferry"], interior=()) is True  # the ferry: no interior
    assert g.path_exists(["n0"], ["n4"], kind="road", interior=()) is False
    assert g.distance("n0", "n2", interior={"n1"}, kind="road") == 2


def test_build_in_code_declared_kinds_and_cheap_derivation():
    g = BoardGraph.build("roof", ["a", Node("b", order=2), "c"], [("a", "b", "stair"), ("b", "c")],
                         edge_kinds=("stair", "", "flight"))
    assert g.kinds == ("", "flight", "stair") and g.neighbours("b", kind="flight") == ()
    with pytest.raises(InputError, match="declared edge kinds"):
        BoardGraph.build("bad", ["a", "b"], [("a", "b", "stairs")], edge_kinds=("stair",))
    h = g.with_changes(add_nodes=[Node("d", order=1)], add_edges=[("d", "b", "stair")], remove_nodes=["c"])
    assert h.names == ("a", "b", "d") and h.neighbours("b") == ("a", "d")
    assert g.names == ("a", "b", "c")  # the old graph is unchanged
    assert h.ranked("order") == ("d", "b")
    assert h.with_changes(remove_edges=[("b", "a")]).neighbours("a") == ()


def test_board_file_may_declare_its_edge_kinds():
    text = ISLANDS.replace('notes = "a test archipelago"', 'notes = "x"\nedge_kinds = ["white line"]')
    with pytest.raises(InputError, match=r"edge #3: field 'kind'.*got ''"):
        parse_board(parse_toml(text, "islands.toml"), "islands.toml")


def test_vertex_cut_of_a_chain_is_the_bottleneck():
    g = _line()
    assert g.vertex_cut(["n0"], ["n4"], kind="road") in ({"n1"}, {"n2"}, {"n3"}, {"n0"}, {"n4"})
    assert len(g.vertex_cut(["n0"], ["n4"])) == 1  # the ferry joins the ends directly: cut an end
    assert g.vertex_cut(["n0"], ["n4"], within=["n0", "n1"]) == frozenset()


def _simple_paths(g, a, b, within):
    """Every simple path a..b inside ``within`` (a brute-force oracle)."""
    out, stack = [], [(a,)]
    while stack:
        path = stack.pop()
        if path[-1] == b:
            out.append(path)
            continue
        stack.extend(path + (y,) for y in g.neighbours(path[-1]) if y in within and y not in path)
    return out


@given(graphs(), st.data())
def test_interior_paths_and_vertex_cuts_agree_with_brute_force(data, more):
    g, subset = data
    a, b = more.draw(st.sampled_from(g.names)), more.draw(st.sampled_from(g.names))
    interior = set(more.draw(st.lists(st.sampled_from(g.names), unique=True)))
    paths = [p for p in _simple_paths(g, a, b, set(g.names)) if set(p[1:-1]) <= interior]
    assert g.path_exists([a], [b], interior=interior) == bool(paths)
    found = g.shortest_path(a, b, interior=interior)
    assert (found is None) == (not paths)
    if found:
        assert len(found) == min(len(p) for p in paths) and set(found[1:-1]) <= interior
    sources = set(more.draw(st.lists(st.sampled_from(g.names), unique=True, max_size=3)))
    targets = set(more.draw(st.lists(st.sampled_from(g.names), unique=True, max_size=3)))
    cut = g.vertex_cut(sources, targets, within=subset)
    rest = set(subset) - cut
    assert cut <= set(subset) and not g.path_exists(sources & rest, targets & rest, within=rest)
    # minimal: no smaller set of nodes of the subset does it
    for k in range(len(cut)):
        for smaller in itertools.combinations(sorted(subset), k):
            left = set(subset) - set(smaller)
            assert g.path_exists(sources & left, targets & left, within=left)
