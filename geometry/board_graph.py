"""Board graphs: small immutable maps for card and board games (knows no game).

A :class:`BoardGraph` is a set of named **nodes** (areas, islands, rooftops, slots …)
joined by undirected **edges**. Each node carries validated attributes: ``kind``,
``colour``, ``number``, ``order``, ``capacity``, ``boxes`` (labels of printed boxes,
e.g. ``"GAR"``) and free-form ``attrs`` (strings, integers, finite floats, booleans or
lists of strings). Each edge has an optional ``kind`` (``"white line"``, ``"flight"`` …).
At most one edge joins two nodes.

Queries (all by node name; unknown names raise :class:`InputError`):

* :meth:`BoardGraph.neighbours`, :meth:`BoardGraph.own_or_adjacent`,
  :meth:`BoardGraph.adjacent` — optionally restricted to edge kinds;
* :meth:`BoardGraph.select` — nodes by kind / colour / box / attribute;
* :meth:`BoardGraph.ranked`, :meth:`BoardGraph.next_node` — nodes ordered by an
  integer attribute; the next one in that cyclic order (optionally among a subset,
  ``None`` when no node of the subset is left);
* :meth:`BoardGraph.components`, :meth:`BoardGraph.path_exists`,
  :meth:`BoardGraph.reachable`, :meth:`BoardGraph.shortest_path`,
  :meth:`BoardGraph.distance` — on the subgraph induced by a node subset ``within``
  (every node of a path, ends included, must lie in ``within``), and optionally with
  ``interior``: the nodes a path passes THROUGH must lie in ``interior`` while its two
  ends need not (e.g. "move two islands if the island crossed is empty");
* :meth:`BoardGraph.vertex_cut` — a smallest set of nodes whose removal leaves no path
  from the sources to the targets (maximum flow on the node-split graph).

Every ``kind`` argument is ``None`` (every edge), one kind, or an iterable of kinds
(edges of any of them). A kind the board does not declare raises :class:`InputError`
(never silently "no edges"). The declared kinds are ``[board] edge_kinds`` when the file
gives them (then every edge must use one of them), else the kinds its edges use.

Graphs are built from files (:func:`load_board`) or in code
(:meth:`BoardGraph.build`), and derived cheaply (:meth:`BoardGraph.with_changes`: add
or remove nodes and edges; the result is a new immutable graph).

Connectivity and paths use :mod:`scipy.sparse.csgraph` (``connected_components``,
``breadth_first_order``, ``dijkstra``, ``maximum_flow``); nothing here walks the graph
by hand.

File format (TOML, read with :func:`geometry.datafile.load_toml`)::

    [board]
    name = "islands"
    provenance = "reconstruction"     # official | measured | reconstruction
    notes = "how the map was obtained"
    edge_kinds = ["white line"]       # optional: the only kinds edges may use

    [[node]]
    name = "Admiralty"
    kind = "island"
    colour = "orange"
    number = 1
    boxes = ["GAR"]
    attrs = { x = 0.5, named = true }

    [[edge]]
    between = ["Admiralty", "Rendova"]
    kind = "white line"               # optional

Every error is one line naming the file, the node or edge and the field.
"""
from __future__ import annotations

import math
import pathlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import breadth_first_order, connected_components, dijkstra, maximum_flow

from furball.errors import InputError
from furball.i18n import N_

from .datafile import Table, load_toml

__all__ = ["Node", "Edge", "BoardGraph", "parse_board", "load_board", "Kinds"]

BOARD_FIELDS = ("name", "provenance", "notes", "edge_kinds")
Kinds = str | Iterable[str] | None
"""An edge-kind filter: ``None`` (every edge), one kind, or several kinds."""
NODE_FIELDS = ("name", "kind", "colour", "number", "order", "capacity", "boxes", "attrs")
EDGE_FIELDS = ("between", "kind")


def _attr_ok(value: Any) -> bool:
    if isinstance(value, (bool, str, int)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, tuple):
        return all(isinstance(v, str) for v in value)
    return False


@dataclass(frozen=True)
class Node:
    """A named place on a board.

    ``number``/``order``/``capacity`` are integers or ``None``; ``boxes`` labels the
    boxes printed in the node (may repeat); ``attrs`` holds further attributes as
    sorted ``(key, value)`` pairs with str / int / float / bool / tuple-of-str values.
    """

    name: str
    kind: str = ""
    colour: str = ""
    number: int | None = None
    order: int | None = None
    capacity: int | None = None
    boxes: tuple[str, ...] = ()
    attrs: tuple[tuple[str, Any], ...] = ()

    def attr(self, key: str, default: Any = None) -> Any:
        """A named attribute: one of the fields above or a key of ``attrs``."""
        if key in NODE_FIELDS and key != "attrs":
            value = getattr(self, key)
            return default if value is None else value
        for k, v in self.attrs:
            if k == key:
                return v
        return default

    def has_box(self, box: str) -> bool:
        return box in self.boxes


@dataclass(frozen=True)
class Edge:
    """An undirected edge between nodes ``a`` and ``b``, with an optional ``kind``."""

    a: str
    b: str
    kind: str = ""


@dataclass(frozen=True)
class BoardGraph:
    """An immutable undirected graph of named nodes.

    ``edge_kinds``: the kinds edges may use, or ``None`` to accept the kinds the edges
    use. Raises :class:`InputError` (one line, prefixed by ``source`` or the board's
    name) on an empty or duplicate node name, a bad attribute type, an edge naming an
    unknown node, a self loop, a second edge between the same two nodes, or an edge
    kind not declared in ``edge_kinds``.
    """

    name: str
    provenance: str
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...] = ()
    notes: str = ""
    source: str = ""
    edge_kinds: tuple[str, ...] | None = None
    _index: dict = field(init=False, repr=False, compare=False, hash=False)
    _matrices: dict = field(init=False, repr=False, compare=False, hash=False)
    _neighbours: dict = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self):
        object.__setattr__(self, "nodes", tuple(self.nodes))
        object.__setattr__(self, "edges", tuple(self.edges))
        if self.edge_kinds is not None:
            object.__setattr__(self, "edge_kinds", tuple(self.edge_kinds))
        where = self.source or f"board '{self.name}'"
        index: dict[str, int] = {}
        for i, node in enumerate(self.nodes):
            if not isinstance(node.name, str) or not node.name.strip():
                raise InputError(f"{where}: node #{i + 1}: field 'name': expected a non-empty string, got {node.name!r}")
            if node.name in index:
                raise InputError(f"{where}: node #{i + 1}: field 'name': duplicate node name {node.name!r}")
            for key, value in node.attrs:
                if not _attr_ok(value):
                    raise InputError(f"{where}: node '{node.name}': attrs: field '{key}': expected a string, "
                                     f"integer, finite number, boolean or list of strings, got {value!r}")
            index[node.name] = i
        seen: dict[frozenset, int] = {}
        rows, cols, kinds = [], [], []
        for j, edge in enumerate(self.edges):
            loc = f"{where}: edge #{j + 1}"
            for end in (edge.a, edge.b):
                if end not in index:
                    raise InputError(f"{loc}: field 'between': unknown node {end!r}")
            if edge.a == edge.b:
                raise InputError(f"{loc}: field 'between': self loop on node {edge.a!r}")
            if self.edge_kinds is not None and edge.kind not in self.edge_kinds:
                raise InputError(f"{loc}: field 'kind': expected one of the declared edge kinds "
                                 f"({', '.join(repr(k) for k in self.edge_kinds)}), got {edge.kind!r}")
            pair = frozenset((edge.a, edge.b))
            if pair in seen:
                raise InputError(f"{loc}: field 'between': duplicate edge {edge.a!r}-{edge.b!r} "
                                 f"(already edge #{seen[pair] + 1})")
            seen[pair] = j
            rows.append(index[edge.a])
            cols.append(index[edge.b])
            kinds.append(edge.kind)
        n = len(self.nodes)
        rows_a, cols_a, kinds_a = np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64), np.array(kinds, dtype=object)

        def matrix(mask):
            r, c = rows_a[mask], cols_a[mask]
            data = np.ones(2 * len(r), dtype=np.int8)
            return csr_array((data, (np.concatenate([r, c]), np.concatenate([c, r]))), shape=(n, n))

        matrices: dict[str | None, Any] = {None: matrix(np.ones(len(rows), dtype=bool))}
        for kind in sorted(set(kinds) | set(self.edge_kinds or ())):
            matrices[kind] = matrix(kinds_a == kind)
        neighbours = {}
        for kind_or_all, m in matrices.items():
            neighbours[kind_or_all] = tuple(tuple(sorted(int(k) for k in m.indices[m.indptr[i]:m.indptr[i + 1]]))
                                     for i in range(n))
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_matrices", matrices)
        object.__setattr__(self, "_neighbours", neighbours)

    # -- building ------------------------------------------------------------------
    @classmethod
    def build(cls, name: str, nodes: Iterable[Node | str], edges: Iterable[Edge | tuple] = (),
              provenance: str = "reconstruction", edge_kinds: Iterable[str] | None = None,
              notes: str = "") -> BoardGraph:
        """A graph built in code. ``nodes``: :class:`Node` values or bare names;
        ``edges``: :class:`Edge` values or ``(a, b)`` / ``(a, b, kind)`` tuples.
        Raises :class:`InputError` as the constructor does."""
        return cls(name=name, provenance=provenance, notes=notes,
                   nodes=tuple(n if isinstance(n, Node) else Node(n) for n in nodes),
                   edges=tuple(_as_edge(e) for e in edges),
                   edge_kinds=None if edge_kinds is None else tuple(edge_kinds))

    def with_changes(self, add_nodes: Iterable[Node | str] = (), add_edges: Iterable[Edge | tuple] = (),
                     remove_nodes: Iterable[str] = (), remove_edges: Iterable[tuple[str, str]] = ()) -> BoardGraph:
        """A new graph derived from this one: nodes in ``remove_nodes`` go (with their
        edges), edges in ``remove_edges`` (pairs, either order) go, then the new nodes
        and edges are added. Node order is kept (new nodes last), so per-node tuples
        indexed by :meth:`index` stay valid for the nodes kept before the first removal."""
        gone = set(remove_nodes)
        for name in gone:
            self.index(name)
        cut = {frozenset(pair) for pair in remove_edges}
        nodes = [n for n in self.nodes if n.name not in gone]
        nodes += [n if isinstance(n, Node) else Node(n) for n in add_nodes]
        edges = [e for e in self.edges if e.a not in gone and e.b not in gone
                 and frozenset((e.a, e.b)) not in cut]
        edges += [_as_edge(e) for e in add_edges]
        return BoardGraph(name=self.name, provenance=self.provenance, nodes=tuple(nodes), edges=tuple(edges),
                          notes=self.notes, source=self.source, edge_kinds=self.edge_kinds)

    # -- nodes -------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        """Node names in file order."""
        return tuple(node.name for node in self.nodes)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The edge kinds this board declares (or, undeclared, the kinds its edges use)."""
        return tuple(k for k in self._matrices if k is not None)

    def __contains__(self, name: str) -> bool:
        return name in self._index

    def __len__(self) -> int:
        return len(self.nodes)

    def index(self, name: str) -> int:
        """The position of node ``name`` in :attr:`nodes`. Raises :class:`InputError`."""
        try:
            return self._index[name]
        except (KeyError, TypeError):
            raise InputError(f"board '{self.name}': unknown node {name!r}") from None

    def node(self, name: str) -> Node:
        """The node called ``name``. Raises :class:`InputError` when there is none."""
        return self.nodes[self.index(name)]

    def select(self, kind: str | None = None, colour: str | None = None, box: str | None = None,
               **attrs: Any) -> tuple[str, ...]:
        """Names (file order) of the nodes matching every given criterion."""
        out = []
        for node in self.nodes:
            if kind is not None and node.kind != kind:
                continue
            if colour is not None and node.colour != colour:
                continue
            if box is not None and box not in node.boxes:
                continue
            if any(node.attr(k) != v for k, v in attrs.items()):
                continue
            out.append(node.name)
        return tuple(out)

    def ranked(self, key: str = "order", among: Iterable[str] | None = None) -> tuple[str, ...]:
        """Names of the nodes having integer attribute ``key`` (and in ``among``, if
        given), sorted by it; ties keep file order."""
        allowed = None if among is None else {self.index(n) for n in among}
        ranked = []
        for i, node in enumerate(self.nodes):
            value = node.attr(key)
            if isinstance(value, int) and not isinstance(value, bool) and (allowed is None or i in allowed):
                ranked.append((value, i))
        ranked.sort()
        return tuple(self.nodes[i].name for _, i in ranked)

    def next_node(self, name: str, key: str = "order", step: int = 1,
                  among: Iterable[str] | None = None) -> str | None:
        """The ``step``-th node after ``name`` in the cyclic order of :meth:`ranked`
        (the last is followed by the first), counting only nodes in ``among`` when it is
        given (``name`` itself need not be in it and is never the answer).
        Returns ``None`` when fewer than ``step`` such nodes exist — e.g. every island
        is full. Raises :class:`InputError` if ``name`` has no integer ``key``.
        """
        order = self.ranked(key)
        if name not in order:
            self.index(name)
            raise InputError(f"board '{self.name}': node {name!r} has no integer '{key}' among the nodes ranked")
        allowed = None if among is None else set(among)
        i = order.index(name)
        candidates = [n for n in order[i + 1:] + order[:i] if allowed is None or n in allowed]
        if step < 0:
            candidates.reverse()
        if step == 0 or len(candidates) < abs(step):
            return None
        return candidates[abs(step) - 1]

    # -- adjacency ---------------------------------------------------------------
    def _kind_keys(self, kind: Kinds) -> tuple:
        """Validated matrix keys for a kind filter."""
        if kind is None:
            return (None,)
        wanted = (kind,) if isinstance(kind, str) else tuple(kind)
        for k in wanted:
            if k not in self._matrices or k is None:
                raise InputError(f"board '{self.name}': unknown edge kind {k!r} (kinds: "
                                 f"{', '.join(repr(x) for x in self.kinds) or 'none'})")
        return wanted

    def _matrix(self, kind: Kinds):
        keys = self._kind_keys(kind)
        m = self._matrices[keys[0]]
        for k in keys[1:]:
            m = m + self._matrices[k]
        return m

    def neighbours(self, name: str, kind: Kinds = None) -> tuple[str, ...]:
        """Nodes joined to ``name`` by an edge (of ``kind``, if given), in file order."""
        i = self.index(name)
        keys = self._kind_keys(kind)
        found = sorted(set().union(*(self._neighbours[k][i] for k in keys)))
        return tuple(self.nodes[j].name for j in found)

    def own_or_adjacent(self, name: str, kind: Kinds = None) -> tuple[str, ...]:
        """``name`` itself followed by its :meth:`neighbours`."""
        return (name,) + self.neighbours(name, kind)

    def adjacent(self, a: str, b: str, kind: Kinds = None) -> bool:
        """Whether an edge (of ``kind``, if given) joins ``a`` and ``b``."""
        self.index(b)
        return b in self.neighbours(a, kind)

    def edge_kind(self, a: str, b: str) -> str | None:
        """The kind of the edge joining ``a`` and ``b`` (``""`` if untyped), or ``None``."""
        ia, ib = self.index(a), self.index(b)
        for kind, m in self._matrices.items():
            if kind is not None and m[ia, ib]:
                return kind
        return None

    # -- connectivity ------------------------------------------------------------
    def _subset(self, within: Iterable[str] | None) -> np.ndarray:
        """Sorted node indices of ``within`` (all nodes when ``None``)."""
        if within is None:
            return np.arange(len(self.nodes))
        return np.array(sorted({self.index(n) for n in within}), dtype=np.int64)

    def _induced(self, within, kind, interior=None, starts=()):
        """The subgraph induced by ``within``: its node indices and adjacency matrix.
        With ``interior``, the matrix is directed: edges leave only nodes of
        ``interior`` or of ``starts``, so a path's inner nodes all lie in ``interior``."""
        idx = self._subset(within)
        m = self._matrix(kind)
        sub = m[idx][:, idx] if len(idx) else csr_array((0, 0), dtype=np.int8)
        if interior is not None and len(idx):
            keep = {self.index(n) for n in interior} | {self.index(n) for n in starts}
            rows = np.array([1 if int(i) in keep else 0 for i in idx], dtype=np.int8)
            sub = csr_array(sub.multiply(rows[:, None]))
            sub.eliminate_zeros()  # csgraph reads an explicit zero as an edge
        return idx, sub

    def components(self, within: Iterable[str] | None = None, kind: Kinds = None) -> tuple[frozenset[str], ...]:
        """Connected components of the subgraph induced by ``within`` (all nodes by
        default), using only edges of ``kind`` if given; ordered by first node."""
        idx, sub = self._induced(within, kind)
        if not len(idx):
            return ()
        count, labels = connected_components(sub, directed=False)
        groups: dict[int, list[str]] = {}
        for k, label in enumerate(labels):
            groups.setdefault(int(label), []).append(self.nodes[idx[k]].name)
        return tuple(frozenset(g) for g in groups.values())

    def _distances(self, starts, within, kind, interior, limit=np.inf):
        """Edge counts from the nearest of ``starts`` to every node of ``within``."""
        starts = list(starts)
        idx, sub = self._induced(within, kind, interior, starts)
        pos = {int(i): k for k, i in enumerate(idx)}
        src = [pos[i] for i in (self.index(n) for n in starts) if i in pos]
        if not src:
            return idx, pos, np.full(len(idx), np.inf), None
        dist, pred, _ = dijkstra(sub, directed=interior is not None, indices=src, unweighted=True,
                                 limit=limit, min_only=True, return_predecessors=True)
        return idx, pos, dist, pred

    def path_exists(self, sources: Iterable[str], targets: Iterable[str],
                    within: Iterable[str] | None = None, kind: Kinds = None,
                    interior: Iterable[str] | None = None) -> bool:
        """Whether some node of ``sources`` reaches some node of ``targets`` through
        nodes of ``within`` only (ends included; a node in both sets counts), and, with
        ``interior``, passing only through nodes of ``interior`` between its ends.

        Example: occupied islands chain an orange island to a red one ⇔
        ``path_exists(orange, red, within=occupied, kind="white line")``.
        """
        wanted = [self.index(n) for n in targets]
        idx, pos, dist, _ = self._distances(sources, within, kind, interior)
        return any(t in pos and np.isfinite(dist[pos[t]]) for t in wanted)

    def reachable(self, start: str, within: Iterable[str] | None = None, kind: Kinds = None,
                  max_edges: int | None = None, interior: Iterable[str] | None = None) -> tuple[str, ...]:
        """Nodes reachable from ``start`` inside ``within`` (``start`` first, then by
        number of edges, ties in file order); ``()`` if ``start`` is not in ``within``.
        ``max_edges`` bounds the path length; ``interior`` restricts the nodes passed
        through (not ``start``, not the node reached)."""
        if interior is None and max_edges is None:
            idx, sub = self._induced(within, kind)
            pos = {int(i): k for k, i in enumerate(idx)}
            s = self.index(start)
            if s not in pos:
                return ()
            order = breadth_first_order(sub, pos[s], directed=False, return_predecessors=False)
            return tuple(self.nodes[idx[k]].name for k in order)
        limit = np.inf if max_edges is None else float(max_edges)
        idx, pos, dist, _ = self._distances([start], within, kind, interior, limit)
        found = sorted((float(dist[k]), int(idx[k])) for k in range(len(idx)) if np.isfinite(dist[k]))
        return tuple(self.nodes[i].name for _, i in found)

    def shortest_path(self, a: str, b: str, within: Iterable[str] | None = None,
                      kind: Kinds = None, interior: Iterable[str] | None = None) -> tuple[str, ...] | None:
        """A path with fewest edges from ``a`` to ``b`` (both ends included) through
        nodes of ``within`` (and, between the ends, of ``interior``), or ``None``."""
        ib = self.index(b)
        idx, pos, dist, pred = self._distances([a], within, kind, interior)
        if ib not in pos or not np.isfinite(dist[pos[ib]]):
            return None
        path = [pos[ib]]
        while pred[path[-1]] >= 0:
            path.append(int(pred[path[-1]]))
        return tuple(self.nodes[idx[j]].name for j in reversed(path))

    def distance(self, a: str, b: str, within: Iterable[str] | None = None,
                 kind: Kinds = None, interior: Iterable[str] | None = None) -> int | None:
        """Number of edges of a shortest path, or ``None`` when unreachable."""
        path = self.shortest_path(a, b, within, kind, interior)
        return None if path is None else len(path) - 1

    def vertex_cut(self, sources: Iterable[str], targets: Iterable[str],
                   within: Iterable[str] | None = None, kind: Kinds = None) -> frozenset[str]:
        """A smallest set of nodes of ``within`` (sources and targets may be among them)
        whose removal leaves no path from any source to any target inside ``within``.

        Empty when no path exists. Computed as a maximum flow (scipy) on the graph with
        every node split into an in-half and an out-half joined by capacity 1; the cut
        is read off the residual graph, so the answer is deterministic.
        Example: the islands to clear so that no chain of occupied islands joins an
        orange island to a red one.
        """
        idx, sub = self._induced(within, kind)
        pos = {int(i): k for k, i in enumerate(idx)}
        src = sorted({pos[i] for i in (self.index(n) for n in sources) if i in pos})
        dst = sorted({pos[i] for i in (self.index(n) for n in targets) if i in pos})
        if not src or not dst:
            return frozenset()
        n = len(idx)
        big = n + 1
        s_node, t_node = 2 * n, 2 * n + 1
        rows, cols, caps = [], [], []
        arcs = [(k, n + k, 1) for k in range(n)]  # in-half k -> out-half n + k
        coo = sub.tocoo()
        arcs += [(n + u, v, big) for u, v in zip(coo.row.tolist(), coo.col.tolist())]  # out-half u -> in-half v
        arcs += [(s_node, k, big) for k in src]
        arcs += [(n + k, t_node, big) for k in dst]
        rows, cols, caps = (list(x) for x in zip(*arcs))
        size = 2 * n + 2
        cap = csr_array((np.array(caps, dtype=np.int32), (np.array(rows), np.array(cols))), shape=(size, size))
        cap.sum_duplicates()
        flow = maximum_flow(cap, s_node, t_node).flow  # antisymmetric: f[v, u] == -f[u, v]
        residual = csr_array(cap - flow)
        residual.data = (residual.data > 0).astype(np.int8)  # capacity left, forward or back
        residual.eliminate_zeros()
        seen = set(breadth_first_order(residual, s_node, directed=True, return_predecessors=False).tolist())
        return frozenset(self.nodes[idx[k]].name for k in range(n) if k in seen and n + k not in seen)


def _as_edge(e) -> Edge:
    if isinstance(e, Edge):
        return e
    e = tuple(e)
    if len(e) not in (2, 3):
        raise InputError(f"edge {e!r}: expected (a, b) or (a, b, kind)")
    return Edge(*e)


def _node(raw, where: str, i: int) -> Node:
    t = Table(raw, f"{where}: node #{i + 1}")
    name = t.string("name")
    t = Table(raw, f"{where}: node '{name}'").only(NODE_FIELDS)
    attrs = []
    if "attrs" in t:
        extra = t.table("attrs")
        for key in sorted(extra.keys()):
            value = extra.data[key]
            if isinstance(value, list):
                value = extra.strings(key)
            elif not _attr_ok(value):
                raise extra.error(key, N_("a string, integer, finite number, boolean or list of strings"), value)
            attrs.append((key, value))
    return Node(
        name=name,
        kind=t.string("kind", ""),
        colour=t.string("colour", ""),
        number=t.integer("number", None),
        order=t.integer("order", None),
        capacity=t.integer("capacity", None, minimum=0),
        boxes=t.strings("boxes", ()),
        attrs=tuple(attrs),
    )


def _edge(raw, where: str, j: int) -> Edge:
    t = Table(raw, f"{where}: edge #{j + 1}").only(EDGE_FIELDS)
    ends = t.strings("between")
    if len(ends) != 2:
        raise t.error("between", N_("two node names"), list(ends))
    return Edge(ends[0], ends[1], t.string("kind", ""))


def parse_board(data: dict, source: str) -> BoardGraph:
    """Build a :class:`BoardGraph` from parsed TOML ``data``; ``source`` names it in
    errors. Raises :class:`InputError` (one line naming file, node/edge and field)."""
    top = Table(data, source).only(("board", "node", "edge"))
    head = top.table("board").only(BOARD_FIELDS)
    raw_nodes = top.list("node")
    if not raw_nodes:
        raise top.error("node", N_("at least one [[node]]"), raw_nodes)
    nodes = tuple(_node(raw, source, i) for i, raw in enumerate(raw_nodes))
    edges = tuple(_edge(raw, source, j) for j, raw in enumerate(top.list("edge", [])))
    return BoardGraph(
        name=head.string("name"),
        provenance=head.provenance(),
        notes=head.string("notes", "", nonempty=False),
        nodes=nodes,
        edges=edges,
        source=source,
        edge_kinds=head.strings("edge_kinds", None),
    )


def load_board(path: str | pathlib.Path) -> BoardGraph:
    """Load a board file (format in the module docstring). Raises :class:`InputError`."""
    return parse_board(load_toml(path), str(path))
