"""What every weakfs plot shares: a lazily imported pyplot and saving a figure to a file."""

from __future__ import annotations

from pathlib import Path


def pyplot(*, headless: bool = False):
    """``matplotlib.pyplot``, imported on first use (matplotlib is an optional dependency);
    ``headless`` selects the Agg backend when no backend was chosen yet (figures saved to files)."""
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "weakfs's plots need matplotlib: pip install 'weakfs[plot]' (or matplotlib)"
        ) from exc
    if headless:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path: str | Path | None, *, dpi: int = 120):
    """Save ``fig`` to ``path`` (png) and close it when a path is given; return ``fig``."""
    if path is not None:
        fig.savefig(path, dpi=dpi)
        pyplot().close(fig)
    return fig
