"""`furball capture`: real tables and maneuver cards read from photos (docs/capture.md).

* ``furball capture table PHOTO [--fleet FILE] [--table WxH] [--camera FILE] [--out S.toml]
  [--plot FILE] [--json]``: each tagged base's pose with its 95 % uncertainty; a measured
  scenario for ``furball turn --margins``.
* ``furball capture calibrate PHOTOS... --out CAMERA.toml``: a lens calibration from photos
  of the printed ChArUco sheet.
* ``furball capture card IMAGE --deck FILE --card ID ...``: a maneuver card's motion
  fitted to points of its arrow, written into a deck file.
"""
from __future__ import annotations

import json
import pathlib

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, N_, Lang, msg, translator

from .output import PLOT_FORMATS, Outputs


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser("capture", help=line, description=N_("Read a real table or maneuver card from a photo "
                                                                "(docs/capture.md)."))
    sub = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    t = sub.add_parser("table", help=N_("each tagged base's pose, with its uncertainty, from a photo of the table"),
                       description=N_("Find the markers of `furball print markers` in a photo of the table and measure "
                                   "each tagged base's pose (x, y, heading) with its 95 % uncertainty."))
    t.add_argument("photo", help=N_("the photo (JPEG or PNG)"))
    t.add_argument("--fleet", metavar="FILE", help=N_("which plane wears which sticker (TOML; default: planes P<n>)"))
    t.add_argument("--table", default="900x900", metavar="WxH",
                   help=N_("the play area whose corners carry the corner markers, mm (default 900x900)"))
    t.add_argument("--camera", metavar="FILE", help=N_("a lens calibration (furball capture calibrate)"))
    t.add_argument("--out", metavar="SCENARIO.toml", help=N_("write the measured table as a scenario file"))
    t.add_argument("--plot", metavar="FILE", help=N_("draw the bases found over the rectified photo (.png, .svg, .pdf)"))
    t.add_argument("--json", action="store_true", help=N_("print the result as JSON"))
    t.set_defaults(func=run_table)
    c = sub.add_parser("calibrate", help=N_("a lens calibration from photos of the printed ChArUco sheet"),
                       description=N_("Calibrate the camera's lens from 3 or more photos of the ChArUco sheet of "
                                   "`furball print markers`, flat, from different angles."))
    c.add_argument("photos", nargs="+", help=N_("the photos (JPEG or PNG)"))
    c.add_argument("--out", required=True, metavar="CAMERA.toml", help=N_("the calibration file to write"))
    c.set_defaults(func=run_calibrate)
    k = sub.add_parser("card", help=N_("a maneuver card's motion from a photo or scan, into a deck file"),
                       description=N_("Fit a maneuver card's motion (straight, arc, or the deck card's own path of "
                                   "several segments) to points of its arrow and write it, with provenance "
                                   "measured, into a deck file."))
    k.add_argument("image", help=N_("the card on the printed card mat (JPEG or PNG), or a flat scan"))
    k.add_argument("--deck", required=True, metavar="FILE", help=N_("the deck file to read and write"))
    k.add_argument("--card", required=True, metavar="ID", help=N_("the card's id in the deck"))
    k.add_argument("--dpi", type=float, help=N_("the image is a flat scan at this resolution (no card mat)"))
    k.add_argument("--points", metavar="X,Y;X,Y;...",
                   help=N_("pixels of the image: the start line's two ends, then points along the arrow's centre "
                        "line to its end (default: the arrow found automatically, where the card's printing "
                        "allows; when it is not found, the command says so and asks for the points)"))
    k.add_argument("--end-line", metavar="X,Y;X,Y", help=N_("pixels: the two ends of the arrow's end line (gives the "
                                                         "turn; default: along the last points)"))
    k.add_argument("--out", metavar="DECK.toml", help=N_("write the deck here instead of over --deck"))
    k.set_defaults(func=run_card)


def run_table(args) -> int:
    from furball.capture.camera import load_camera
    from furball.capture.fleet import load_fleet
    from furball.capture.table import capture_table

    outputs = Outputs()
    outputs.protect(args.photo, args.fleet, args.camera)
    out = outputs.claim(args.out, (".toml",), "--out")
    plot = outputs.claim(args.plot, PLOT_FORMATS, "--plot")
    from furball.capture.table import parse_table_size

    width, height = parse_table_size(args.table)
    fleet = load_fleet(args.fleet) if args.fleet else None
    camera = load_camera(args.camera) if args.camera else None
    from furball.capture.camera import read_gray

    gray, label = read_gray(args.photo)
    captured = capture_table(gray, fleet, width_mm=width, height_mm=height, camera=camera, name=label)
    if out is not None and not captured.names:
        raise InputError(msg("{photo}: no tagged base found: expected at least one base with a tag in view to write a "
                             "scenario", photo=captured.photo))
    if out is not None:
        from furball.capture.scenario import captured_scenario
        from furball.scenarios.dogfight import scenario_toml

        scenario = captured_scenario(captured)
        outputs.stage(out, scenario_toml(scenario, out.parent).encode("utf-8"), msg("measured scenario"))
    if plot is not None:
        from furball.capture.plot import captured_picture

        outputs.stage(plot, captured_picture(gray, captured, plot.suffix.lstrip(".").lower()), msg("plot"))
    written = outputs.publish(args.lang)
    if args.json:
        print(json.dumps(captured.to_json(), indent=2))
    else:
        print(table_text(captured, args.lang))
        for line in written:
            print(line)
    return 0


FOCAL_SOURCES = (N_("calibrated"), N_("estimated"), N_("default"))
"""Where a capture's focal length comes from (``Captured.focal_source``), for the catalog."""


def table_text(captured, lang: Lang | str = DEFAULT_LANG) -> str:
    """The captured bases, one line each, with their 95 % uncertainty, in ``lang``."""
    _ = translator(lang)
    plane, sticker, base, x, y, heading = _("plane"), _("sticker"), _("base"), _("x mm"), _("y mm"), _("heading")
    uncertainty = _("95 % uncertainty")
    lines = [_("{photo}: {count} bases found on a {width} x {height} mm table (tilt {tilt} deg, {scale} mm per pixel, "
               "corner noise {noise} px, focal length {focal})").format(
                 photo=captured.photo, count=len(captured.names), width=format(captured.width_mm, "g"),
                 height=format(captured.height_mm, "g"), tilt=format(captured.tilt_deg, ".0f"),
                 scale=format(captured.mm_per_px, ".2f"), noise=format(captured.noise_px, ".2f"),
                 focal=_(captured.focal_source)),
             f"  {plane:<14}{sticker:>8}  {base:<6}{x:>9}{y:>9}{heading:>9}   {uncertainty}"]
    for n, s, k, p, u, t in zip(captured.names, captured.stickers, captured.kinds, captured.poses,
                                captured.half_width_95(), captured.tags_seen):
        tags = _("1 tag") if t == 1 else _("{count} tags").format(count=t)
        lines.append(f"  {n[:13]:<14}{s:>8}  {_(k):<6}{p[0]:9.2f}{p[1]:9.2f}{p[2]:9.2f}   +-{u[0]:.2f} mm, "
                     f"+-{u[1]:.2f} mm, +-{u[2]:.2f} deg ({tags})")
    if captured.not_found:
        lines.append("  " + _("not found (no tag seen: move the miniature or the camera): {stickers}").format(
            stickers=", ".join(captured.not_found)))
    return "\n".join(lines)


def run_calibrate(args) -> int:
    from furball.capture.camera import calibrate, camera_toml

    outputs = Outputs()
    outputs.protect(*args.photos)
    out = outputs.claim(args.out, (".toml",), "--out")
    camera = calibrate(args.photos)
    outputs.stage(out, camera_toml(camera).encode("utf-8"), msg("lens calibration"))
    for line in outputs.publish(args.lang):
        print(line)
    print(f"{camera.photos} photos, {camera.size[0]}x{camera.size[1]} px: focal length {camera.matrix[0, 0]:.1f} px, "
          f"reprojection error {camera.reprojection_px:.2f} px (RMS)")
    return 0


def _points(text: str, option: str, least: int) -> list[tuple[float, float]]:
    out = []
    for part in str(text).split(";"):
        x, sep, y = part.partition(",")
        try:
            out.append((float(x), float(y)))
        except ValueError:
            raise InputError(msg("{option} {value}: expected X,Y;X,Y;... pixel coordinates", option=option,
                                 value=repr(text[:60]))) from None
    if len(out) < least:
        raise InputError(msg("{option} {value}: expected at least {least} points", option=option, value=repr(text[:60]),
                             least=least))
    return out


def run_card(args) -> int:
    from furball.capture.card import capture_card, deck_with_card, find_arrow

    deck_path = pathlib.Path(args.deck)
    outputs = Outputs()
    outputs.protect(args.image)
    out = outputs.claim(args.out or args.deck, (".toml",), "--out")
    points = _points(args.points, "--points", 4) if args.points else None
    end_line = _points(args.end_line, "--end-line", 2)[:2] if args.end_line else None
    if args.dpi is not None and not 50 <= args.dpi <= 10_000:
        raise InputError(msg("--dpi {value}: expected 50 to 10000 dots per inch", value=format(args.dpi, "g")))
    how = "marked"
    if points is None:  # found automatically, or one line saying it was not (ArrowNotFound): never guessed
        found, found_end = find_arrow(args.image, dpi=args.dpi)
        points, end_line, how = found.tolist(), (end_line if end_line is not None else found_end.tolist()), "found"
    from furball.maneuvers.deck import find_deck

    deck = find_deck(str(deck_path))
    card = next((c for c in deck.cards if c.id == args.card), None)
    if card is None:
        raise InputError(msg("{deck}: card {card}: expected one of {choices}", deck=deck_path, card=format(repr(args.card), ".40"),
                             choices=deck.ids_text()))
    fit = capture_card(args.image, points, end_line=end_line, dpi=args.dpi, template=card.path)
    text = deck_with_card(deck_path, args.card, fit, pathlib.Path(args.image).name)
    outputs.stage(out, text.encode("utf-8"), msg("deck with card {card} measured", card=args.card))
    for line in outputs.publish(args.lang):
        print(line)
    _ = translator(args.lang)
    print((_("arrow found automatically: ") if how == "found" else "") + fit.describe(args.lang))
    return 0
