"""The general board-graph drawing (viz.board) and the pictures drawn with it: the
Yorktown archipelago (YT.K1) and the Canuck map — what is drawn (artists), not pixels."""
from matplotlib.colors import to_hex
from yorktown_helpers import japanese, position, started

from furball.geometry.board_graph import BoardGraph, Node
from furball.scenarios.canuck.state import new_game as canuck_game
from furball.scenarios.engine import play_game
from furball.scenarios.yorktown import YORKTOWN, default_map
from furball.viz import api
from furball.viz.board import COLOURS, EdgeStyle, NodeStyle, Token, draw_board, positions
from furball.viz.draw import new_axes


def tagged(fig, prefix):
    return [a for ax in fig.axes for a in ax.get_children() if (a.get_gid() or "").startswith(prefix)]


def test_positions_come_from_attrs_and_missing_ones_go_on_a_circle():
    g = BoardGraph.build("g", [Node("a", attrs=(("x", 0), ("y", 0))), Node("b", attrs=(("x", 100), ("y", 50))),
                               Node("c"), Node("d")], [("a", "b"), ("b", "c", "road")])
    pos = positions(g)
    assert pos["a"] == (0.0, 0.0) and pos["b"] == (100.0, 50.0)
    assert pos["c"] != pos["d"] and all(abs(v) < 1000 for xy in pos.values() for v in xy)


def test_draw_board_draws_every_node_edge_and_token_with_styles():
    g = BoardGraph.build("g", [Node("a", colour="orange", attrs=(("x", 0), ("y", 0))),
                               Node("b", kind="port", attrs=(("x", 60), ("y", 0)))],
                         [("a", "b", "road")])
    fig, ax = new_axes()
    draw_board(ax, g, lambda n: NodeStyle("square" if n.kind == "port" else "circle", 10),
               {"road": EdgeStyle("#123456", 2.0)}, [Token("a", "X", "red"), Token("a", "Y", "blue")],
               background="#0000ff")
    nodes = tagged(fig, "node:")
    assert {a.get_gid() for a in nodes} == {"node:a", "node:b"}
    assert to_hex(tagged(fig, "node:a")[0].get_facecolor()) == COLOURS["orange"]
    edge = tagged(fig, "edge:")[0]
    assert edge.get_gid() == "edge:a|b" and to_hex(edge.get_color()) == "#123456"
    tokens = tagged(fig, "token:a:")
    assert len(tokens) == 2 and tokens[0].get_xydata()[0].tolist() != tokens[1].get_xydata()[0].tolist()
    assert tagged(fig, "board:background")
    fig, ax = new_axes()
    draw_board(ax, g, lambda n: None if n.kind == "port" else NodeStyle(), {"road": None})
    assert len(tagged(fig, "node:")) == 1 and not tagged(fig, "edge:")


def test_YT_K1_the_archipelago_picture_shows_islands_lines_planes_and_tracks():
    s = position(started(3), jp=japanese(i9=["Kate", "Jake"], i1=["Zeke"]), cap=1, search=4, yorktown=1)
    fig = api.figure("yorktown", s)
    m = default_map()
    assert len(tagged(fig, "node:")) == len(m.graph.nodes)
    for k, _i in enumerate(m.island_node):
        patch = tagged(fig, f"node:{m.names[k]}")[0]
        assert to_hex(patch.get_facecolor()) == COLOURS[m.colours[k]]
    white = [a for a in tagged(fig, "edge:") if to_hex(a.get_color()) == "#ffffff"]
    assert len(white) == sum(1 for e in m.graph.edges if e.kind == "white line")
    assert {a.get_gid() for a in tagged(fig, "token:Guadalcanal:")} == {"token:Guadalcanal:K",
                                                                         "token:Guadalcanal:J"}
    allied = [a for a in tagged(fig, "token:") if a.get_gid().split(":")[2].startswith("D")]
    assert len(allied) == 4
    assert tagged(fig, "token:search 4:S") and tagged(fig, "token:Yorktown damage 1:Y")
    assert tagged(fig, "token:Shōhō:Z") and tagged(fig, "token:Shōhō damage 0:H")
    ax = fig.axes[0]
    assert "yorktown" in ax.get_title() and "coral sea" in ax.get_title()
    assert "Kate (K)" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_the_final_position_of_a_game_is_drawn():
    record = play_game(YORKTOWN, 2, "heuristic", keep_log=False)
    fig = api.figure("yorktown", record.final)
    assert "game over" in fig.axes[0].get_title()


def test_the_canuck_map_is_drawn_with_garrisons_and_counters():
    s = canuck_game(5)
    fig = api.figure("canuck", s)
    assert len(tagged(fig, "node:")) == len(s.board.areas)
    garrisons = [a for a in tagged(fig, "token:") if a.get_gid().split(":")[2].isdigit()]
    assert len(garrisons) == sum(1 for g in s.garrison if g)
    leaders = [a for a in tagged(fig, "token:") if a.get_gid().endswith(":L")]
    assert len(leaders) == sum(s.leaders)
    xs = {tagged(fig, f"node:{name}")[0].get_x() for name in s.board.areas}
    assert len(xs) == 4  # the 4 x 3 grid of the map data
