"""Render a set of synthetic table photos with their truth (docs/capture.md).

    .venv/bin/python tools/render_capture_photos.py OUTDIR [--photos 20] [--size 4000x3000]
        [--bases 6] [--max-tilt 35] [--no-distortion] [--seed 0]

Each photo (furball.capture.synthetic): a 900 x 900 mm table with the four corner markers
and tagged bases at random, a camera at 0-35 degrees of tilt from any side (8-12 MP with
the default size), blur up to 1.5 px, noise, JPEG 70-95, radial lens distortion,
miniatures over the bases and random occluders, one base in four hidden whole. Writes
``photo-NN.jpg`` and ``photo-NN.json`` (the truth: stickers, poses, hidden bases, the
camera) for each; ``furball capture table photo-NN.jpg`` reads one back.
"""
from __future__ import annotations

import argparse
import json
import pathlib

import numpy as np

from furball.capture.synthetic import random_layout, random_shot, render_table_photo


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--photos", type=int, default=20)
    ap.add_argument("--size", default="4000x3000")
    ap.add_argument("--bases", type=int, default=6)
    ap.add_argument("--max-tilt", type=float, default=35.0)
    ap.add_argument("--no-distortion", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    out = pathlib.Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    size = tuple(int(v) for v in args.size.split("x"))
    rng = np.random.default_rng(args.seed)
    for i in range(args.photos):
        numbers, poses = random_layout(rng, 900.0, 900.0, args.bases)
        shot = random_shot(rng, size, args.max_tilt, distortion=not args.no_distortion)
        shot = type(shot)(**{**shot.__dict__, "hide": tuple(n for n in numbers if rng.uniform() < 0.25)})
        photo = render_table_photo(numbers, poses, shot, seed=int(rng.integers(1 << 31)))
        (out / f"photo-{i:02d}.jpg").write_bytes(photo.data)
        truth = {"table": {"width_mm": 900.0, "height_mm": 900.0},
                 "bases": [{"sticker": int(n), "pose": {"x_mm": p[0], "y_mm": p[1], "heading_deg": p[2]},
                            "hidden": int(n) in photo.hidden} for n, p in zip(numbers, poses.tolist())],
                 "camera": {"matrix": photo.matrix.tolist(), "distortion": photo.distortion.tolist(),
                            "tilt_deg": shot.tilt_deg, "blur_px": shot.blur_px, "jpeg_quality": shot.jpeg_quality}}
        (out / f"photo-{i:02d}.json").write_text(json.dumps(truth, indent=2))
        print(f"photo-{i:02d}.jpg: {len(numbers)} bases ({len(photo.hidden)} hidden), tilt {shot.tilt_deg:.1f} deg")


if __name__ == "__main__":
    main()
