"""Loaders for the real datasets weakfs knows: bundled ones and files staged in a data directory.

Small datasets ship inside the package (``weakfs/datasets/data``) so that the main job runs with no
data directory; the others are read from ``$WEAKFS_DATA`` (default ``~/.weakfs/data``).  Nothing is
ever downloaded: a missing file raises :class:`DatasetNotFoundError` naming the file and every
directory searched.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse

__all__ = [
    "DATASETS",
    "DatasetInfo",
    "DatasetNotFoundError",
    "data_dirs",
    "find",
    "list_datasets",
    "load",
    "load_frame",
]

BUNDLED_DIR = Path(__file__).parent / "data"
DEFAULT_DATA_HOME = Path("~/.weakfs/data")


class DatasetNotFoundError(FileNotFoundError):
    """A dataset file is in none of the searched directories."""


@dataclass(frozen=True)
class DatasetInfo:
    """What weakfs knows about one dataset file: its name, shape, task and source."""

    name: str
    filename: str
    n_rows: int
    n_features: int
    task: str  # "binary", "multiclass" or "regression"
    description: str
    sparse: bool = False
    split: bool = False
    extra_columns: tuple[str, ...] = field(default=())  # non-feature columns besides y/split
    categorical: tuple[str, ...] = field(default=())

    @property
    def bundled(self) -> bool:
        return (BUNDLED_DIR / self.filename).exists()


def _d(
    name: str,
    rows: int,
    features: int,
    task: str,
    description: str,
    *,
    file: str | None = None,
    **options: bool | tuple[str, ...],
) -> DatasetInfo:
    """One row of the table; the file is ``NAME.csv.gz`` (``NAME.svm.gz`` when sparse) unless
    ``file`` names another."""
    if file is None:
        file = name + (".svm.gz" if options.get("sparse") else ".csv.gz")
    return DatasetInfo(name, file, rows, features, task, description, **options)


# one dataset a line (hand-wrapped: the formatter would spread each call over up to nine lines)
# name, rows, features, task, description[, file=][, options]
# fmt: off
_TABLE = [
    _d("spambase", 4601, 57, "binary", "UCI Spambase; y 1=spam, 0=non-spam"),
    _d("ionosphere", 351, 34, "binary", "UCI Ionosphere; y g=good, b=bad"),
    _d("mushrooms", 8124, 112, "binary", "LIBSVM mushrooms, one-hot 0/1; y 1=poisonous, 2=edible",
       file="mushrooms_libsvm.csv.gz"),
    _d("mushroom_uci", 8124, 22, "binary", "UCI Mushroom, 22 categorical letters ('?' kept); y e/p",
       categorical=("*",)),
    _d("mice_protein", 1080, 77, "multiclass", "UCI Mice Protein Expression, 8 classes, has NaN"),
    _d("madelon", 2600, 500, "binary", "NIPS 2003 MADELON train+valid", split=True),
    _d("accelerometer", 153000, 4, "multiclass", "UCI Accelerometer; y weight configuration 1/2/3"),
    _d("ecoli", 336, 7, "multiclass", "UCI Ecoli, 8 classes"),
    _d("pendigits", 10992, 16, "multiclass", "UCI Pen digits 0-9", split=True),
    _d("online_retail_sample40k", 40000, 7, "multiclass",
       "UCI Online Retail, 40k-row sample; y = Country; has NaN",
       categorical=("InvoiceNo", "StockCode", "Description", "InvoiceDate")),
    _d("sepsis_primary", 110204, 3, "binary",
       "UCI Sepsis survival, primary cohort; y 1 alive, 0 dead"),
    _d("sepsis_study", 19051, 3, "binary", "UCI Sepsis survival, study cohort; y 1 alive, 0 dead"),
    _d("sepsis_validation", 137, 3, "binary",
       "UCI Sepsis survival, validation cohort; y 1 alive, 0 dead"),
    _d("raisin", 900, 7, "binary", "UCI Raisin; y Besni/Kecimen"),
    _d("occupancy", 20560, 5, "binary", "UCI Occupancy detection", split=True),
    _d("user_knowledge", 403, 5, "multiclass", "UCI User Knowledge Modeling; 4 levels", split=True),
    _d("seeds", 210, 7, "multiclass", "UCI Seeds; 3 wheat varieties"),
    _d("energy_efficiency", 768, 8, "regression",
       "UCI Energy efficiency; y = heating load (target_Y2_cooling kept apart)",
       extra_columns=("target_Y2_cooling",)),
    _d("liver_bupa", 345, 6, "binary", "UCI Liver disorders; y selector 1/2"),
    _d("heart_statlog", 270, 13, "binary", "UCI Statlog heart; y 1 absence, 2 presence"),
    _d("PCMAC", 1943, 3289, "binary", "20 Newsgroups pc vs mac, term counts", sparse=True),
    _d("RELATHE", 1427, 4322, "binary", "20 Newsgroups religion vs atheism, term counts",
       sparse=True),
    _d("BASEHOCK", 1993, 4862, "binary", "20 Newsgroups baseball vs hockey, term counts",
       sparse=True),
    _d("COIL20", 1440, 1024, "multiclass", "COIL-20 images, 20 objects"),
    _d("Isolet", 1560, 617, "multiclass", "ISOLET spoken letters, 26 classes"),
    _d("colon", 62, 2000, "binary", "colon cancer microarray"),
    _d("ALLAML", 72, 7129, "binary", "ALL/AML leukemia microarray"),
    _d("leukemia", 72, 7070, "binary", "leukemia microarray (discretised)"),
    _d("lung_discrete", 73, 325, "multiclass", "lung cancer, 7 classes"),
    _d("nci9", 60, 9712, "multiclass", "NCI60 subset, 9 classes"),
    _d("GLIOMA", 50, 4434, "multiclass", "glioma microarray, 4 classes"),
    _d("warpPIE10P", 210, 2420, "multiclass", "PIE faces, 10 persons"),
    _d("orlraws10P", 100, 10304, "multiclass", "ORL faces, 10 persons"),
    _d("ORL", 400, 1024, "multiclass", "ORL faces 32x32, 40 persons"),
    _d("arcene", 200, 10000, "binary", "NIPS 2003 ARCENE train+valid", split=True),
    _d("dexter", 600, 20000, "binary", "NIPS 2003 DEXTER train+valid", sparse=True, split=True),
    _d("dorothea", 800, 88119, "binary", "NIPS 2003 DOROTHEA train only, all-zero columns dropped",
       file="dorothea_train_nzcols.svm.gz", sparse=True),
    _d("kddcup99_10pct", 494021, 41, "multiclass",
       "KDD Cup 99, 10% subset; y = attack name with trailing dot",
       categorical=("protocol_type", "service", "flag")),
    _d("mnist_test10k", 10000, 784, "multiclass",
       "MNIST official 10k test set, pixels px000..px783"),
    _d("fashion_mnist_test1000", 1000, 784, "multiclass", "Fashion-MNIST, 1000 test rows only"),
    _d("rt_iot2022", 123117, 83, "multiclass", "UCI RT-IoT2022; y = Attack_type",
       categorical=("proto", "service")),
    _d("unsw_nb15_82332", 82332, 42, "binary",
       "UNSW-NB15, the 82,332-row partition; y 1 = attack (attack_cat kept apart)",
       extra_columns=("attack_cat",), categorical=("proto", "service", "state")),
    _d("ada", 4562, 48, "binary", "WCCI 2006 ADA agnostic, train+valid", split=True),
    _d("sylva", 14395, 216, "binary", "WCCI 2006 SYLVA agnostic, train+valid", split=True),
    _d("gina", 3468, 970, "binary", "WCCI 2006 GINA agnostic", file="gina_agnostic.csv.gz"),
    _d("hiva", 4229, 1617, "binary", "WCCI 2006 HIVA agnostic (OpenML)",
       file="hiva_agnostic.csv.gz"),
]
# fmt: on

DATASETS: dict[str, DatasetInfo] = {info.name: info for info in _TABLE}
# the file stems are accepted as names too (e.g. "mushrooms_libsvm", "gina_agnostic")
_ALIASES = {
    info.filename.split(".")[0]: info.name
    for info in _TABLE
    if info.filename.split(".")[0] != info.name
}


def data_dirs(data_home: str | os.PathLike | None = None) -> list[Path]:
    """Directories searched, in order: the package's bundled data, then the data directory.

    The data directory is ``data_home`` if given, else ``$WEAKFS_DATA``, else ``~/.weakfs/data``.
    """
    if data_home is None:
        data_home = os.environ.get("WEAKFS_DATA") or DEFAULT_DATA_HOME
    return [BUNDLED_DIR, Path(data_home).expanduser()]


def _info(name: str) -> DatasetInfo:
    key = _ALIASES.get(name, name)
    if key not in DATASETS:
        raise KeyError(f"unknown dataset {name!r}; known datasets: {', '.join(sorted(DATASETS))}")
    return DATASETS[key]


def find(name: str, data_home: str | os.PathLike | None = None) -> Path:
    """Path of a dataset's file; :class:`DatasetNotFoundError` names the directories searched."""
    info = _info(name)
    dirs = data_dirs(data_home)
    for directory in dirs:
        path = directory / info.filename
        if path.exists():
            return path
    searched = ", ".join(str(d) for d in dirs)
    raise DatasetNotFoundError(
        f"dataset {info.name!r}: file {info.filename} not found in {searched}. Copy it there or "
        "set WEAKFS_DATA to the directory that holds it (weakfs never downloads data)."
    )


def list_datasets(data_home: str | os.PathLike | None = None) -> pd.DataFrame:
    """A table of every known dataset: shape, task, and where its file was found (or 'missing').

    The searched directories are in ``df.attrs["searched"]``.
    """
    rows = []
    for info in _TABLE:
        try:
            where = str(find(info.name, data_home))
        except DatasetNotFoundError:
            where = "missing"
        rows.append(
            {
                "name": info.name,
                "rows": info.n_rows,
                "features": info.n_features,
                "task": info.task,
                "sparse": info.sparse,
                "split": info.split,
                "bundled": info.bundled,
                "path": where,
                "description": info.description,
            }
        )
    table = pd.DataFrame(rows)
    table.attrs["searched"] = [str(d) for d in data_dirs(data_home)]
    return table


def load_frame(name: str, data_home: str | os.PathLike | None = None) -> pd.DataFrame:
    """The whole CSV of a dense dataset as one DataFrame (features, extra columns, y, split)."""
    info = _info(name)
    if info.sparse:
        raise ValueError(f"dataset {info.name!r} is sparse svmlight; use load({info.name!r})")
    return pd.read_csv(find(name, data_home), low_memory=False)


def _integral_labels(values: np.ndarray) -> np.ndarray:
    if (
        values.dtype.kind == "f"
        and np.all(np.isfinite(values))
        and np.all(values == np.round(values))
    ):
        return values.astype(np.int64)
    return values


def load(
    name: str,
    *,
    data_home: str | os.PathLike | None = None,
    return_split: bool = False,
    return_extra: bool = False,
):
    """Load a dataset as ``(X, y)``.

    Parameters
    ----------
    name : str
        A name from :func:`list_datasets` (file stems such as ``"mushrooms_libsvm"`` work too).
    data_home : path, optional
        Directory with the staged files (default ``$WEAKFS_DATA`` or ``~/.weakfs/data``).
    return_split : bool, default=False
        Also return the source's predefined split as a Series (``None`` if it has none).
    return_extra : bool, default=False
        Also return the documented non-feature columns (e.g. UNSW-NB15's ``attack_cat``) as a
        DataFrame (empty if there are none).

    Returns
    -------
    X : DataFrame, or scipy.sparse CSR matrix for svmlight files
    y : Series
        The original labels, unchanged except that integral floats become ints.
    split : Series or None
        Only with ``return_split=True``.
    extra : DataFrame
        Only with ``return_extra=True``.

    Examples
    --------
    >>> from weakfs.datasets import load
    >>> X, y = load("ionosphere")
    >>> X.shape, sorted(y.unique())
    ((351, 34), ['b', 'g'])
    """
    info = _info(name)
    path = find(name, data_home)
    split = None
    extra = pd.DataFrame()
    if info.sparse:
        from sklearn.datasets import load_svmlight_file

        X, y_raw = load_svmlight_file(str(path), n_features=info.n_features, zero_based=True)
        X = sparse.csr_matrix(X)
        y = pd.Series(_integral_labels(np.asarray(y_raw)), name="y")
        if info.split:
            split_path = path.with_name(info.filename.split(".")[0] + ".split.txt")
            if not split_path.exists():
                raise DatasetNotFoundError(
                    f"dataset {info.name!r}: split file {split_path} missing"
                )
            split = pd.Series(split_path.read_text().split(), name="split")
    else:
        frame = pd.read_csv(path, low_memory=False)
        y = frame["y"].copy()
        y = pd.Series(_integral_labels(y.to_numpy()), name="y") if y.dtype.kind == "f" else y
        if "split" in frame.columns:
            split = frame["split"].copy()
        extra = frame[list(info.extra_columns)].copy()
        X = frame.drop(columns=["y", "split", *info.extra_columns], errors="ignore")
    if X.shape != (info.n_rows, info.n_features):
        raise ValueError(
            f"dataset {info.name!r} at {path} has shape {X.shape}, expected "
            f"({info.n_rows}, {info.n_features}): it is not the file weakfs knows under this name"
        )
    out = [X, y]
    if return_split:
        out.append(split)
    if return_extra:
        out.append(extra)
    return tuple(out)
