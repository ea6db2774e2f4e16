"""The README's picture of the web table, regenerated from the shipped furball example.

    .venv/bin/python tools/screenshot.py [OUT.png]      # default: docs/img/serve.png

Starts the web table on a free loopback port, opens it in Debian's headless Chromium
(``tests/browser.py``; needs the test extras and ``apt-get install chromium``), selects the
Nieuport with its tail zone and firing bands shown, and saves a screenshot.
"""
from __future__ import annotations

import pathlib
import sys

from furball.scenarios.dogfight import load_scenario
from furball.scenarios.web import create_app

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the browser helpers the end-to-end tests use
from browser import chromium, chromium_missing, running_server, wait_until  # noqa: E402

EXAMPLE = ROOT / "scenarios" / "examples" / "furball.toml"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = pathlib.Path(argv[0] if argv else "docs/img/serve.png")
    missing = chromium_missing()
    if missing:
        print(f"screenshot: {missing}", file=sys.stderr)
        return 2
    with running_server(create_app(load_scenario(EXAMPLE))) as url, chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 820}, device_scale_factor=1)
        page.goto(url)
        wait_until(page, "document.body.dataset.ready === 'yes' && window.furball.idle()")
        page.click('[data-plane="Nieuport"] .base')
        page.check("#p-zones")
        page.wait_for_selector('[data-zones="Nieuport"] .tail-zone')
        wait_until(page, "window.furball.idle()")
        page.screenshot(path=str(out))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
