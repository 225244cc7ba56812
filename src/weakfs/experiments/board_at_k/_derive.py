"""The board at a named size in every labeled cell of the benchmark: each selection's posterior
under the size guide fitted on the *other* datasets (leave one dataset out), the row it
recommends at each k and the rows within noise of it."""

from __future__ import annotations

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from weakfs.compare import SizeGuide
from weakfs.experiments.benchmark._cells import cell_split
from weakfs.experiments.benchmark._protocol import FAMILIES, REFERENCES, REGIMES

__all__ = ["COLUMNS", "SOURCES", "benchmark_rows", "guide_rows", "raw_pu_auc", "records"]

#: the derived table's columns, one row per (labeled cell, k, selection)
COLUMNS = [
    *["dataset", "family", "regime", "seed", "n_labeled", "n_features", "k", "method"],
    *["raw_score", "truth_auc", "posterior", "recommended_at_k", "tied_at_k", "n0"],
]


#: datasets of one source (the same patients or faces): held out together, so that a guide is
#: never fitted on the twin of the dataset it is judged on
SOURCES = {"leukemia": "allaml", "orlraws10p": "orl"}


def _labeled_count(dataset: str, regime: str, seed: int) -> tuple[int, int]:
    """The labeled and all training rows of a cell, re-derived from its split (the cells keep
    neither)."""
    *_, weak = cell_split(dataset, regime, seed)
    weak = np.asarray(weak)
    pu = SizeGuide.label_kind(REGIMES[regime][0]) == "pu"
    return int((weak == 1).sum() if pu else (weak != -1).sum()), int(weak.shape[0])


def raw_pu_auc(score: float, prior: float, n_labeled: int, n_train: int) -> float:
    """The AUC of labeled against unlabeled rows from its prior-corrected value (the benchmark's
    stored weak score): ``score (1 - pi_u) + pi_u / 2``, ``pi_u = (pi - l) / (1 - l)``."""
    share = n_labeled / n_train
    pi_u = (prior - share) / (1.0 - share)
    return score * (1.0 - pi_u) + pi_u / 2.0


def benchmark_rows(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per (labeled cell, k in the guide's sizes, selection) of the benchmark's cells:
    the columns :meth:`SizeGuide.fit` reads, and the cell's dataset, regime and seed."""
    rows = []
    with threadpool_limits(1):
        for cell in cells.itertuples():
            kind = REGIMES[cell.regime][0]
            if kind == "none" or not isinstance(cell.method, list) or not cell.method:
                continue  # unlabeled cells and cells that cannot run
            n_labeled, n_train = _labeled_count(cell.dataset, cell.regime, int(cell.seed))
            pu = SizeGuide.label_kind(kind) == "pu"
            for i, method in enumerate(cell.method):
                if (
                    cell.k_rule[i] != "fixed"
                    or cell.k[i] not in SizeGuide.KS
                    or method in REFERENCES
                ):
                    continue
                rows.append(
                    {
                        "dataset": cell.dataset,
                        "family": FAMILIES[cell.dataset],
                        "regime": cell.regime,
                        "seed": int(cell.seed),
                        "n_labeled": n_labeled,
                        "n_features": int(cell.n_features),
                        "k": int(cell.k[i]),
                        "method": method,
                        # the weak score that needs no prior (raw_score on a board)
                        "weak": (
                            raw_pu_auc(cell.weak_score[i], cell.prior, n_labeled, n_train)
                            if pu
                            else float(cell.weak_score[i])
                        ),
                        "truth": float(cell.truth_auc[i]),
                    }
                )
    frame = pd.DataFrame(rows).dropna(subset=["weak", "truth"])
    # a cell's rows at one k once (a method's automatic k may repeat a fixed k)
    return guide_rows(frame.drop_duplicates(["dataset", "regime", "seed", "k", "method"]))


def guide_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (the benchmark's rows, or the derived table) with the columns
    :meth:`SizeGuide.fit` reads: ``cell``, ``kind``, ``wide``, ``weak``, ``truth``."""
    frame = frame.rename(columns={"raw_score": "weak", "truth_auc": "truth"})
    frame = frame.assign(
        cell=frame["dataset"] + "|" + frame["regime"] + "|" + frame["seed"].astype(str),
        group=frame["dataset"].map(lambda d: SOURCES.get(d, d)),
        kind=frame["regime"].map(lambda r: SizeGuide.label_kind(REGIMES[r][0])),
        wide=frame["n_features"] >= SizeGuide.WIDE_COLUMNS,
    )
    return frame.reset_index(drop=True)


def _flags(rows: pd.DataFrame, posterior: pd.Series, guide: SizeGuide) -> pd.DataFrame:
    """``recommended_at_k`` (the highest posterior of each cell and k) and ``tied_at_k``."""
    rows = rows.assign(posterior=posterior)
    groups = rows.groupby(["cell", "k"])["posterior"]
    best = groups.transform("max")
    recommended = pd.Series(False, index=rows.index)
    recommended[groups.idxmax()] = True
    margin = guide.tie_margin(rows["kind"], rows["n_labeled"])
    return rows.assign(recommended_at_k=recommended, tied_at_k=best - rows["posterior"] <= margin)


def records(cells: pd.DataFrame) -> pd.DataFrame:
    """The derived table: every labeled cell's selections at k = 10, 20, 50 with the posterior
    and flags of the guide fitted without the cell's dataset."""
    rows = benchmark_rows(cells[cells["experiment"] == "benchmark"])
    parts = []
    for group in sorted(rows["group"].unique()):
        guide = SizeGuide.fit(rows[rows["group"] != group])
        own = rows[rows["group"] == group]
        part = _flags(own, guide.posteriors(own), guide)
        parts.append(part.assign(n0=guide.n0))
    table = pd.concat(parts).rename(columns={"weak": "raw_score", "truth": "truth_auc"})
    order = ["dataset", "regime", "seed", "k", "method"]
    table = table.sort_values(order)[COLUMNS].reset_index(drop=True)
    # the guide the package ships, fitted on every dataset (the report writes it out)
    table.attrs["size_guide"] = SizeGuide.fit(rows).to_json()
    return table
