"""The Operation Canuck map on the board-graph module (CN.K6).

A Canuck map is a :class:`geometry.board_graph.BoardGraph` whose nodes are areas. An
area's ``boxes`` say what is printed in it: ``"GAR"`` (an Axis garrison die),
``"BASE"`` or ``"BASE*"`` (a Partisan Base box; ``BASE*`` also marks a default set-up
area, CN.S3). A valid map has exactly 6 GAR boxes, 6 BASE boxes of which 4 are
BASE*, at most one box of each type per area, an area named ``Alba``, and every area
joined to Alba by edges (a map with no edges, or an island cut off, is refused).

Source: the shipped map ``scenarios/canuck/data/canuck_map.toml`` is a
reconstruction (the real map is not in the rules); a user can load their own file.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from furball.errors import InputError
from furball.geometry.board_graph import BoardGraph, load_board
from furball.i18n import msg

__all__ = ["CanuckMap", "load_map", "default_map", "DEFAULT_MAP_PATH", "ALBA", "GAR_AREAS", "BASE_AREAS",
           "BASE_STAR_AREAS"]

ALBA = "Alba"
GAR_AREAS = 6
"""Areas with a GAR box (an Axis garrison die) on a map (CN.K6)."""
BASE_AREAS = 6
"""Areas with a BASE box, BASE* included (CN.K6)."""
BASE_STAR_AREAS = 4
"""Of the BASE areas, those marked BASE* (CN.K6; the default set-up's, CN.S3)."""
GAR, BASE, BASE_STAR = "GAR", "BASE", "BASE*"
DEFAULT_MAP_PATH = resources.files("furball.scenarios.canuck") / "data" / "canuck_map.toml"


@dataclass(frozen=True)
class CanuckMap:
    """A validated Canuck map: the graph plus area indices used by the engine.

    ``areas``: area names in file order (the index of an area in every per-area tuple
    of the game state); ``gar``/``base``/``base_star``: indices of areas with those
    boxes; ``alba``: Alba's index; ``near[i]``: indices of area i's neighbours.
    """

    graph: BoardGraph
    areas: tuple[str, ...]
    gar: tuple[int, ...]
    base: tuple[int, ...]
    base_star: tuple[int, ...]
    alba: int
    near: tuple[tuple[int, ...], ...]

    @classmethod
    def from_graph(cls, graph: BoardGraph) -> CanuckMap:
        """Check the Canuck requirements (CN.K6). Raises :class:`InputError` naming the
        file and field."""
        where = graph.source or f"board '{graph.name}'"
        for node in graph.nodes:
            for box in node.boxes:
                if box not in (GAR, BASE, BASE_STAR):
                    raise InputError(msg("{where}: node '{node}': field 'boxes': expected 'GAR', 'BASE' or 'BASE*', "
                                         "got {value}", where=where, node=node.name, value=repr(box)))
            if node.boxes.count(GAR) > 1 or node.boxes.count(BASE) + node.boxes.count(BASE_STAR) > 1:
                raise InputError(msg("{where}: node '{node}': field 'boxes': expected at most one GAR and one "
                                     "BASE/BASE* box per area, got {value}", where=where, node=node.name,
                                     value=str(list(node.boxes))))
        gar = tuple(i for i, n in enumerate(graph.nodes) if GAR in n.boxes)
        base = tuple(i for i, n in enumerate(graph.nodes) if BASE in n.boxes or BASE_STAR in n.boxes)
        star = tuple(i for i, n in enumerate(graph.nodes) if BASE_STAR in n.boxes)
        for what, found, want in (("GAR", gar, GAR_AREAS), ("BASE or BASE*", base, BASE_AREAS),
                                  ("BASE*", star, BASE_STAR_AREAS)):
            if len(found) != want:
                raise InputError(msg("{where}: field 'boxes': expected exactly {want} areas with a {box} box (CN.K6), "
                                     "got {count}", where=where, want=want, box=what, count=len(found)))
        if ALBA not in graph:
            raise InputError(msg("{where}: field 'node': expected an area named '{area}' (CN.K6)", where=where,
                                 area=ALBA))
        cut_off = [n for n in graph.names if n not in set(graph.reachable(ALBA))]
        if cut_off:  # Sweeps reach their own or an adjacent area (CN.F2c): the map must hold together
            areas = ", ".join(repr(n) for n in cut_off[:4])
            if len(cut_off) > 4:
                raise InputError(msg("{where}: field 'edge': expected every area joined to Alba by edges (CN.K6, "
                                     "CN.F2c), but {areas} and more cannot be reached", where=where, areas=areas))
            raise InputError(msg("{where}: field 'edge': expected every area joined to Alba by edges (CN.K6, "
                                 "CN.F2c), but {areas} cannot be reached", where=where, areas=areas))
        areas = graph.names
        index = {name: i for i, name in enumerate(areas)}
        near = tuple(tuple(index[n] for n in graph.neighbours(name)) for name in areas)
        return cls(graph, areas, gar, base, star, index[ALBA], near)

    def area(self, name: str) -> int:
        """The index of area ``name``. Raises :class:`InputError` listing the areas."""
        try:
            return self.areas.index(name)
        except ValueError:
            raise InputError(msg("map '{map}': unknown area {area} (areas: {areas})", map=self.graph.name,
                                 area=repr(name), areas=", ".join(self.areas))) from None

    def boxes(self, i: int) -> str:
        """A short label of area i's boxes, e.g. ``"GAR"`` or ``"BASE*"``."""
        return "+".join(self.graph.nodes[i].boxes)


def load_map(path: str | pathlib.Path) -> CanuckMap:
    """Load and check a Canuck map file. Raises :class:`InputError`."""
    return CanuckMap.from_graph(load_board(path))


@lru_cache(maxsize=1)
def default_map() -> CanuckMap:
    """The shipped reconstruction ``scenarios/canuck/data/canuck_map.toml``."""
    from furball.geometry.board_graph import parse_board
    from furball.geometry.datafile import parse_toml
    text = DEFAULT_MAP_PATH.read_text(encoding="utf-8")
    return CanuckMap.from_graph(parse_board(parse_toml(text, "scenarios/canuck/data/canuck_map.toml"),
                                            "scenarios/canuck/data/canuck_map.toml"))
