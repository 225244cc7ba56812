"""Datasets: loaders for real data, PU label generation and synthetic generators.

``load(name)`` reads the bundled small datasets or the staged files of ``$WEAKFS_DATA``
(default ``~/.weakfs/data``); nothing is downloaded.  ``list_datasets()`` names them all.
"""

from weakfs.datasets._fscpu_synthetic import (
    FSCPU_CONDITIONS,
    FSCPUCondition,
    FSCPUSynthetic,
    list_fscpu_conditions,
    make_fscpu_synthetic,
)
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

__all__ = [
    "DATASETS",
    "FSCPU_CONDITIONS",
    "DatasetInfo",
    "DatasetNotFoundError",
    "FSCPUCondition",
    "FSCPUSynthetic",
    "PULabeling",
    "data_dirs",
    "find",
    "list_datasets",
    "list_fscpu_conditions",
    "load",
    "load_frame",
    "make_fscpu_synthetic",
    "make_informative_noise",
    "make_pu_labels",
]
