"""matplotlib, an optional dependency, imported only when a plot is drawn."""

from __future__ import annotations

__all__ = ["pyplot"]


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
