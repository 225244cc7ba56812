import os
from pathlib import Path

# The staged datasets live in ../shared/data beside the checkout (locally and in CI).
_SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
if "WEAKFS_DATA" not in os.environ and _SHARED.is_dir():
    os.environ["WEAKFS_DATA"] = str(_SHARED)

os.environ.setdefault("MPLBACKEND", "Agg")
# pytest-xdist runs one worker per core: OpenMP pools inside each worker (HistGradientBoosting,
# LightGBM) would oversubscribe the machine and spin, so each worker uses one thread.
os.environ.setdefault("OMP_NUM_THREADS", "1")
