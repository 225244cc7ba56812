"""What every weakfs plot shares: a lazily imported pyplot and saving a figure to a file."""

from __future__ import annotations

from pathlib import Path

from weakfs._matplotlib import pyplot


def save_figure(fig, path: str | Path | None, *, dpi: int = 120):
    """Save ``fig`` to ``path`` (png) and close it when a path is given; return ``fig``."""
    if path is not None:
        fig.savefig(path, dpi=dpi)
        pyplot().close(fig)
    return fig
