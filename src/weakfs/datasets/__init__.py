"""Datasets: loaders for real data, PU label generation and synthetic generators.

``load(name)`` reads the bundled small datasets or the staged files of ``$WEAKFS_DATA``
(default ``~/.weakfs/data``); nothing is downloaded.
"""

from weakfs.datasets._loaders import (
    DATASETS,
    DatasetInfo,
    DatasetNotFoundError,
    data_dirs,
    find,
    list_datasets,
    load,
    load_frame,
)
from weakfs.datasets._pu import PULabeling, make_pu_labels
from weakfs.datasets._synthetic import make_informative_noise

# --- FSCPU Table-1 generator (issue 4 / issue 2) ---
# isort: split
from weakfs.datasets._fscpu_synthetic import (
    FSCPU_CONDITIONS,
    FSCPUCondition,
    FSCPUSynthetic,
    list_fscpu_conditions,
    make_fscpu_synthetic,
)

list = list_datasets  # the issue asks for datasets.list()

__all__ = [
    "DATASETS",
    "DatasetInfo",
    "DatasetNotFoundError",
    "PULabeling",
    "data_dirs",
    "find",
    "list",
    "list_datasets",
    "load",
    "load_frame",
    "make_informative_noise",
    "make_pu_labels",
]
__all__ += [  # FSCPU Table-1 generator (issue 4)
    "FSCPU_CONDITIONS",
    "FSCPUCondition",
    "FSCPUSynthetic",
    "list_fscpu_conditions",
    "make_fscpu_synthetic",
]
