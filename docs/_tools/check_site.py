"""Look at the built site as a person does, and check its internal links.

Renders the home page, one API page and one gallery page of the built HTML in headless Chromium
to PNG files, and fails when a screenshot is missing, tiny or nearly blank (a page that did not
render, or rendered without its styles). Then checks that every relative ``href`` and ``src``
of every built page points to a file that exists (external links are not followed: the build
and this check need no network).

Run after the build (``sphinx-build -W --keep-going -b html docs docs/_build/html``)::

    python docs/_tools/check_site.py [--html docs/_build/html] [--out docs/_site_check]

Exit status 0 when everything is found, 1 otherwise, with one line per problem.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

DOCS = Path(__file__).resolve().parents[1]

#: the pages looked at: the home page, one API page, one gallery page
PAGES = (
    "index.html",
    "generated/weakfs.pu.FSCPUSelector.html",
    "auto_examples/compare_selectors.html",
)
#: a rendered page with its theme has text, a navigation bar and images: thousands of colours
#: once anti-aliased; a blank or unstyled page has a handful
MIN_COLOURS = 200
MIN_BYTES = 20_000


def find_browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("no Chromium found: install it (Debian: apt-get install -y chromium)")


def screenshot(browser: str, page: Path, png: Path) -> None:
    png.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as profile:  # a fresh profile: no state between pages
        subprocess.run(
            [
                browser,
                "--headless",
                "--disable-gpu",
                "--no-sandbox",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                f"--screenshot={png}",
                "--window-size=1280,2000",
                page.resolve().as_uri(),
            ],
            check=False,
            capture_output=True,
            timeout=120,
        )


def distinct_colours(png: Path) -> int:
    import numpy as np
    from matplotlib.image import imread  # matplotlib is in the docs extra

    pixels = (imread(png)[..., :3] * 255).astype(np.uint8).reshape(-1, 3)
    return int(np.unique(pixels, axis=0).shape[0])


def check_screenshots(html: Path, out: Path) -> list[str]:
    browser = find_browser()
    out.mkdir(parents=True, exist_ok=True)
    problems = []
    for page in PAGES:
        if not (html / page).is_file():
            problems.append(f"{page}: not built")
            continue
        png = out / (page.replace("/", "__").removesuffix(".html") + ".png")
        screenshot(browser, html / page, png)
        if not png.is_file() or png.stat().st_size == 0:
            problems.append(f"{page}: no screenshot ({png})")
            continue
        size, colours = png.stat().st_size, distinct_colours(png)
        print(f"{png}: {size} bytes, {colours} colours")
        if size < MIN_BYTES or colours < MIN_COLOURS:
            problems.append(
                f"{page}: the screenshot looks blank ({size} bytes, {colours} colours; expected "
                f"at least {MIN_BYTES} bytes and {MIN_COLOURS} colours): {png}"
            )
    return problems


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)


def broken_links(html: Path) -> list[str]:
    """Every relative link of every page that points to no file, as ``page: link``."""
    problems = []
    for page in sorted(html.rglob("*.html")):
        if page.relative_to(html).parts[0] in ("_static", "_sources"):
            continue  # the theme's template files and the page sources, not pages
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8", errors="replace"))
        for link in parser.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("#", "/", "mailto:")):
                continue  # external, absolute, or an anchor on the same page
            target = (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                problems.append(f"{page.relative_to(html)}: broken link {link}")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--html", type=Path, default=DOCS / "_build" / "html")
    ap.add_argument("--out", type=Path, default=DOCS / "_site_check", help="screenshots' folder")
    ap.add_argument("--no-screenshots", action="store_true", help="only check the links")
    args = ap.parse_args(argv)
    if not (args.html / "index.html").is_file():
        print(f"{args.html} holds no built site: build the docs first", file=sys.stderr)
        return 1
    problems = [] if args.no_screenshots else check_screenshots(args.html, args.out)
    problems += broken_links(args.html)
    for problem in problems:
        print(problem, file=sys.stderr)
    n_pages = sum(1 for _ in args.html.rglob("*.html"))
    print(f"{n_pages} pages checked: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.exit(main())
