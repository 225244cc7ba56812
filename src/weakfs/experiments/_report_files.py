"""A report's file: its header (how it was made), whether a rewrite says anything new, and its
figures kept with it.  The runner writes every report through these."""

from __future__ import annotations

import datetime as _dt
import platform
import re
from pathlib import Path

from weakfs.experiments._registry import STAGING

__all__ = [
    "keep_figures",
    "report_cells",
    "report_command",
    "report_header",
    "same_report",
    "write_if_changed",
]


def _versions() -> str:
    import numba
    import numpy as np
    import scipy
    import sklearn

    import weakfs

    return (
        f"weakfs {weakfs.__version__}, Python {platform.python_version()}, numpy {np.__version__}, "
        f"scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, numba {numba.__version__}"
    )


def keep_figures(out: Path, *, replace: bool) -> None:
    """Move the figures a report drew (in its staging folder) beside it: all of them when the
    report was written, else only those not there yet."""
    staging = out / STAGING
    if not staging.is_dir():
        return
    for figure in staging.iterdir():
        target = out / figure.name
        if replace or not target.exists():
            figure.replace(target)
        else:
            figure.unlink()
    staging.rmdir()


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (atomic rename) unless the file already says exactly that."""
    if path.exists() and path.read_text() == text:
        return
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def _report_gist(text: str) -> str:
    """A report without what only says how it was made: the command, date, wall time, library
    versions and machine of its run, and where its cells were read from (a ``--cached-only``
    rewrite of the same cells on another installation says the same)."""
    text = re.sub(
        r"^- (Command|Date|Wall time of this invocation|Versions|Machine): .*$",
        "",
        text,
        flags=re.M,
    )
    return re.sub(r"^(- Cells: \d+ finished of \d+) .*$", r"\1", text, flags=re.M)


def same_report(old: str, new: str) -> bool:
    """Whether two reports say the same (a ``--cached-only`` rewrite of an unchanged store
    leaves the committed report alone)."""
    return _report_gist(old) == _report_gist(new)


def report_command(path: Path) -> str | None:
    """The command an existing report was made with."""
    if not path.exists():
        return None
    match = re.search(r"^- Command: `(.*)`$", path.read_text(), flags=re.MULTILINE)
    return match.group(1) if match else None


def report_header(title, command, *, cells, n_missing, seconds, raw) -> list[str]:
    """The lines above a report's body: how it was made and where its raw cells are."""
    finished, total, read, failed = cells
    csv_name, n_other_rows, n_superseded = raw
    wall, cell_seconds = seconds
    return [
        f"# {title}",
        "",
        f"- Command: `{command}`",
        f"- Date: {_dt.datetime.now(_dt.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Cells: {finished} finished of {total} ({read} read from the cache or {csv_name}, "
        f"{failed} failed"
        + (f", {n_missing} not run: report from the cache only" if n_missing is not None else "")
        + ")",
        f"- Wall time of this invocation: {wall:.1f} s; summed cell time: {cell_seconds:.1f} s",
        f"- Versions: {_versions()}",
        f"- Machine: {platform.machine()}, {_cpu_count()} cores",
        f"- Raw cells: `{csv_name}`"
        + (
            f" (also holds {n_other_rows} cells of runs with other settings, not in this report)"
            if n_other_rows
            else ""
        )
        + (
            f"; {n_superseded} rows computed by an older version of the code are kept there, "
            "marked `superseded`, and left out"
            if n_superseded
            else ""
        ),
        "",
    ]


def report_cells(path: Path) -> int:
    """How many cells an existing report says it holds (0 if there is none)."""
    if not path.exists():
        return 0
    match = re.search(r"^- Cells: (\d+) finished", path.read_text(), flags=re.MULTILINE)
    return int(match.group(1)) if match else 0


def _cpu_count() -> int:
    import os

    return os.cpu_count() or 1
