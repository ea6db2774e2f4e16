"""`furball print markers`: the markers to print at true scale (docs/capture.md)."""
from __future__ import annotations

import io

from furball.errors import InputError
from furball.i18n import N_, msg, translator

from .output import PAPERS, Outputs


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser("print", help=line, description=N_("Print things to lay on a real table."))
    sub = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    m = sub.add_parser("markers", help=N_("the table-corner markers, the card mat, base stickers and the lens "
                                       "calibration sheet, at 1:1 (docs/capture.md)"),
                       description=N_("Write the markers furball capture reads, at true scale (print at 100 %%; "
                                   "page 1 carries a 100 mm test bar)."))
    m.add_argument("--paper", default="A4", help=N_("A4 or Letter (default A4)"))
    m.add_argument("--bases", default="small*4,large*2", metavar="KIND[*N],...",
                   help=N_("the sticker of each base, e.g. small,small,large or small*4,large*2 (default "
                        "small*4,large*2); stickers are numbered from each kind's first number"))
    m.add_argument("--plot", required=True, metavar="FILE.pdf", help=N_("the PDF to write"))
    m.set_defaults(func=run)


def run(args) -> int:
    from furball.capture.sheet import parse_base_list, save_marker_sheet
    from furball.viz.true_scale import PAPERS as TRUE_PAPERS

    outputs = Outputs()
    plot = outputs.claim(args.plot, (".pdf",), "--plot")
    if args.paper.strip().lower() not in {p.lower() for p in TRUE_PAPERS}:
        raise InputError(msg("--paper {value}: expected one of {choices}", value=repr(args.paper[:40]), choices=", ".join(PAPERS)))
    kinds = parse_base_list(args.bases)
    buffer = io.BytesIO()
    pages = save_marker_sheet(buffer, kinds, args.paper)
    stickers = [f"{n} ({k})" for page in pages for n, k in page.stickers]
    outputs.stage(plot, buffer.getvalue(), msg("markers, {count} pages at 1:1 ({paper})", count=len(pages), paper=args.paper))
    for line in outputs.publish(args.lang):
        print(line)
    _ = translator(args.lang)
    print(_("stickers: {stickers}; print at 100 % ('actual size') and check the 100 mm test bar").format(
        stickers=", ".join(stickers)))
    return 0
