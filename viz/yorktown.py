"""The archipelago of 1942 USS Yorktown: islands in their colours on the sea, the white
lines, Japanese and Allied planes, the approach zone and runway, the Shōhō with its CAP,
the weather tiles (face down until searched), and the search and damage tracks with
their markers — one drawing description (:func:`yorktown_sketch`, a
:class:`~viz.sketch.Sketch`) that ``furball play yorktown --plot`` draws with matplotlib
and a room's page draws as SVG."""
from __future__ import annotations

import functools

from furball.geometry.board_graph import Node
from furball.i18n import ENGLISH
from furball.scenarios.yorktown.actions import PLANES, PlaneType, plane_name
from furball.scenarios.yorktown.board import SHOHO_TRACK, YORKTOWN_TRACK

from . import style
from .board import COLOURS, EdgeStyle, NodeStyle, Token, board_extent, board_shapes
from .picture import Picture
from .sketch import LegendEntry, Sketch, mark, text

__all__ = ["yorktown_sketch", "yorktown_picture", "SEA", "JAPANESE", "ALLIED"]

SEA = "#1f4e79"
JAPANESE = {PlaneType.JAKE: "#e74c3c", PlaneType.KATE: "#922b21", PlaneType.ZEKE: "#f5b7b1"}
ALLIED = "#5dade2"
MARKER = "#f1c40f"
WEATHER = "#d5d8dc"
TEXT = "white"
EDGES = {"white line": EdgeStyle("white", 2.2), "approach": EdgeStyle("#aed6f1", 1.4, "--"),
         "deck": EdgeStyle("#d5d8dc", 2.0), "track": EdgeStyle("#d5d8dc", 0.8, ":")}


def _node_style(node: Node, _=ENGLISH) -> NodeStyle | None:
    if node.kind == "island":
        return NodeStyle("circle", 15, label=f"{node.number} {node.name}", edge="white", text=TEXT)
    if node.kind == "approach":
        return NodeStyle("box", 10, face="#aed6f1", label=_("approach zone (USS Yorktown)"), width=70, height=16,
                         text=TEXT)
    if node.kind == "runway":
        return NodeStyle("box", 8, face="#abb2b9", label=_("runway ({n} places)").format(n=node.capacity), width=46,
                         height=12, text=TEXT)
    if node.kind == "carrier":
        return NodeStyle("box", 10, face="#566573", label=_("IJN Shōhō ({n} CAP boxes)").format(n=len(node.boxes)),
                         width=48, height=16, text=TEXT)
    if node.kind == "search":
        return NodeStyle("square", 6, face="#fdfefe", label=str(node.number), font=style.FONT_SIZE - 2, text=TEXT)
    if node.kind == "damage":
        return NodeStyle("square", 6, face="#fadbd8", label=str(node.number), font=style.FONT_SIZE - 2, text=TEXT)
    return NodeStyle(text=TEXT)


def _tokens(s) -> list[Token]:
    board = s.setup.board
    g = board.graph
    out = []
    for k, planes in enumerate(s.japanese):
        for t in planes:
            out.append(Token(board.names[k], t.value[0], JAPANESE[t], "^", "black" if t == PlaneType.ZEKE else "white"))
    for p in range(PLANES):
        if s.loc[p] is not None:
            out.append(Token(g.nodes[s.loc[p]].name, f"D{p + 1}", ALLIED, "o", "black"))
    carrier = g.nodes[board.carrier].name
    out += [Token(carrier, "Z", JAPANESE[PlaneType.ZEKE], "^", "black") for _ in range(s.cap)]
    out.append(Token(g.nodes[board.search_nodes[s.search]].name, "S", MARKER, "s", "black"))
    out.append(Token(g.nodes[board.yorktown_nodes[s.yorktown]].name, "Y", MARKER, "s", "black"))
    out.append(Token(g.nodes[board.shoho_nodes[s.shoho]].name, "H", MARKER, "s", "black"))
    return out


def _tips(s, _=ENGLISH) -> dict[str, str]:
    board = s.setup.board
    g = board.graph
    here: dict[int, list[str]] = {}
    for p in range(PLANES):
        if s.loc[p] is not None:
            here.setdefault(s.loc[p], []).append(_("{plane} (fuel {fuel})").format(plane=plane_name(p), fuel=s.fuel[p]))
    out = {}
    for k, name in enumerate(board.names):
        node = board.island_node[k]
        japanese = ", ".join(str(t) for t in s.japanese[k]) or _("no Japanese planes")
        allied = "; ".join(here.get(node, [])) or _("no Dauntless")
        island = _("{colour} island").format(colour=_(board.colours[k]))
        out[name] = f"{k + 1} {name} ({island}): {japanese}; {allied}"
    for node in (board.approach, board.runway, board.carrier):
        name = g.nodes[node].name
        out[name] = f"{_(name)}: " + ("; ".join(here.get(node, [])) or _("no Dauntless"))
        if node == board.carrier:
            out[name] += "; " + _("{n} Zeke(s) on CAP").format(n=s.cap)
    return out


def yorktown_sketch(s, _=ENGLISH) -> Sketch:
    """The drawing of a Yorktown position (its observation: the state; a weather tile is
    drawn face down, ``?``, until it is searched): islands ``node:NAME``, planes
    ``token:NODE:LABEL`` (Japanese ``J``/``K``/``Z``, Dauntless ``D1``-``D4``, CAP Zekes
    ``Z`` on the Shōhō, the markers ``S``, ``Y``, ``H`` on their tracks), weather tiles
    ``weather:NAME``. Its words read through ``_`` (a reader's translator)."""
    board = s.setup.board
    graph = board.graph
    if s.over is not None:  # the engine's first outcome entry, its words read through _
        template, args = s.outcome_entries()[0]
        outcome = _(template).format(*(_(a) if isinstance(a, str) else a for a in args))
    else:
        outcome = _("turn {turn}").format(turn=s.turn)
    clock = _("clock {time}").format(time=f"{s.clock // 60}:{s.clock % 60:02d}")
    title = style.title("yorktown", board.name, extra=f"{outcome}; {clock}")
    shapes = board_shapes(graph, functools.partial(_node_style, _=_), EDGES, _tokens(s), background=SEA,
                          tips=_tips(s, _))
    for node, words in ((board.search_nodes[0], _("search track")),
                        (board.yorktown_nodes[0], _("{track} damage").format(track=YORKTOWN_TRACK)),
                        (board.shoho_nodes[0], _("{track} damage").format(track=SHOHO_TRACK))):
        n = graph.nodes[node]
        shapes.append(text(n.attr("x") - 12, n.attr("y") + 9, words, font=style.FONT_SIZE - 1, colour="white",
                           anchor="start", valign="bottom", z=5))
    for k, name in enumerate(board.names):
        weather = s.weather[k]
        if weather is None:
            continue
        n = graph.nodes[board.island_node[k]]
        shown = s.revealed[k]
        shapes.append(mark(f"weather:{name}", n.attr("x") + 13, n.attr("y") + 13, "D",
                           _(str(weather))[:1].upper() if shown else "?", fill=WEATHER if not shown else "#fdfefe",
                           stroke="#000000", width=0.6, size=11.0, colour="black", font=style.FONT_SIZE - 2, bold=True,
                           z=7, tip=_("weather: {weather}").format(weather=_(str(weather))) if shown
                           else _("a weather tile, face down")))
    legend = [LegendEntry(_("{colour} island").format(colour=_(c)), COLOURS[c]) for c in ("orange", "green", "red")]
    legend += [LegendEntry(_("white line"), stroke="white", line=True),
               LegendEntry(_("Dauntless (D1-D4)"), ALLIED, marker="o")]
    legend += [LegendEntry(f"{t} ({t.value[0]})", JAPANESE[t], marker="^") for t in PlaneType]
    legend.append(LegendEntry(_("markers: search S, damage Y / H"), MARKER, marker="s"))
    if any(w is not None for w in s.weather):
        legend.append(LegendEntry(_("weather tile (? face down)"), WEATHER, marker="D"))
    return Sketch(title, board_extent(graph, 55.0), tuple(shapes), tuple(legend))


def yorktown_picture(s) -> Picture:
    """The picture of a Yorktown state (:class:`scenarios.yorktown.State`): :func:`yorktown_sketch`."""
    from .sketch_draw import sketch_picture

    return sketch_picture(yorktown_sketch(s))
