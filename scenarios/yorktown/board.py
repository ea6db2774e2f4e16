"""The archipelago: a checked board graph and the spatial questions of the game (YT.K1).

A map is a :class:`geometry.board_graph.BoardGraph` (file format in
``docs/board_graph.md``) with these nodes: ten ``kind = "island"`` nodes numbered
1–10, each with ``colour`` orange, red or green and ``capacity = 2``; one
``"approach"`` node (the Yorktown's approach zone); one ``"runway"`` node whose
``capacity`` is the number of planes that may land or take off per turn (YT.A2); one
``"carrier"`` node (the Shōhō) whose ``boxes`` list its ``"CAP"`` boxes; eight
``"search"`` nodes numbered 0–7 and, for each of the tracks ``"Yorktown"`` and
``"Shōhō"`` (attribute ``track``), four ``"damage"`` nodes numbered 0–3. The board
must declare its edge kinds, among them ``"white line"`` (joining islands) and
``"approach"`` (joining the approach zone to the islands that touch it).

:func:`check_map` reports the first problem as one line naming the file, the node and
the field. The shipped map ``data/archipelago.toml`` is a reconstruction.

Spatial questions are board-graph queries, pure functions of the map and the Japanese
occupancy (a bit mask over the islands, bit ``k`` for the island of number ``k + 1``)
cached in bounded least-recently-used caches (:data:`CACHE_SIZE` answers each), so the
hot loop rarely calls scipy twice for the same position. Distances between nodes are one
all-pairs table, computed when the map is checked.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import shortest_path

from furball.errors import InputError
from furball.geometry.board_graph import BoardGraph, load_board, parse_board
from furball.i18n import N_, msg

from .actions import Colour
from .shipped import DATA, shipped

__all__ = ["Archipelago", "check_map", "load_map", "default_map", "DEFAULT_MAP_PATH", "WHITE", "APPROACH",
           "ISLANDS", "SHOHO_TRACK", "YORKTOWN_TRACK"]

WHITE, APPROACH = "white line", "approach"
ISLANDS = 10
SEARCH_LEVELS = 8
DAMAGE_LEVELS = 4
YORKTOWN_TRACK, SHOHO_TRACK = "Yorktown", "Shōhō"
DEFAULT_MAP_PATH = DATA / "archipelago.toml"
CACHE_SIZE = 4096
"""Answers kept by each of the occupancy-keyed queries (located chains, cuts, double
moves, ways home): a map has at most 2**10 occupancies (double moves: a node and its
neighbours' occupancy, far fewer), so 4096 keeps every answer of a few maps."""


@dataclass(frozen=True)
class Archipelago:
    """A checked map (build it with :func:`check_map`).

    Islands are referred to by their **position** ``k`` = number − 1 (0–9) in every
    per-island tuple of the game state; planes stand on graph **nodes** (node indices).
    ``island_node[k]`` / ``island_of[node]`` convert (``None`` for a non-island);
    ``names``/``colours`` per island; ``orange``/``red``/``green``: island positions;
    ``approach``, ``runway``, ``carrier``: node indices; ``runway_places``;
    ``cap_boxes``; ``touching``: islands touching the approach zone; ``search_nodes``,
    ``yorktown_nodes``, ``shoho_nodes``: track nodes by level; ``steps[node]``: the
    nodes one white line or approach edge away; ``labels[node]``: its name for logs;
    ``near_mask[node]``: its neighbouring islands as a bit mask; ``hops[a][b]``: steps
    along white lines and approach edges between two nodes (``None``: no way).
    """

    graph: BoardGraph
    island_node: tuple[int, ...]
    island_of: tuple[int | None, ...]
    names: tuple[str, ...]
    colours: tuple[Colour, ...]
    orange: tuple[int, ...]
    red: tuple[int, ...]
    green: tuple[int, ...]
    approach: int
    runway: int
    runway_places: int
    carrier: int
    cap_boxes: int
    touching: tuple[int, ...]
    search_nodes: tuple[int, ...]
    yorktown_nodes: tuple[int, ...]
    shoho_nodes: tuple[int, ...]
    steps: tuple[tuple[int, ...], ...] = field(repr=False)
    labels: tuple[str, ...] = field(repr=False)
    near_mask: tuple[int, ...] = field(repr=False)
    hops: tuple[tuple[int | None, ...], ...] = field(repr=False)

    # -- names ---------------------------------------------------------------
    @property
    def name(self) -> str:
        """The board's name."""
        return self.graph.name

    def node_name(self, node: int) -> str:
        """The name of a node, with its number for an island (``"9 Guadalcanal"``)."""
        return self.labels[node]

    def island(self, text: str | int) -> int:
        """An island's position from its number or name. Raises :class:`InputError`."""
        for k, name in enumerate(self.names):
            if str(text) in (name, str(k + 1)):
                return k
        raise InputError(msg("map '{map}': unknown island {island} (islands 1-{islands})", map=self.name,
                             island=repr(text), islands=ISLANDS))

    # -- cached spatial queries ------------------------------------------------
    def __hash__(self) -> int:
        """The map's name: cheap, as maps are part of the keys of the query caches
        (equal maps hash alike; two different maps of one name are told apart by ``==``)."""
        return hash(self.graph.name)

    def _names(self, islands) -> list[str]:
        return [self.names[k] for k in islands]

    def occupied(self, mask: int) -> list[int]:
        """Island positions set in an occupancy ``mask``."""
        return [k for k in range(ISLANDS) if mask >> k & 1]

    def located(self, mask: int) -> bool:
        """YT.R1: Japanese-occupied islands (``mask``) chain an orange island to a red
        one along the white lines (a board-graph path query on the occupied islands)."""
        return _located(self, mask)

    def cut(self, mask: int) -> tuple[int, ...]:
        """Islands of a smallest set whose clearing breaks every orange-to-red chain of
        occupied islands (board-graph ``vertex_cut``); ``()`` when not located."""
        return _cut(self, mask)

    def doubles(self, node: int, mask: int, invisible: bool = False) -> tuple[int, ...]:
        """YT.A8(b): islands two steps away (white lines and approach edges) whose middle
        island holds no Japanese plane (any island with ``invisible``), excluding the
        start and its neighbours (a board-graph ``reachable`` with ``interior``; cached by
        the occupancy of the start's neighbours, the only islands it depends on)."""
        return _doubles(self, node, 0 if invisible else mask & self.near_mask[node], invisible)

    def homeward(self, mask: int) -> frozenset[int]:
        """Islands joined to the approach zone through islands holding no Japanese plane
        (one board-graph ``reachable`` query per occupancy, cached)."""
        return _homeward(self, mask)

    def can_return(self, node: int, mask: int, invisible: bool = False) -> bool:
        """YT.A8(c), engine convention: a path from ``node`` to the approach zone whose
        islands after the start hold no Japanese plane — ``node`` touches the approach
        zone, or one of its neighbours is :meth:`homeward` (with ``invisible``, any)."""
        if node == self.approach or self.island_of[node] is None:
            return False
        if self.island_of[node] in self.touching:
            return True
        home = self.homeward(0 if invisible else mask)
        return any(self.island_of[n] in home for n in self.steps[node] if self.island_of[n] is not None)

    def distance(self, a: int, b: int) -> int | None:
        """Steps along white lines and approach edges between two nodes (``None``: no way)."""
        return self.hops[a][b]


@lru_cache(maxsize=CACHE_SIZE)
def _located(board: Archipelago, mask: int) -> bool:
    occ = board._names(board.occupied(mask))
    return bool(occ) and board.graph.path_exists(board._names(board.orange), board._names(board.red), within=occ,
                                                 kind=WHITE)


@lru_cache(maxsize=CACHE_SIZE)
def _cut(board: Archipelago, mask: int) -> tuple[int, ...]:
    occ = board._names(board.occupied(mask))
    found = board.graph.vertex_cut(board._names(board.orange), board._names(board.red), within=occ,
                                   kind=WHITE) if occ else frozenset()
    return tuple(sorted(board.island(n) for n in found))


@lru_cache(maxsize=CACHE_SIZE)
def _doubles(board: Archipelago, node: int, local: int, invisible: bool) -> tuple[int, ...]:
    g = board.graph
    free = [board.names[k] for k in range(ISLANDS) if invisible or not local >> k & 1]
    near = set(board.steps[node]) | {node}
    found = g.reachable(g.nodes[node].name, kind=(WHITE, APPROACH), max_edges=2, interior=free)
    return tuple(sorted(i for i in (g.index(n) for n in found) if i not in near and board.island_of[i] is not None))


@lru_cache(maxsize=CACHE_SIZE)
def _homeward(board: Archipelago, mask: int) -> frozenset[int]:
    g = board.graph
    zone = g.nodes[board.approach].name
    free = [board.names[k] for k in range(ISLANDS) if not mask >> k & 1]
    return frozenset(board.island_of[g.index(n)] for n in g.reachable(zone, within=free + [zone],
                                                                       kind=(WHITE, APPROACH)) if n != zone)


def _where(graph: BoardGraph) -> str:
    return graph.source or f"board '{graph.name}'"


def check_map(graph: BoardGraph) -> Archipelago:
    """Check a board graph as a Yorktown map (YT.K1; requirements in the module doc).
    Raises :class:`InputError`: one line naming the file, the node and the field."""
    where = _where(graph)
    if graph.edge_kinds is None:
        raise InputError(msg("{where}: board: field 'edge_kinds': expected the declared edge kinds, among them "
                             "'{white}' and '{approach}' (an undeclared kind must be an error, not 'no edges')",
                             where=where, white=WHITE, approach=APPROACH))
    for kind in (WHITE, APPROACH):
        if kind not in graph.edge_kinds:
            raise InputError(msg("{where}: board: field 'edge_kinds': expected {kind} among the declared kinds, "
                                 "got {kinds}", where=where, kind=repr(kind), kinds=str(list(graph.edge_kinds))))
    by_number: dict[int, int] = {}
    for i, node in enumerate(graph.nodes):
        if node.kind != "island":
            continue
        if node.number is None or not 1 <= node.number <= ISLANDS:
            raise InputError(msg("{where}: node '{node}': field 'number': expected an island number 1-{islands}, "
                                 "got {value}", where=where, node=node.name, islands=ISLANDS,
                                 value=repr(node.number)))
        if node.number in by_number:
            raise InputError(msg("{where}: node '{node}': field 'number': island number {number} is already used "
                                 "by '{other}'", where=where, node=node.name, number=node.number,
                                 other=graph.nodes[by_number[node.number]].name))
        if node.colour not in tuple(Colour):
            raise InputError(msg("{where}: node '{node}': field 'colour': expected one of orange, red, green, got "
                                 "{value}", where=where, node=node.name, value=repr(node.colour)))
        if node.capacity != 2:
            raise InputError(msg("{where}: node '{node}': field 'capacity': expected 2 (at most 2 Japanese planes, "
                                 "YT.R4), got {value}", where=where, node=node.name, value=repr(node.capacity)))
        by_number[node.number] = i
    if len(by_number) != ISLANDS:
        missing = [n for n in range(1, ISLANDS + 1) if n not in by_number]
        raise InputError(msg("{where}: field 'node': expected islands numbered 1-{islands}, missing {missing}",
                             where=where, islands=ISLANDS, missing=str(missing)))
    island_node = tuple(by_number[n] for n in range(1, ISLANDS + 1))
    colours = tuple(Colour(graph.nodes[i].colour) for i in island_node)
    wanted = ((Colour.GREEN, lambda n: n == 4,
               N_("{where}: field 'colour': expected exactly 4 (one per weather tile) green islands, got {count}")),
              (Colour.RED, lambda n: n >= 2,
               N_("{where}: field 'colour': expected at least 2 (two planes start on red islands) red islands, "
                  "got {count}")),
              (Colour.ORANGE, lambda n: n >= 1, N_("{where}: field 'colour': expected at least 1 orange islands, "
                                                   "got {count}")))
    for colour, test, line in wanted:
        count = colours.count(colour)
        if not test(count):
            raise InputError(msg(line, where=where, count=count))

    def one(kind: str) -> int:
        found = [i for i, n in enumerate(graph.nodes) if n.kind == kind]
        if len(found) != 1:
            raise InputError(msg("{where}: field 'kind': expected exactly one node of kind {kind}, got {count}",
                                 where=where, kind=repr(kind), count=len(found)))
        return found[0]

    approach, runway, carrier = one("approach"), one("runway"), one("carrier")
    places = graph.nodes[runway].capacity
    if places is None or places < 1:
        raise InputError(msg("{where}: node '{node}': field 'capacity': expected the runway's places, an integer "
                             ">= 1 (YT.A2), got {value}", where=where, node=graph.nodes[runway].name,
                             value=repr(places)))
    boxes = graph.nodes[carrier].boxes
    if any(b != "CAP" for b in boxes):
        raise InputError(msg("{where}: node '{node}': field 'boxes': expected only 'CAP' boxes, got {value}",
                             where=where, node=graph.nodes[carrier].name, value=str(list(boxes))))
    search = _track(graph, "search", None, SEARCH_LEVELS)
    yorktown = _track(graph, "damage", YORKTOWN_TRACK, DAMAGE_LEVELS)
    shoho = _track(graph, "damage", SHOHO_TRACK, DAMAGE_LEVELS)
    islands = set(island_node)
    for j, e in enumerate(graph.edges):
        a, b = graph.index(e.a), graph.index(e.b)
        if e.kind == WHITE and not (a in islands and b in islands):
            raise InputError(msg("{where}: edge #{edge}: field 'kind': a '{white}' must join two islands, got "
                                 "{a}-{b}", where=where, edge=j + 1, white=WHITE, a=repr(e.a), b=repr(e.b)))
        if e.kind == APPROACH and not (approach in (a, b) and (b if a == approach else a) in islands):
            raise InputError(msg("{where}: edge #{edge}: field 'kind': an '{approach}' edge must join the approach "
                                 "zone to an island, got {a}-{b}", where=where, edge=j + 1, approach=APPROACH,
                                 a=repr(e.a), b=repr(e.b)))
    names = tuple(graph.nodes[i].name for i in island_node)
    touching = tuple(sorted(k for k, i in enumerate(island_node)
                            if graph.adjacent(graph.nodes[approach].name, names[k], kind=APPROACH)))
    if not touching:
        raise InputError(msg("{where}: field 'edge': expected at least one '{approach}' edge joining the approach "
                             "zone to an island", where=where, approach=APPROACH))
    orange = tuple(k for k, c in enumerate(colours) if c == Colour.ORANGE)
    red = tuple(k for k, c in enumerate(colours) if c == Colour.RED)
    if not graph.path_exists([names[k] for k in orange], [names[k] for k in red], within=names, kind=WHITE):
        raise InputError(msg("{where}: field 'edge': expected white lines chaining an orange island to a red one "
                             "(YT.R1), found none", where=where))
    reach = set(graph.reachable(graph.nodes[approach].name, within=list(names) + [graph.nodes[approach].name],
                                kind=(WHITE, APPROACH)))
    for k, name in enumerate(names):
        if name not in reach:
            raise InputError(msg("{where}: node '{node}': field 'edge': island {island} cannot be reached from the "
                                 "approach zone along white lines", where=where, node=name, island=k + 1))
    island_of = tuple(island_node.index(i) if i in islands else None for i in range(len(graph.nodes)))
    steps = tuple(tuple(graph.index(n) for n in graph.neighbours(node.name, kind=(WHITE, APPROACH)))
                  for node in graph.nodes)
    hops = _hops(steps)
    return Archipelago(graph=graph, island_node=island_node, island_of=island_of, names=names, colours=colours,
                       orange=orange, red=red, green=tuple(k for k, c in enumerate(colours) if c == Colour.GREEN),
                       approach=approach, runway=runway, runway_places=places, carrier=carrier,
                       cap_boxes=len(boxes), touching=touching, search_nodes=search, yorktown_nodes=yorktown,
                       shoho_nodes=shoho, steps=steps,
                       labels=tuple(f"{island_of[i] + 1} {n.name}" if island_of[i] is not None else
                                    ("the " + n.name if n.kind in ("approach", "runway") else n.name)
                                    for i, n in enumerate(graph.nodes)),
                       near_mask=tuple(sum(1 << island_of[j] for j in steps[i] if island_of[j] is not None)
                                       for i in range(len(graph.nodes))), hops=hops)


def _hops(steps: tuple[tuple[int, ...], ...]) -> tuple[tuple[int | None, ...], ...]:
    """All-pairs step counts over the adjacency ``steps`` (scipy's unweighted shortest
    paths, one call); ``None`` where there is no way."""
    n = len(steps)
    rows = [i for i, near in enumerate(steps) for _ in near]
    cols = [j for near in steps for j in near]
    dist = shortest_path(csr_array((np.ones(len(rows)), (rows, cols)), shape=(n, n)), unweighted=True)
    return tuple(tuple(int(d) if np.isfinite(d) else None for d in row) for row in dist)


def _track(graph: BoardGraph, kind: str, track: str | None, levels: int) -> tuple[int, ...]:
    where = _where(graph)
    found: dict[int, int] = {}
    label = f"{track} {kind}" if track else kind
    for i, node in enumerate(graph.nodes):
        if node.kind != kind or (track is not None and node.attr("track") != track):
            continue
        if node.number is None or not 0 <= node.number < levels or node.number in found:
            raise InputError(msg("{where}: node '{node}': field 'number': expected a distinct {track} level "
                                 "0-{top}, got {value}", where=where, node=node.name, track=label, top=levels - 1,
                                 value=repr(node.number)))
        found[node.number] = i
    if kind == "damage":
        for node in graph.nodes:
            if node.kind == "damage" and node.attr("track") not in (YORKTOWN_TRACK, SHOHO_TRACK):
                raise InputError(msg("{where}: node '{node}': attrs: field 'track': expected '{yorktown}' or "
                                     "'{shoho}', got {value}", where=where, node=node.name, yorktown=YORKTOWN_TRACK,
                                     shoho=SHOHO_TRACK, value=repr(node.attr("track"))))
    if len(found) != levels:
        raise InputError(msg("{where}: field 'node': expected {levels} '{track}' nodes numbered 0-{top}, got "
                             "{count}", where=where, levels=levels, track=label, top=levels - 1, count=len(found)))
    return tuple(found[n] for n in range(levels))


def load_map(path: str | pathlib.Path) -> Archipelago:
    """Load and check a map file. Raises :class:`InputError`."""
    return check_map(load_board(path))


@lru_cache(maxsize=1)
def default_map() -> Archipelago:
    """The shipped reconstruction ``scenarios/yorktown/data/archipelago.toml``."""
    return shipped("archipelago.toml", lambda data, source: check_map(parse_board(data, source)))
