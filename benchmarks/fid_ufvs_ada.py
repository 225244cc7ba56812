"""Is UFVS's departure from the paper on ADA the discretisation of ADA's few wide numeric columns?

ADA (WCCI 2006, agnostic) has 48 columns: 0/1 indicators of census categories and a few wide
integer columns (>2 distinct values) that 5 equal-width bins crowd into one bin.  In both readings
of ``weakfs reproduce ufvs`` ADA shows none of the paper's curves (``I(S;C)`` near ``I(F;C)``,
``H(S)`` near ``H(F)``, ``|S|`` falling fast).  This reruns the zero-as-absent reading with those
wide columns (a) cut into 5 equal-width bins (the report's cells), (b) cut into 5 equal-frequency
bins, (c) left out, and prints ``|S|``, ``H(S)/H(F)`` and ``I(S;C)/I(F;C)`` at the report's first
cut-offs.  If no variant brings the curves near the paper's, the binning is not the cause.

Command (seconds)::

    WEAKFS_DATA=/path/to/data python benchmarks/fid_ufvs_ada.py
"""

from __future__ import annotations

import pandas as pd

from weakfs.datasets import load
from weakfs.unsupervised import ufvs_path


def main() -> None:
    X, y = load("ada")
    X = X.drop(columns=["split"], errors="ignore")
    wide = [c for c in X.columns if X[c].nunique() > 2]
    n = len(X)
    counts = [0, n // 100, n // 20, n // 10, n // 5]
    quantile = X.copy()
    for c in wide:  # equal-frequency bins coded 1..5 (0 would read as absent)
        quantile[c] = pd.qcut(X[c], 5, labels=False, duplicates="drop").astype(int) + 1
    variants = {
        "equal-width bins (report)": (X, "auto"),
        "equal-frequency bins": (quantile, wide),
        "wide columns left out": (X.drop(columns=wide), "auto"),
    }
    print(f"wide columns: {wide}")
    print("| variant | n | |S| | H(S)/H(F) | I(S;C)/I(F;C) | NMI(S;C) | NMI(F;C) |")
    print("|---|---|---|---|---|---|---|")
    for name, (frame, cats) in variants.items():
        path = ufvs_path(frame, y, counts=counts, zero_as_absent=True, categorical_features=cats)
        for _, r in path.iterrows():
            print(
                f"| {name} | {int(r['min_count'])} | {int(r['n_selected'])} | "
                f"{r['H_S'] / r['H_F']:.2f} | {r['I_S_C'] / r['I_F_C']:.2f} | "
                f"{r['NMI_S_C']:.3f} | {r['NMI_F_C']:.3f} |"
            )


if __name__ == "__main__":
    main()
