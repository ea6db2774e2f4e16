"""True-scale PDFs, read back with pdfplumber: millimetres in the PDF are millimetres on paper.

pdfplumber reports points (1 pt = 25.4/72 mm) with ``top`` measured from the page's top
edge; line endpoints are in ``pts`` as ``(x, top)``.
"""
import pathlib

import pdfplumber
import pytest
from matplotlib.patches import Rectangle

from furball.errors import InputError
from furball.viz.true_scale import (
    CROP_GAP_MM,
    CROP_LENGTH_MM,
    MARGIN_BOTTOM_MM,
    MARGIN_LEFT_MM,
    MARGIN_TOP_MM,
    plan_true_scale,
    save_true_scale,
)

TOL_MM = 0.1  # what the issue asks for
MAGENTA = (1.0, 0.0, 1.0)  # segments drawn by the tests, easy to pick out of the PDF
GREEN = (0.0, 0.5, 0.0)


def mm(points: float) -> float:
    return points * 25.4 / 72


def colour_of(obj, key="stroking_color"):
    """A PDF object's colour as a tuple (pdfplumber gives a bare float for grey)."""
    value = obj[key]
    if value is None:
        return ()
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def segments(page, colour=None):
    """Every straight 2-point line on the page as ``((x0, top0), (x1, top1))`` in mm."""
    out = []
    for line in page.lines:
        if colour is not None and colour_of(line) != colour:
            continue
        (xa, ta), (xb, tb) = line["pts"][0], line["pts"][-1]
        out.append(((mm(xa), mm(ta)), (mm(xb), mm(tb))))
    return out


def horizontal_length(seg):
    (xa, ta), (xb, tb) = seg
    return abs(xb - xa) if abs(tb - ta) < 1e-6 else 0.0


def draw_known(ax):
    """A 44 x 60 mm rectangle and a 150 mm line, in table mm; plus settings that a
    careless picture might make and true scale must override."""
    ax.set_aspect(2, adjustable="box")
    ax.set_xlim(-500, 500)
    ax.margins(0.3)
    ax.set_title("a title that must not move anything")
    ax.set_xlabel("x (mm)")
    ax.add_patch(Rectangle((10, 10), 44, 60, fill=False, edgecolor=GREEN))
    ax.plot([0, 150], [80, 80], color=MAGENTA)


def test_a4_page_size_bar_and_known_objects_at_1_to_1(tmp_path):
    out = tmp_path / "one.pdf"
    layout = save_true_scale(draw_known, (0, 150, 0, 100), out, scale=(1, 1), paper="A4",
                             title="1:1 check")
    assert (layout.pages, layout.orientation, layout.paper_mm) == (1, "portrait", (210.0, 297.0))
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert mm(page.width) == pytest.approx(210.0, abs=TOL_MM)
        assert mm(page.height) == pytest.approx(297.0, abs=TOL_MM)

        # The test bar: the longest horizontal line in the bottom margin, 100 mm on paper.
        bottom = [s for s in segments(page) if s[0][1] > 297.0 - MARGIN_BOTTOM_MM]
        bar = max(bottom, key=horizontal_length)
        assert horizontal_length(bar) == pytest.approx(100.0, abs=TOL_MM)

        # The 150 mm line is 150 mm long, at the right place (data y=80 is 20 mm below
        # the region's top edge, which sits at the top margin).
        (line,) = segments(page, MAGENTA)
        assert horizontal_length(line) == pytest.approx(150.0, abs=TOL_MM)
        assert line[0][0] == pytest.approx(MARGIN_LEFT_MM, abs=TOL_MM)
        assert line[0][1] == pytest.approx(MARGIN_TOP_MM + 20.0, abs=TOL_MM)

        (rect,) = [r for r in page.rects if colour_of(r) == GREEN]
        assert mm(rect["width"]) == pytest.approx(44.0, abs=TOL_MM)
        assert mm(rect["height"]) == pytest.approx(60.0, abs=TOL_MM)
        assert mm(rect["x0"]) == pytest.approx(MARGIN_LEFT_MM + 10.0, abs=TOL_MM)
        assert mm(rect["top"]) == pytest.approx(MARGIN_TOP_MM + 30.0, abs=TOL_MM)

        text = page.extract_text()
        assert "100 mm on paper" in text
        assert "page 1 of 1, row 1, column 1 — scale 1:1, A4" in text
        assert "1:1 check" in text
        assert "a title that must not move anything" not in text


def test_letter_at_half_scale(tmp_path):
    out = tmp_path / "half.pdf"
    layout = save_true_scale(draw_known, (0, 150, 0, 100), out, scale=(1, 2), paper="letter")
    assert (layout.paper, layout.pages, layout.scale_text()) == ("Letter", 1, "1:2")
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        assert mm(page.width) == pytest.approx(215.9, abs=TOL_MM)
        assert mm(page.height) == pytest.approx(279.4, abs=TOL_MM)
        bottom = [s for s in segments(page) if s[0][1] > 279.4 - MARGIN_BOTTOM_MM]
        # The bar stays 100 mm on paper whatever the scale.
        assert horizontal_length(max(bottom, key=horizontal_length)) == pytest.approx(100.0, abs=TOL_MM)
        (line,) = segments(page, MAGENTA)
        assert horizontal_length(line) == pytest.approx(75.0, abs=TOL_MM)
        (rect,) = [r for r in page.rects if colour_of(r) == GREEN]
        assert (mm(rect["width"]), mm(rect["height"])) == (pytest.approx(22.0, abs=TOL_MM),
                                                          pytest.approx(30.0, abs=TOL_MM))
        assert "scale 1:2, Letter" in page.extract_text()


def draw_straddling(ax):
    """Short segments across the tile boundaries of the 400 x 300 mm region on A4 at 1:1
    (columns split at x = 277, rows at y = 122)."""
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_position([0.3, 0.3, 0.2, 0.2])
    ax.plot([272, 282], [200, 200], color=MAGENTA)  # across the column boundary
    ax.plot([100, 100], [117, 127], color=MAGENTA)  # across the row boundary


def test_tiling_crop_marks_and_abutting_tiles(tmp_path):
    out = tmp_path / "tiles.pdf"
    calls = []

    def draw(ax):
        calls.append(ax)
        draw_straddling(ax)

    layout = save_true_scale(draw, (0, 400, 0, 300), out, paper="A4")
    # Portrait (190 x 265 printable) would need 3 x 2 = 6 pages; landscape (277 x 178) 2 x 2.
    assert (layout.orientation, layout.rows, layout.columns, layout.pages) == ("landscape", 2, 2, 4)
    assert layout.printable_mm == (10.0, 22.0, 277.0, 178.0)
    assert len(calls) == 4
    assert layout.describe() == "4 pages (2 rows x 2 columns), A4 landscape, scale 1:1"

    tiles = {(t.row, t.column): t for t in layout.tiles}
    # Data windows abut exactly and cover the region.
    for r in (1, 2):
        assert tiles[r, 1].window_mm[1] == tiles[r, 2].window_mm[0]
        assert (tiles[r, 1].window_mm[0], tiles[r, 2].window_mm[1]) == (0, 400)
    for c in (1, 2):
        assert tiles[1, c].window_mm[2] == tiles[2, c].window_mm[3]
        assert (tiles[2, c].window_mm[2], tiles[1, c].window_mm[3]) == (0, 300)
    assert tiles[1, 1].window_mm == (0, 277, 122, 300)

    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 4
        for tile, page in zip(layout.tiles, pdf.pages):
            assert (mm(page.width), mm(page.height)) == (pytest.approx(297.0, abs=TOL_MM),
                                                         pytest.approx(210.0, abs=TOL_MM))
            text = page.extract_text()
            assert (f"page {tile.page} of 4, row {tile.row}, column {tile.column} "
                    f"— scale 1:1, A4") in text
            assert ("100 mm on paper" in text) == (tile.page == 1)

            # Crop marks: at each tile corner, a horizontal and a vertical mark pointing
            # away from the tile, CROP_LENGTH_MM long, starting CROP_GAP_MM off the corner.
            left, bottom, width, height = tile.rect_mm
            lines = [tuple(sorted(s)) for s in segments(page)]
            for x, dx in ((left, -1), (left + width, 1)):
                for y, dy in ((bottom, -1), (bottom + height, 1)):
                    top = 210.0 - y
                    near, far = CROP_GAP_MM, CROP_GAP_MM + CROP_LENGTH_MM
                    horizontal = tuple(sorted(((x + dx * near, top), (x + dx * far, top))))
                    vertical = tuple(sorted(((x, top - dy * near), (x, top - dy * far))))
                    for mark in (horizontal, vertical):
                        assert any(all(abs(a - b) < TOL_MM for p, q in zip(mark, s)
                                       for a, b in zip(p, q)) for s in lines), (tile, mark)

        # The straddling segments, read back from the PDF, continue exactly from one page
        # to its neighbour: the boundary maps to the right (bottom) edge of one tile and
        # the left (top) edge of the next.
        def magenta(page_no, horizontal):
            (seg,) = [s for s in segments(pdf.pages[page_no - 1], MAGENTA)
                      if (abs(s[0][1] - s[1][1]) < 1e-6) == horizontal]
            return sorted(seg)

        right_edge = MARGIN_LEFT_MM + 277.0
        for left_page, right_page in ((1, 2),):
            (a0, a1), (b0, b1) = magenta(left_page, True), magenta(right_page, True)
            assert a0[0] == pytest.approx(right_edge - 5, abs=TOL_MM)
            assert a1[0] == pytest.approx(right_edge + 5, abs=TOL_MM)
            assert b0[0] == pytest.approx(MARGIN_LEFT_MM - 5, abs=TOL_MM)
            assert b1[0] == pytest.approx(MARGIN_LEFT_MM + 5, abs=TOL_MM)
            assert a0[1] == pytest.approx(b0[1], abs=TOL_MM)  # same height on both pages
            assert a0[1] == pytest.approx(MARGIN_TOP_MM + 100, abs=TOL_MM)  # y=200: 100 below 300

        bottom_edge_from_top = MARGIN_TOP_MM + 178.0
        (a0, a1), (b0, b1) = magenta(1, False), magenta(3, False)
        ordered = lambda seg: sorted(seg, key=lambda p: p[1])  # noqa: E731
        (a0, a1), (b0, b1) = ordered((a0, a1)), ordered((b0, b1))
        assert (a0[1], a1[1]) == (pytest.approx(bottom_edge_from_top - 5, abs=TOL_MM),
                                  pytest.approx(bottom_edge_from_top + 5, abs=TOL_MM))
        assert (b0[1], b1[1]) == (pytest.approx(MARGIN_TOP_MM - 5, abs=TOL_MM),
                                  pytest.approx(MARGIN_TOP_MM + 5, abs=TOL_MM))
        assert a0[0] == pytest.approx(b0[0], abs=TOL_MM) == pytest.approx(MARGIN_LEFT_MM + 100)


def test_orientation_and_page_counts():
    # Exactly one printable area (A4 portrait: 190 x 265 mm) fits one page.
    assert plan_true_scale((0, 190, 0, 265)).pages == 1
    assert plan_true_scale((0, 190, 0, 265)).orientation == "portrait"
    # A wide region goes landscape (277 x 178 mm printable).
    wide = plan_true_scale((0, 270, 0, 170))
    assert (wide.orientation, wide.pages, wide.paper_mm) == ("landscape", 1, (297.0, 210.0))
    # Half scale halves the paper needed.
    assert plan_true_scale((0, 380, 0, 530), scale=(1, 2)).pages == 1
    assert plan_true_scale((0, 381, 0, 530), scale=(1, 2)).pages == 2
    # A 6 x 4 ft table at 1:1 on Letter.
    table = plan_true_scale((0, 1828.8, 0, 1219.2), paper="Letter")
    assert table.pages == table.rows * table.columns == len(table.tiles)
    assert [t.page for t in table.tiles] == list(range(1, table.pages + 1))
    assert table.tiles[-1].window_mm[1] == 1828.8 and table.tiles[-1].window_mm[2] == 0


def test_bad_input_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "bad.pdf"
    for kwargs in ({"paper": "A3"}, {"scale": (1, 0)}, {"scale": (-1, 1)}):
        with pytest.raises(InputError) as err:
            save_true_scale(draw_known, (0, 150, 0, 100), out, **kwargs)
        assert "\n" not in str(err.value)
    with pytest.raises(InputError, match="paper 'A3': expected one of A4, Letter"):
        plan_true_scale((0, 1, 0, 1), paper="A3")
    with pytest.raises(InputError, match="extent"):
        save_true_scale(draw_known, (0, 0, 0, 100), out)
    with pytest.raises(InputError, match=r"\.pdf"):
        save_true_scale(draw_known, (0, 150, 0, 100), tmp_path / "bad.png")
    with pytest.raises(InputError, match="pages"):
        plan_true_scale((0, 100_000, 0, 100_000))
    assert list(tmp_path.iterdir()) == []


def test_a_failing_drawing_leaves_no_file(tmp_path):
    def draw(ax):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        save_true_scale(draw, (0, 150, 0, 100), tmp_path / "x.pdf")
    assert list(tmp_path.iterdir()) == []


def test_accepts_str_path(tmp_path):
    out = str(tmp_path / "s.pdf")
    save_true_scale(draw_known, (0, 150, 0, 100), out)
    assert pathlib.Path(out).read_bytes().startswith(b"%PDF")


def test_what_draw_adds_is_clipped_to_its_tile(tmp_path):
    axes = []

    def draw(ax):
        axes.append(ax)
        ax.text(270, 150, "a label across a tile edge")
        ax.annotate("an annotation", (276, 150), xytext=(3, 3), textcoords="offset points")
        ax.plot([0, 400], [0, 300])

    save_true_scale(draw, (0, 400, 0, 300), tmp_path / "clip.pdf")
    assert len(axes) == 4
    for ax in axes:
        for artist in (*ax.texts, *ax.lines):
            assert artist.get_clip_on()
            assert artist.get_clip_box() is not None or artist.get_clip_path() is not None
        # Annotations are drawn on every page (clipped), so a label crossing a tile edge
        # shows whole once the pages are taped together.
        assert all(t.get_annotation_clip() is False for t in ax.texts if hasattr(t, "xyann"))
