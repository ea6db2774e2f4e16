"""Regenerate the pictures shown in the README.

    .venv/bin/python tools/gallery.py [OUTDIR]      # default: docs/img

Each picture is made by the same `furball` command a user would type (printed as it
runs), so the README shows exactly what the tool does. The true-scale preview needs
pdfplumber (a test dependency) to rasterise page 1 of the PDF.
"""
from __future__ import annotations

import pathlib
import sys
import tempfile

from furball.scenarios.cli import main as furball

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "scenarios" / "examples"


def run(args: list[str]) -> None:
    print("furball " + " ".join(args), flush=True)
    code = furball(args)
    if code != 0:
        raise SystemExit(code)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = pathlib.Path(argv[0] if argv else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    run(["turn", str(EXAMPLES / "furball.toml"), "--plot", str(out / "turn.png")])
    run(["turn", str(EXAMPLES / "bomber.toml"), "--seed", "4", "--margins", "--plot", str(out / "close_calls.png")])
    run(["turn", str(EXAMPLES / "duel.toml"), "--animate", str(out / "turn.gif"), "--fps", "10"])
    run(["fan", "A", "--vs", "M", "--plot", str(out / "fan.png")])
    run(["zones", str(EXAMPLES / "duel.toml"), "--plane", "Camel", "--plot", str(out / "zones.png")])
    run(["analyze", str(EXAMPLES / "duel.toml"), "--plane", "Camel", "--top", "3", "--plot", str(out / "analyze.png")])
    run(["move", "--deck", "A", "--start", "100,100,0", "--cards", "A1,A4,A8,A12", "--plot", str(out / "move.png")])
    with tempfile.TemporaryDirectory() as tmp:
        pdf = pathlib.Path(tmp) / "fan.pdf"
        run(["fan", "A", "--plot", str(pdf), "--scale", "1:1"])
        import pdfplumber

        with pdfplumber.open(pdf) as doc:
            doc.pages[0].to_image(resolution=50).save(out / "true_scale.png")
        print(f"page 1 of {pdf.name} rasterised to {out / 'true_scale.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
