"""Board graphs: small immutable maps for card and board games (knows no game).

A :class:`BoardGraph` is a set of named **nodes** (areas, islands, rooftops, slots …)
joined by undirected **edges**. Each node carries validated attributes: ``kind``,
``colour``, ``number``, ``order``, ``capacity``, ``boxes`` (labels of printed boxes,
e.g. ``"GAR"``) and free-form ``attrs`` (strings, integers, finite floats, booleans or
lists of strings). Each edge has an optional ``kind`` (``"white line"``, ``"flight"`` …).
At most one edge joins two nodes.

Queries (all by node name; unknown names raise :class:`InputError`):

* :meth:`BoardGraph.neighbours`, :meth:`BoardGraph.own_or_adjacent`,
  :meth:`BoardGraph.adjacent` — optionally restricted to one edge kind;
* :meth:`BoardGraph.select` — nodes by kind / colour / box / attribute;
* :meth:`BoardGraph.next_node` — the next node by an integer attribute, wrapping around;
* :meth:`BoardGraph.components`, :meth:`BoardGraph.path_exists`,
  :meth:`BoardGraph.reachable`, :meth:`BoardGraph.shortest_path`,
  :meth:`BoardGraph.distance` — on the subgraph induced by a node subset ``within``
  (every node of a path, ends included, must lie in ``within``).

Connectivity and paths use :mod:`scipy.sparse.csgraph` (``connected_components``,
``breadth_first_order``, ``shortest_path``); nothing here walks the graph by hand.

File format (TOML, read with :func:`geometry.datafile.load_toml`)::

    [board]
    name = "islands"
    provenance = "reconstruction"     # official | measured | reconstruction
    notes = "how the map was obtained"

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
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import breadth_first_order, connected_components, shortest_path

from .datafile import Table, load_toml
from .errors import InputError

__all__ = ["Node", "Edge", "BoardGraph", "parse_board", "load_board"]

BOARD_FIELDS = ("name", "provenance", "notes")
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

    Raises :class:`InputError` (one line, prefixed by ``source`` or the board's name)
    on an empty or duplicate node name, a bad attribute type, an edge naming an unknown
    node, a self loop, or a second edge between the same two nodes.
    """

    name: str
    provenance: str
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...] = ()
    notes: str = ""
    source: str = ""
    _index: dict = field(default=None, init=False, repr=False, compare=False, hash=False)
    _matrices: dict = field(default=None, init=False, repr=False, compare=False, hash=False)
    _neighbours: dict = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self):
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

        matrices = {None: matrix(np.ones(len(rows), dtype=bool))}
        for kind in sorted(set(kinds)):
            matrices[kind] = matrix(kinds_a == kind)
        neighbours = {}
        for kind, m in matrices.items():
            neighbours[kind] = tuple(
                tuple(self.nodes[k].name for k in sorted(m.indices[m.indptr[i]:m.indptr[i + 1]]))
                for i in range(n))
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_matrices", matrices)
        object.__setattr__(self, "_neighbours", neighbours)

    # -- nodes -------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        """Node names in file order."""
        return tuple(node.name for node in self.nodes)

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

    # -- adjacency ---------------------------------------------------------------
    def _matrix(self, kind: str | None):
        if kind in self._matrices:
            return self._matrices[kind]
        return csr_array((len(self.nodes), len(self.nodes)), dtype=np.int8)

    def neighbours(self, name: str, kind: str | None = None) -> tuple[str, ...]:
        """Nodes joined to ``name`` by an edge (of ``kind`` if given), in file order."""
        i = self.index(name)
        table = self._neighbours.get(kind)
        return table[i] if table is not None else ()

    def own_or_adjacent(self, name: str, kind: str | None = None) -> tuple[str, ...]:
        """``name`` itself followed by its :meth:`neighbours`."""
        return (name,) + self.neighbours(name, kind)

    def adjacent(self, a: str, b: str, kind: str | None = None) -> bool:
        """Whether an edge (of ``kind`` if given) joins ``a`` and ``b``."""
        self.index(b)
        return b in self.neighbours(a, kind)

    def edge_kind(self, a: str, b: str) -> str | None:
        """The kind of the edge joining ``a`` and ``b`` (``""`` if untyped), or ``None``."""
        ia, ib = self.index(a), self.index(b)
        for kind, m in self._matrices.items():
            if kind is not None and m[ia, ib]:
                return kind
        return None

    def next_node(self, name: str, key: str = "order", step: int = 1,
                  among: Iterable[str] | None = None) -> str:
        """The node ``step`` places after ``name`` when the nodes having integer
        attribute ``key`` (and in ``among``, if given) are sorted by it; wraps around
        (the last is followed by the first). Ties keep file order.

        Raises :class:`InputError` if ``name`` lacks the attribute or is not in ``among``.
        """
        allowed = None if among is None else {self.index(n) for n in among}
        ranked = []
        for i, node in enumerate(self.nodes):
            value = node.attr(key)
            if isinstance(value, int) and not isinstance(value, bool) and (allowed is None or i in allowed):
                ranked.append((value, i))
        ranked.sort()
        order = [i for _, i in ranked]
        i = self.index(name)
        if i not in order:
            raise InputError(f"board '{self.name}': node {name!r} has no integer '{key}' among the nodes ranked")
        return self.nodes[order[(order.index(i) + step) % len(order)]].name

    # -- connectivity ------------------------------------------------------------
    def _subset(self, within: Iterable[str] | None) -> np.ndarray:
        """Sorted node indices of ``within`` (all nodes when ``None``)."""
        if within is None:
            return np.arange(len(self.nodes))
        return np.array(sorted({self.index(n) for n in within}), dtype=np.int64)

    def _induced(self, within, kind):
        idx = self._subset(within)
        m = self._matrix(kind)
        return idx, m[idx][:, idx] if len(idx) else csr_array((0, 0), dtype=np.int8)

    def components(self, within: Iterable[str] | None = None, kind: str | None = None) -> tuple[frozenset[str], ...]:
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

    def path_exists(self, sources: Iterable[str], targets: Iterable[str],
                    within: Iterable[str] | None = None, kind: str | None = None) -> bool:
        """Whether some node of ``sources`` reaches some node of ``targets`` through
        nodes of ``within`` only (ends included; a node in both sets counts).

        Example: occupied islands chain an orange island to a red one ⇔
        ``path_exists(orange, red, within=occupied, kind="white line")``.
        """
        idx, sub = self._induced(within, kind)
        pos = {int(i): k for k, i in enumerate(idx)}
        src = [pos[i] for i in (self.index(n) for n in sources) if i in pos]
        dst = [pos[i] for i in (self.index(n) for n in targets) if i in pos]
        if not src or not dst:
            return False
        _, labels = connected_components(sub, directed=False)
        return bool(set(labels[src].tolist()) & set(labels[dst].tolist()))

    def reachable(self, start: str, within: Iterable[str] | None = None,
                  kind: str | None = None) -> tuple[str, ...]:
        """Nodes reachable from ``start`` inside ``within`` in breadth-first order
        (``start`` first); ``()`` if ``start`` is not in ``within``."""
        idx, sub = self._induced(within, kind)
        pos = {int(i): k for k, i in enumerate(idx)}
        s = self.index(start)
        if s not in pos:
            return ()
        order = breadth_first_order(sub, pos[s], directed=False, return_predecessors=False)
        return tuple(self.nodes[idx[k]].name for k in order)

    def shortest_path(self, a: str, b: str, within: Iterable[str] | None = None,
                      kind: str | None = None) -> tuple[str, ...] | None:
        """A path with fewest edges from ``a`` to ``b`` (both ends included) through
        nodes of ``within``, or ``None`` when there is none."""
        idx, sub = self._induced(within, kind)
        pos = {int(i): k for k, i in enumerate(idx)}
        ia, ib = self.index(a), self.index(b)
        if ia not in pos or ib not in pos:
            return None
        dist, pred = shortest_path(sub, directed=False, unweighted=True, indices=pos[ia],
                                   return_predecessors=True)
        k = pos[ib]
        if not np.isfinite(dist[k]):
            return None
        path = [k]
        while path[-1] != pos[ia]:
            path.append(int(pred[path[-1]]))
        return tuple(self.nodes[idx[j]].name for j in reversed(path))

    def distance(self, a: str, b: str, within: Iterable[str] | None = None,
                 kind: str | None = None) -> int | None:
        """Number of edges of a shortest path, or ``None`` when unreachable."""
        path = self.shortest_path(a, b, within, kind)
        return None if path is None else len(path) - 1


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
                raise extra.error(key, "a string, integer, finite number, boolean or list of strings", value)
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
        raise t.error("between", "two node names", list(ends))
    return Edge(ends[0], ends[1], t.string("kind", ""))


def parse_board(data: dict, source: str) -> BoardGraph:
    """Build a :class:`BoardGraph` from parsed TOML ``data``; ``source`` names it in
    errors. Raises :class:`InputError` (one line naming file, node/edge and field)."""
    top = Table(data, source).only(("board", "node", "edge"))
    head = top.table("board").only(BOARD_FIELDS)
    raw_nodes = top.list("node")
    if not raw_nodes:
        raise top.error("node", "at least one [[node]]", raw_nodes)
    nodes = tuple(_node(raw, source, i) for i, raw in enumerate(raw_nodes))
    edges = tuple(_edge(raw, source, j) for j, raw in enumerate(top.list("edge", [])))
    return BoardGraph(
        name=head.string("name"),
        provenance=head.provenance(),
        notes=head.string("notes", "", nonempty=False),
        nodes=nodes,
        edges=edges,
        source=source,
    )


def load_board(path: str | pathlib.Path) -> BoardGraph:
    """Load a board file (format in the module docstring). Raises :class:`InputError`."""
    return parse_board(load_toml(path), str(path))
