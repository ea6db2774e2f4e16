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
derived with :meth:`BoardGraph.with_changes` when staircases come and go each round.
A table is a pure function of its :data:`TableKey` (rooftops, carriers' labels and
capacities, staircases out or not), so layouts and graphs are kept in bounded caches
keyed by it (public values only): a series of games pays for each distinct table once.
Carrier capacities change none of the answers, so the answers are read once per
rooftops, labels and staircases, and the graph of another capacity is built only when
someone looks at it.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from furball.geometry.board_graph import BoardGraph, Node
from furball.i18n import N_

from .components import ENGLISH, MODELS, Model, Rooftop

__all__ = ["Layout", "build_layout", "EDGE_KINDS", "LANDING", "STAIRS", "flight_kind"]

LANDING, STAIRS = "landing", "stairs"
POSITION = {Model.CH46: "top", Model.CH53: "bottom"}
"""WC.G3: the CH-46 Sea Knight lands on the top slot, the CH-53 Sea Stallion on the bottom."""


def flight_kind(model: Model) -> str:
    """The edge kind a helicopter of ``model`` flies along (WC.G4)."""
    return f"flight {model}"


EDGE_KINDS = (LANDING, STAIRS) + tuple(flight_kind(m) for m in MODELS)
TableKey = tuple[tuple[tuple[str, int], ...], tuple[str, ...], tuple[int, ...], bool]
"""What a table depends on: ``((rooftop name, spaces), ...)`` in row order, the sides'
labels, their carriers' People spaces, and whether the staircases are out."""
TABLES_KEPT = 512
"""Layouts kept (one per set-up, carrier capacities and staircases out or not)."""


def slot_name(roof: str, model: Model) -> str:
    return f"{roof}: {POSITION[model]}"


def stairs_name(roof: str) -> str:
    return f"{roof}: staircase"


def carrier_name(label: str) -> str:
    return f"{label} carrier"


_PLACES = {"top": N_("{roof}: top"), "bottom": N_("{roof}: bottom"), "staircase": N_("{roof}: staircase")}
"""A rooftop's slot or staircase node (:func:`slot_name`, :func:`stairs_name`) as text."""


def place(node: str, _=ENGLISH) -> str:
    """Node ``node`` (its name: ``US Embassy: top``, ``P2 carrier``, a rooftop's own
    name) as a reader reads it, with ``_`` (a reader's :func:`~furball.i18n.translator`;
    English, the name itself, by default). A rooftop's and a side's names are kept."""
    roof, sep, where = node.rpartition(": ")
    if sep and where in _PLACES:
        return _(_PLACES[where]).format(roof=roof)
    if node.endswith(" carrier"):
        return _("{side} carrier").format(side=node[:-len(" carrier")])
    return node


@dataclass(frozen=True, eq=False)
class Layout:
    """A table graph and the answers the engine needs from it.

    ``key``: the :data:`TableKey`; ``graph``: the board graph (built on first use: a
    Monte Carlo series reads only the answers); ``roofs``: rooftop nodes in row order; ``spaces[k]``: People spaces of
    rooftop k; ``slots[k][i]``: the slot of rooftop k for ``MODELS[i]``; ``stairs[k]``:
    its staircase node (``()`` when no staircases are out); ``carriers[side]`` and
    ``capacity[side]``: each carrier node and its People spaces; ``roof_of``: rooftop
    index of any rooftop, slot or staircase node; ``flights[(model, node, side)]``: the
    nodes a helicopter of ``side`` at ``node`` may fly to, before occupancy (its own
    carrier, slots of its model); ``reach[slot]``: ``(node, rooftop index, is_staircase)``
    of the People places a helicopter in that slot can rescue from (WC.G5). Layouts are
    kept by key (:func:`layout`), so one table is usually one object: equality and
    hashing are by identity, which costs nothing in the caches keyed by a table.
    """

    key: TableKey = field(repr=False)
    roofs: tuple[str, ...]
    spaces: tuple[int, ...]
    slots: tuple[tuple[str, ...], ...]
    stairs: tuple[str, ...]
    carriers: tuple[str, ...]
    capacity: tuple[int, ...]
    roof_of: Mapping[str, int] = field(repr=False, compare=False)
    flights: Mapping[tuple, tuple[str, ...]] = field(repr=False, compare=False)
    reach: Mapping[str, tuple[tuple[str, int, bool], ...]] = field(repr=False, compare=False)

    @cached_property
    def graph(self) -> BoardGraph:
        """The board graph of this table (built on first use, :func:`table_graph`)."""
        return table_graph(self.key)

    @classmethod
    def from_graph(cls, graph: BoardGraph, key: TableKey) -> Layout:
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
        return cls(key, roofs, tuple(graph.node(r).capacity for r in roofs), tuple(slots), tuple(stairs),
                   carriers, tuple(graph.node(c).capacity for c in carriers), roof_of, flights, reach)

    # -- derived tables ---------------------------------------------------------------
    def with_stairs(self, present: bool) -> Layout:
        """This table with a staircase left of every rooftop (WC.G2), or with none."""
        rooftops, labels, capacity, _ = self.key
        return layout((rooftops, labels, capacity, present))

    def with_capacity(self, side: int, spaces: int) -> Layout:
        """This table with carrier ``side`` holding ``spaces`` People (upgrade 5, WC.F5)."""
        rooftops, labels, capacity, stairs = self.key
        return layout((rooftops, labels, capacity[:side] + (spaces,) + capacity[side + 1:], stairs))

    def leftmost(self, roofs) -> tuple[int, ...]:
        """Rooftop indices of ``roofs`` sorted left to right (the row order, WC.G1)."""
        return tuple(self.roof_of[n] for n in self.graph.ranked("order", among=[self.roofs[k] for k in roofs]))


@lru_cache(maxsize=TABLES_KEPT)
def table_graph(key: TableKey) -> BoardGraph:
    """The board graph of table ``key`` (WC.G1-WC.G4): built with
    :meth:`BoardGraph.build` without staircases; with them, derived from that one with
    :meth:`BoardGraph.with_changes` (WC.G2)."""
    rooftops, labels, capacity, stairs = key
    if stairs:
        roofs = [name for name, _ in rooftops]
        return table_graph((rooftops, labels, capacity, False)).with_changes(
            add_nodes=[Node(stairs_name(r), kind="staircase", order=k) for k, r in enumerate(roofs)],
            add_edges=[(stairs_name(r), r, STAIRS) for r in roofs])
    nodes, edges = [], []
    for k, (roof, spaces) in enumerate(rooftops):
        nodes.append(Node(roof, kind="rooftop", order=k, capacity=spaces))
        for model in MODELS:
            slot = slot_name(roof, model)
            nodes.append(Node(slot, kind="slot", order=k, attrs=(("model", model.value), ("position", POSITION[model]))))
            edges.append((slot, roof, LANDING))
    for side, (label, spaces) in enumerate(zip(labels, capacity)):
        nodes.append(Node(carrier_name(label), kind="carrier", number=side, capacity=spaces))
    for model in MODELS:
        kind = flight_kind(model)
        slots = [slot_name(roof, model) for roof, _ in rooftops]
        for label in labels:
            edges.extend((carrier_name(label), s, kind) for s in slots)
        edges.extend((a, b, kind) for i, a in enumerate(slots) for b in slots[i + 1:])
    return BoardGraph.build("1975 White Christmas table", nodes, edges, edge_kinds=EDGE_KINDS,
                            notes="rooftop row, landing slots, staircases and carriers (WC.G1-WC.G5)")


@lru_cache(maxsize=TABLES_KEPT)
def _answers(rooftops, labels, stairs: bool) -> Layout:
    """The layout read off the graph of these rooftops, labels and staircases, its
    carriers' capacities left unset (no answer depends on them)."""
    key = (rooftops, labels, (None,) * len(labels), stairs)
    return Layout.from_graph(table_graph(key), key)


@lru_cache(maxsize=TABLES_KEPT)
def layout(key: TableKey) -> Layout:
    """The layout of table ``key`` (its graph built only when read)."""
    rooftops, labels, capacity, stairs = key
    return dataclasses.replace(_answers(rooftops, labels, stairs), key=key, capacity=capacity)


def build_layout(rooftops: tuple[Rooftop, ...], labels: tuple[str, ...], capacity: tuple[int, ...]) -> Layout:
    """The table of a new game (WC.G1, WC.G3, WC.G4): ``rooftops`` in row order, one
    carrier per side (``labels`` such as ``"P1"``; ``capacity`` People spaces each), no
    staircases yet."""
    return layout((tuple((r.name, r.spaces) for r in rooftops), tuple(labels), tuple(capacity), False))
