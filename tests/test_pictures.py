"""Pictures: what is drawn (artists, not pixels) for every shipped scenario and command."""
import pathlib

import pdfplumber
import pytest
from matplotlib.colors import to_hex
from PIL import Image

from furball.maneuvers import shipped_decks
from furball.maneuvers.fan import fan
from furball.scenarios.cli import main
from furball.scenarios.dogfight import adjudicate, load_scenario
from furball.viz import api, style
from furball.viz.animate import moments, write_turn_animation
from furball.viz.picture import render
from furball.viz.turn import Moment, turn_picture


def run_turn(s):
    return adjudicate(s.table, s.orders, seed=s.seed, policy=s.policy)

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "scenarios" / "examples").glob("*.toml"))
MM_PER_PT = 25.4 / 72


def tagged(fig, prefix):
    return [a for ax in fig.axes for a in ax.get_children() if (a.get_gid() or "").startswith(prefix)]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_turn_picture_draws_every_base_label_and_side_colour(example):
    result = run_turn(load_scenario(example))
    fig = api.figure("turn", result)
    ax = fig.axes[0]
    planes = result.before.planes
    starts = tagged(fig, "base:")
    moved = sum(len(m.moves) for m in result.maneuvers)
    assert len([a for a in starts if a.get_gid().endswith(":0")]) == len(planes)
    assert len(starts) == len(planes) + moved
    colours = style.side_colours(p.side for p in planes)
    side = {p.name: p.side for p in planes}
    for patch in starts:
        name = patch.get_gid().split(":")[1]
        assert to_hex(patch.get_edgecolor()) == colours[side[name]]
    texts = " ".join(t.get_text() for t in ax.texts)
    for p in planes:
        assert p.name in texts
    for m in result.maneuvers[-1:]:
        for mv in m.moves:
            assert f"{mv.plane} ▲{mv.altitude}" in texts  # altitude shown
    assert result.before.name in ax.get_title() and f"turn {result.before.turn}" in ax.get_title()
    assert ax.get_xlabel() == "x (mm)" and ax.get_ylabel() == "y (mm)" and ax.get_aspect() == 1.0
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert set(colours) <= set(legend) and "tail kept" in legend
    rulers = tagged(fig, "tail-ruler:")
    assert len(rulers) == len(result.tails) + sum(len(m.tail_checks) for m in result.maneuvers)
    overlaps = sum(len(m.overlaps) for m in result.maneuvers)
    assert len(tagged(fig, "overlap:")) == 2 * overlaps


def test_a_moment_of_the_turn_shows_live_bases_and_the_maneuver_in_its_title():
    result = run_turn(load_scenario(ROOT / "scenarios" / "examples" / "furball.toml"))
    fig = render(turn_picture(result, Moment(1, 0.5)))
    assert "maneuver 1" in fig.axes[0].get_title()
    assert len(tagged(fig, "base:") ) >= len(result.before.planes)
    assert len([a for a in tagged(fig, "base:") if a.get_gid().endswith(":now")]) == 4
    assert tagged(fig, "tail-ruler:kept")


@pytest.mark.slow
def test_animation_writes_a_gif_with_one_frame_per_moment(tmp_path):
    result = run_turn(load_scenario(ROOT / "scenarios" / "examples" / "duel.toml"))
    path = tmp_path / "turn.gif"
    n = write_turn_animation(result, path, fps=5, dpi=40, move_frames=2, hold_frames=1)
    assert n == len(moments(result, 2, 1)) == 9
    with Image.open(path) as gif:
        assert gif.n_frames == 9


def test_fan_draws_every_card_and_twins_share_a_colour():
    deck = shipped_decks()["A"]
    f = fan(deck, __import__("furball.maneuvers").maneuvers.shipped_bases()["small"])
    fig = api.figure("fan", (f,))
    cards = {a.get_gid().split(":")[2]: a for a in tagged(fig, "card:A:")}
    assert set(cards) == set(deck.ids)
    for card in deck:
        if card.twin:
            assert to_hex(cards[card.id].get_edgecolor()) == to_hex(cards[card.twin].get_edgecolor())
    assert to_hex(cards["A1"].get_edgecolor()) != to_hex(cards["A4"].get_edgecolor())
    labels = {t.get_text() for t in fig.axes[0].texts}
    assert set(deck.ids) <= labels


def test_fan_cli_with_vs_draws_both_decks_side_by_side(tmp_path, capsys):
    png = tmp_path / "fan.png"
    assert main(["fan", "A", "--vs", "M", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "deck A" in out and "deck M" in out and png.read_bytes()[:4] == b"\x89PNG"
    M = shipped_decks()["M"]
    fig = api.figure("fan", tuple(fan(d, __import__("furball.maneuvers").maneuvers.shipped_bases()[d.base]) for d in
                                  (shipped_decks()["A"], M)))
    a_x = [a.get_path().vertices[:, 0].mean() for a in tagged(fig, "card:A:")]
    m_x = [a.get_path().vertices[:, 0].mean() for a in tagged(fig, "card:M:")]
    assert max(a_x) < min(m_x)  # side by side, not on top of each other


def test_zones_cli_prints_and_draws(tmp_path, capsys):
    png = tmp_path / "zones.png"
    code = main(["zones", str(ROOT / "scenarios" / "examples" / "duel.toml"), "--plane", "Camel",
                 "--plot", str(png)])
    out = capsys.readouterr().out
    assert code == 0 and "Albatros: can be tailed" in out and png.exists()
    code = main(["zones", str(ROOT / "scenarios" / "examples" / "duel.toml"), "--plane", "Nobody"])
    assert code == 2 and "--plane 'Nobody'" in capsys.readouterr().err


@pytest.mark.parametrize("paper, size_mm", [("A4", (210.0, 297.0)), ("Letter", (215.9, 279.4))])
def test_true_scale_from_the_cli_pages_and_test_bar_measure_true(tmp_path, capsys, paper, size_mm):
    pdf = tmp_path / "turn.pdf"
    example = ROOT / "scenarios" / "examples" / "duel.toml"
    assert main(["turn", str(example), "--plot", str(pdf), "--scale", "1:1", "--paper", paper]) == 0
    assert "true-scale PDF" in capsys.readouterr().out
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            dims = sorted((page.width * MM_PER_PT, page.height * MM_PER_PT))
            assert dims == pytest.approx(sorted(size_mm), abs=0.1)
        first = doc.pages[0]
        bottom = [ln for ln in first.lines if abs(ln["y0"] - ln["y1"]) < 0.01
                  and (first.height - ln["top"]) * MM_PER_PT < 22.0]
        bar = max(abs(ln["x1"] - ln["x0"]) for ln in bottom) * MM_PER_PT
        assert bar == pytest.approx(100.0, abs=0.1)


def test_scale_needs_a_pdf_and_mp4_needs_ffmpeg(tmp_path, capsys):
    example = str(ROOT / "scenarios" / "examples" / "duel.toml")
    assert main(["turn", example, "--plot", str(tmp_path / "x.png"), "--scale", "1:1"]) == 2
    assert "give --plot FILE.pdf" in capsys.readouterr().err
    assert main(["move", "--deck", "A", "--cards", "A1", "--plot", str(tmp_path / "x.pdf"), "--scale", "1:0"]) == 2
    assert "--scale" in capsys.readouterr().err
    from matplotlib import animation
    if not animation.writers.is_available("ffmpeg"):
        assert main(["turn", example, "--animate", str(tmp_path / "x.mp4")]) == 2
        assert "ffmpeg" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_turn_picture_shows_every_shot_fired_card_drawn_and_plane_lost():
    """Issue #21: the pictures show every damage card drawn and every plane lost (DF.D3, DF.D5)."""
    import dataclasses

    from planes import RULES, plane, table

    from furball.scenarios.dogfight import adjudicate

    stay = ["A13"] * 3
    t = table(plane("Camel", 400, 400, 0, side="Allies", damage_points=3),
              plane("Albatros", 490, 400, 180, side="Central"), rules=dataclasses.replace(RULES, steep_sequencing=False))
    result = adjudicate(t, {"Camel": stay, "Albatros": stay}, seed=4)
    assert result.lost and result.damage
    fig = api.figure("turn", result)
    assert tagged(fig, "fired:Camel:Albatros:1") and tagged(fig, "fired:Albatros:Camel:1")
    hit = {a.get_gid().split(":")[2] for a in tagged(fig, "label:damage:")}
    assert hit == {d.plane for d in result.damage}
    lost = result.lost[0].plane
    assert tagged(fig, f"lost:{lost}:") and tagged(fig, f"label:lost:{lost}")
    text = " ".join(a.get_text() for a in tagged(fig, "label:damage:"))
    assert all(d.card.id in text for d in result.damage if d.card is not None)


def test_issue_27_the_turn_picture_marks_every_close_call():
    """docs/margins.md: with margins, each close call gets a ring and a label naming the
    ruling, its deciding margin and flip chance; none without close calls."""
    from furball.scenarios.dogfight.margins import turn_margins

    s = load_scenario(pathlib.Path(__file__).parent.parent / "scenarios" / "examples" / "bomber.toml")
    result = adjudicate(s.table, s.orders, seed=4, policy=s.policy)
    margins = turn_margins(result, seed=4)
    assert margins.close_calls
    fig = render(api.picture("turn-margins", (result, margins)))
    rings = [a for a in tagged(fig, "close-call:")]
    assert len(rings) == len(margins.close_calls)
    labels = tagged(fig, "label:close-call:")
    assert all("flips" in a.get_text() for a in labels) and len(labels) == len(rings)
    quiet = turn_margins(result, close_call=0.99, flips=True, seed=4)
    assert not tagged(render(api.picture("turn-margins", (result, quiet))), "close-call:")


@pytest.mark.slow
def test_issue_27_zones_cli_draws_the_close_call_band(tmp_path, capsys):
    """`furball zones --close-calls`: the band's area is printed and the band drawn."""
    import dataclasses

    from furball.maneuvers.zones import tail_close_band, zones

    png = tmp_path / "zones.png"
    code = main(["zones", str(ROOT / "scenarios" / "examples" / "duel.toml"), "--plane", "Camel", "--close-calls",
                 "--placement-error", "0.5mm,0.5deg", "--plot", str(png)])
    out = capsys.readouterr().out
    assert code == 0 and "close calls (flip chance above 5% with 0.5 mm, 0.5 deg" in out and png.exists()
    assert "shot close calls (no shot, long or short; DF.O2, DF.D3" in out
    s = load_scenario(ROOT / "scenarios" / "examples" / "duel.toml")
    z = zones(s.table.plane("Camel"), s.table.planes, s.table.rules)
    z = dataclasses.replace(z, close_band=tail_close_band(z, s.table.planes, step_mm=4.0, samples=100),
                            close_call=0.05)
    assert tagged(render(api.picture("zones", z)), "close-band")


def test_issue_27_zones_picture_draws_the_shot_close_band_with_its_legend_entry():
    """The shot close-call band (DF.D3) is drawn with its own colour and legend entry,
    only when found."""
    import dataclasses

    import shapely

    from furball.maneuvers.zones import zones

    s = load_scenario(ROOT / "scenarios" / "examples" / "duel.toml")
    z = zones(s.table.plane("Camel"), s.table.planes, s.table.rules)
    band = shapely.box(440, 400, 460, 440)
    fig = render(api.picture("zones", dataclasses.replace(z, shot_band=band, close_call=0.05)))
    assert tagged(fig, "shot-close-band")
    labels = [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    assert "shot close call (target stand): flips above 5%" in labels
    plain = render(api.picture("zones", z))
    assert not tagged(plain, "shot-close-band")
    assert not any("shot close call" in t.get_text() for ax in plain.axes if ax.get_legend()
                   for t in ax.get_legend().get_texts())
