"""Table capture on synthetic photos rendered from a known truth (docs/capture.md).

Run: .venv/bin/python benchmarks/bench_capture.py [--photos 20] [--size 4000x3000] [--bases 6]
     [--max-tilt 35] [--no-distortion] [--calibrated]

Each photo (furball.capture.synthetic.random_shot): a 900 x 900 mm table with the four
corner markers and ``--bases`` tagged small bases at random, a camera at 0-35 degrees of
tilt from any side filling 85-95 % of the frame, blur up to 1.5 px, noise, JPEG
70-95, radial lens distortion (k1 up to +-0.08; ``--calibrated`` hands capture the
true lens, as ``furball capture calibrate`` would), miniatures over every base and
random occluders, one base in four hidden whole. Prints:

* pose error p50 / p95 in mm (x and y pooled) and degrees (target p95 <= 0.5 mm, 0.5 deg);
* coverage: the share of true errors inside the reported 95 % uncertainty (target 93-97 %),
  for the position (x and y pooled), the heading, and the pose as a whole (chi-square, 3
  degrees of freedom);
* bases found vs shown, hidden bases reported as found (must be 0);
* seconds per photo of ``capture_table`` (target <= 1 s at 12 MP), against a reference
  measured in the same run: decoding the same JPEG (``cv2.imdecode``).
Numbers, not pass/fail.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from furball.capture.camera import Camera
from furball.capture.synthetic import random_layout, random_shot, render_table_photo
from furball.capture.table import capture_table
from furball.errors import InputError

CHI2_3_95 = 7.814727903251178


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", type=int, default=20)
    ap.add_argument("--size", default="4000x3000")
    ap.add_argument("--bases", type=int, default=6)
    ap.add_argument("--max-tilt", type=float, default=35.0)
    ap.add_argument("--no-distortion", action="store_true")
    ap.add_argument("--calibrated", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--verbose", action="store_true", help="list every base whose error is outside its 95 %%")
    args = ap.parse_args(argv)
    import cv2

    size = tuple(int(v) for v in args.size.split("x"))
    rng = np.random.default_rng(args.seed)
    err_xy, err_h, inside, inside3, shown, found, false_found = [], [], [], [], 0, 0, 0
    seconds, decode, refused, zscores = [], [], [], []
    for i in range(args.photos):
        numbers, poses = random_layout(rng, 900.0, 900.0, args.bases)
        shot = random_shot(rng, size, args.max_tilt, distortion=not args.no_distortion)
        hide = tuple(n for n in numbers if rng.uniform() < 0.25)
        shot = type(shot)(**{**shot.__dict__, "hide": hide})
        photo = render_table_photo(numbers, poses, shot, seed=int(rng.integers(1 << 31)))
        camera = Camera(photo.matrix, photo.distortion, size) if args.calibrated else None
        t0 = time.perf_counter()
        cv2.imdecode(np.frombuffer(photo.data, np.uint8), cv2.IMREAD_GRAYSCALE)
        t1 = time.perf_counter()
        try:
            got = capture_table(photo.data, width_mm=900.0, height_mm=900.0, camera=camera, name=f"photo {i}")
        except InputError as exc:
            refused.append(str(exc))
            print(f"photo {i}: refused: {exc}")
            continue
        t2 = time.perf_counter()
        decode.append(t1 - t0)
        seconds.append(t2 - t1)
        truth = dict(zip(numbers, poses))
        shown += len(numbers) - len(hide)
        for n, pose, cov in zip(got.stickers, got.poses, got.covariances):
            if n in hide:
                false_found += 1
                continue
            found += 1
            d = pose - truth[n]
            d[2] = (d[2] + 180) % 360 - 180
            err_xy += [abs(d[0]), abs(d[1])]
            err_h.append(abs(d[2]))
            sd = np.sqrt(np.diag(cov))
            inside += list(np.abs(d) <= 1.959964 * sd)
            zscores.append(np.abs(d) / sd)
            inside3.append(float(d @ np.linalg.solve(cov, d)) <= CHI2_3_95)
            if args.verbose and not all(np.abs(d) <= 1.959964 * sd):
                print(f"  sticker {n}: error {np.round(d, 3)}, 95 % +-{np.round(1.959964 * sd, 3)}, "
                      f"tags {got.tags_seen[got.stickers.index(n)]}")
        print(f"photo {i}: tilt {shot.tilt_deg:4.1f} deg, blur {shot.blur_px:.1f} px, JPEG {shot.jpeg_quality}, "
              f"k1 {shot.k1:+.3f}: {len(got.stickers)} found of {len(numbers) - len(hide)} shown, "
              f"{t2 - t1:.2f} s", flush=True)
    xy, hd = np.array(err_xy), np.array(err_h)
    print(f"\n{args.photos} photos {size[0]}x{size[1]}, tilt 0-{args.max_tilt:g} deg, "
          f"{'no distortion' if args.no_distortion else 'lens distortion'}"
          f"{', calibrated' if args.calibrated else ', uncalibrated'}")
    if len(hd):
        print(f"pose error x/y: p50 {np.percentile(xy, 50):.3f} mm, p95 {np.percentile(xy, 95):.3f} mm "
              f"(target p95 <= 0.5 mm)")
        print(f"heading error:  p50 {np.percentile(hd, 50):.3f} deg, p95 {np.percentile(hd, 95):.3f} deg "
              f"(target p95 <= 0.5 deg)")
        within = np.array(inside, bool).reshape(-1, 3)
        print(f"coverage of the reported 95 % uncertainty: position {100 * within[:, :2].mean():.1f} %, heading "
              f"{100 * within[:, 2].mean():.1f} %, {100 * np.mean(inside3):.1f} % as a whole pose (target 93-97 %); "
              f"median |error| / sd {np.round(np.median(zscores, axis=0), 2).tolist()} (x, y, heading; 0.67 when "
              f"honest and normal)")
    print(f"photos refused: {len(refused)} of {args.photos}")
    print(f"bases found {found} of {shown} shown; hidden bases reported found: {false_found}")
    print(f"capture: {np.median(seconds):.2f} s per photo (median; max {max(seconds):.2f} s; target <= 1 s at "
          f"12 MP); decoding the JPEG alone {np.median(decode):.2f} s, ratio {np.median(seconds) / np.median(decode):.1f}")


if __name__ == "__main__":
    main()
