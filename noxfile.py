"""nox sessions of CI beside the README's test command (which runs the suite on the newest
releases): ``nox -s oldest docs site``.

- ``oldest``: the suite, without the tests marked ``slow``, on the oldest versions
  ``pyproject.toml`` allows (``ci/oldest-constraints.txt``);
- ``docs``: the documentation built warning-free;
- ``site``: the built documentation looked at in headless Chromium, and its internal links.
"""

from __future__ import annotations

from pathlib import Path

import nox

# the standard library's venv: virtualenv need not be installed beside nox
nox.options.default_venv_backend = "venv"
nox.options.sessions = ["oldest", "docs", "site"]

ROOT = Path(__file__).resolve().parent
HTML = ROOT / "docs" / "_build" / "html"
#: one thread per process: the suite runs one worker per core, and the docs build shares the
#: machine (OpenMP pools would oversubscribe it)
THREADS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MPLBACKEND": "Agg"}


@nox.session
def oldest(session: nox.Session) -> None:
    """The suite on the oldest pinned dependencies (the ``slow`` tests left out for time)."""
    session.install("-r", "ci/oldest-constraints.txt")
    session.install("-e", ".[test]", "-c", "ci/oldest-constraints.txt")
    session.run(
        "pytest", "-n", "2", "--dist", "worksteal", "-m", "not slow", *session.posargs, env=THREADS
    )


@nox.session
def docs(session: nox.Session) -> None:
    """Build the documentation; any warning fails the session."""
    session.install("-e", ".[docs]")
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", str(HTML), env=THREADS)


@nox.session
def site(session: nox.Session) -> None:
    """Screenshots of the built site in headless Chromium, and its internal links."""
    if not (HTML / "index.html").is_file():
        session.error(f"no built site in {HTML}: run `nox -s docs` first")
    session.install("matplotlib")  # reads the screenshots' pixels
    session.run("python", "docs/_tools/check_site.py", "--html", str(HTML), *session.posargs)
