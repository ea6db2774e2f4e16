"""The table of 1975 White Christmas as a board graph (WC.G1-WC.G5).

Nodes (:class:`geometry.board_graph.Node`):

* each rooftop (``kind="rooftop"``, ``order`` = its place in the row, left to right;
  ``capacity`` = its People spaces), WC.G1;
* its two landing slots (``kind="slot"``, same ``order``; ``attrs``: ``model`` CH-46 /
  CH-53 and ``position`` top / bottom), WC.G3;
* each round's staircase left of it (``kind="staircase"``, same ``order``), WC.G2;
* each player's carrier (``kind="carrier"``, ``number`` = the side, ``capacity`` = its
  People spaces, which grow with carrier upgrade 5), WC.G3, WC.F6.

Edges: ``landing`` (slot - rooftop), ``stairs`` (staircase - rooftop), and for each model
``flight CH-46`` / ``flight CH-53`` (carrier - slot of that model, slot - slot of that
model on another rooftop), WC.G4.

The questions of the rules are graph queries, asked once per graph and kept in the
:class:`Layout`: where a helicopter may fly (``neighbours`` over its model's flight
edges), which People a helicopter can reach (``reachable`` within 2 ``landing`` /
``stairs`` edges of its slot: the rooftop and its staircase, WC.G5), the row order
(``ranked("order")``). A table is built with :meth:`BoardGraph.build` for a set-up and
derived with :meth:`BoardGraph.with_changes` when staircases come and go each round or
a carrier grows. Layouts are memoised by what they depend on (the same set-up gives the
same immutable graph), so a game pays for each distinct graph once per process.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from furball.geometry.board_graph import BoardGraph, Node

from .components import MODELS, Model, Rooftop
from .values import evolve

__all__ = ["Layout", "build_layout", "EDGE_KINDS", "LANDING", "STAIRS", "flight_kind"]

LANDING, STAIRS = "landing", "stairs"
POSITION = {Model.CH46: "top", Model.CH53: "bottom"}
"""WC.G3: the CH-46 Sea Knight lands on the top slot, the CH-53 Sea Stallion on the bottom."""


def flight_kind(model: Model) -> str:
    """The edge kind a helicopter of ``model`` flies along (WC.G4)."""
    return f"flight {model}"


EDGE_KINDS = (LANDING, STAIRS) + tuple(flight_kind(m) for m in MODELS)
_CACHE: dict[tuple, Layout] = {}
_ANSWERS: dict[tuple, Layout] = {}
_CACHE_LIMIT = 512


def slot_name(roof: str, model: Model) -> str:
    return f"{roof}: {POSITION[model]}"


def stairs_name(roof: str) -> str:
    return f"{roof}: staircase"


def carrier_name(label: str) -> str:
    return f"{label} carrier"


@dataclass(frozen=True, eq=False)
class Layout:
    """A table graph and the answers the engine needs from it.

    ``graph``: the board graph (derived on first use: a Monte Carlo series reads only
    the answers); ``roofs``: rooftop nodes in row order; ``spaces[k]``: People spaces of
    rooftop k; ``slots[k][i]``: the slot of rooftop k for ``MODELS[i]``; ``stairs[k]``:
    its staircase node (``()`` when no staircases are out); ``carriers[side]`` and
    ``capacity[side]``: each carrier node and its People spaces; ``roof_of``: rooftop
    index of any rooftop, slot or staircase node; ``flights[(model, node, side)]``: the
    nodes a helicopter of ``side`` at ``node`` may fly to, before occupancy (its own
    carrier, slots of its model); ``reach[slot]``: ``(node, rooftop index, is_staircase)``
    of the People places a helicopter in that slot can rescue from (WC.G5). Layouts are
    memoised, so one table is one object: equality and hashing are by identity.
    """

    key: tuple = field(repr=False)
    roofs: tuple[str, ...]
    spaces: tuple[int, ...]
    slots: tuple[tuple[str, ...], ...]
    stairs: tuple[str, ...]
    carriers: tuple[str, ...]
    capacity: tuple[int, ...]
    roof_of: Mapping[str, int] = field(repr=False, compare=False)
    flights: Mapping[tuple, tuple[str, ...]] = field(repr=False, compare=False)
    reach: Mapping[str, tuple[tuple[str, int, bool], ...]] = field(repr=False, compare=False)
    source: Callable[[], BoardGraph] = field(repr=False, compare=False, default=None)

    @property
    def graph(self) -> BoardGraph:
        """The board graph of this table (derived once, on first use, by ``source``)."""
        d = self.__dict__
        if "_graph" not in d:
            d["_graph"] = self.source()
        return d["_graph"]

    @classmethod
    def from_graph(cls, graph: BoardGraph, key: tuple) -> Layout:
        """Read the layout off ``graph`` with board-graph queries (see the module doc)."""
        roofs = graph.ranked("order", among=graph.select(kind="rooftop"))
        slots, stairs, roof_of = [], [], {}
        for k, roof in enumerate(roofs):
            roof_of[roof] = k
            landing = graph.neighbours(roof, kind=LANDING)
            by_model = {graph.node(n).attr("model"): n for n in landing}
            slots.append(tuple(by_model[m.value] for m in MODELS))
            for n in landing:
                roof_of[n] = k
            for n in graph.neighbours(roof, kind=STAIRS):
                roof_of[n] = k
                stairs.append(n)
        carriers = graph.ranked("number", among=graph.select(kind="carrier"))
        flights = {}
        for i, model in enumerate(MODELS):
            kind = flight_kind(model)
            for side, own in enumerate(carriers):
                for node in (own,) + tuple(s[i] for s in slots):
                    flights[(model, node, side)] = tuple(
                        n for n in graph.neighbours(node, kind=kind)
                        if n == own or graph.node(n).kind == "slot")
        reach = {}
        people_kinds = ("rooftop", "staircase")
        for roof_slots in slots:
            for slot in roof_slots:
                found = graph.reachable(slot, kind=(LANDING, STAIRS), max_edges=2)
                reach[slot] = tuple((n, roof_of[n], graph.node(n).kind == "staircase") for n in found
                                    if graph.node(n).kind in people_kinds)
        layout = cls(key, roofs, tuple(graph.node(r).capacity for r in roofs), tuple(slots), tuple(stairs),
                     carriers, tuple(graph.node(c).capacity for c in carriers), roof_of, flights, reach)
        layout.__dict__["_graph"] = graph
        return layout

    # -- derived tables ---------------------------------------------------------------
    def with_stairs(self, present: bool) -> Layout:
        """This table with a staircase left of every rooftop (WC.G2), or with none."""
        rooftops, labels, capacity, _ = self.key

        def derive():
            if present:
                return self.graph.with_changes(
                    add_nodes=[Node(stairs_name(r), kind="staircase", order=k) for k, r in enumerate(self.roofs)],
                    add_edges=[(stairs_name(r), r, STAIRS) for r in self.roofs])
            return self.graph.with_changes(remove_nodes=self.stairs)
        return _memo((rooftops, labels, capacity, present), derive)

    def with_capacity(self, side: int, spaces: int) -> Layout:
        """This table with carrier ``side`` holding ``spaces`` People (upgrade 5, WC.F5)."""
        rooftops, labels, capacity, stairs = self.key
        new = capacity[:side] + (spaces,) + capacity[side + 1:]

        def derive():
            old = self.graph.node(self.carriers[side])
            edges = [(old.name, n, flight_kind(m)) for m in MODELS
                     for n in self.graph.neighbours(old.name, kind=flight_kind(m))]
            return self.graph.with_changes(
                remove_nodes=[old.name],
                add_nodes=[Node(old.name, kind="carrier", number=side, capacity=spaces)], add_edges=edges)
        return _memo((rooftops, labels, new, stairs), derive)

    def leftmost(self, roofs) -> tuple[int, ...]:
        """Rooftop indices of ``roofs`` sorted left to right (the row order, WC.G1)."""
        return tuple(self.roof_of[n] for n in self.graph.ranked("order", among=[self.roofs[k] for k in roofs]))


def _memo(key: tuple, derive: Callable[[], BoardGraph]) -> Layout:
    """The layout of table ``key`` = (rooftops, labels, carrier capacities, staircases
    out). Carrier capacities change none of the graph's answers, so the answers are read
    once per (rooftops, labels, staircases) and shared; the graph of another capacity is
    derived only when someone looks at it."""
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        rooftops, labels, capacity, stairs = key
        like = _ANSWERS.get((rooftops, labels, stairs))
        if like is None:
            hit = _ANSWERS[(rooftops, labels, stairs)] = Layout.from_graph(derive(), key)
        else:
            hit = evolve(like, {"key": key, "capacity": capacity, "source": derive})
            hit.__dict__.pop("_graph", None)
        _CACHE[key] = hit
    return hit


def build_layout(rooftops: tuple[Rooftop, ...], labels: tuple[str, ...], capacity: tuple[int, ...]) -> Layout:
    """The table of a new game (WC.G1, WC.G3, WC.G4): ``rooftops`` in row order, one
    carrier per side (``labels`` such as ``"P1"``; ``capacity`` People spaces each), no
    staircases yet. Built with :meth:`BoardGraph.build`."""
    key = (tuple((r.name, r.spaces) for r in rooftops), tuple(labels), tuple(capacity), False)

    def build():
        nodes, edges = [], []
        for k, roof in enumerate(rooftops):
            nodes.append(Node(roof.name, kind="rooftop", order=k, capacity=roof.spaces))
            for model in MODELS:
                slot = slot_name(roof.name, model)
                nodes.append(Node(slot, kind="slot", order=k,
                                  attrs=(("model", model.value), ("position", POSITION[model]))))
                edges.append((slot, roof.name, LANDING))
        for side, (label, spaces) in enumerate(zip(labels, capacity)):
            nodes.append(Node(carrier_name(label), kind="carrier", number=side, capacity=spaces))
        for model in MODELS:
            kind = flight_kind(model)
            slots = [slot_name(r.name, model) for r in rooftops]
            for label in labels:
                edges.extend((carrier_name(label), s, kind) for s in slots)
            edges.extend((a, b, kind) for i, a in enumerate(slots) for b in slots[i + 1:])
        return BoardGraph.build("1975 White Christmas table", nodes, edges, edge_kinds=EDGE_KINDS,
                                notes="rooftop row, landing slots, staircases and carriers (WC.G1-WC.G5)")
    return _memo(key, build)
