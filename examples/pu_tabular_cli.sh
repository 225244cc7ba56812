#!/usr/bin/env bash
# PU tabular data from the command line: a table as a practitioner exports it.
#
# Builds mails.parquet from the bundled Spambase data the way a real export looks: spaces in the
# column names, gaps in five columns, a text category, a message ID, a received date and a
# True/False target in which only 30 % of the spam messages are confirmed (True); every other
# row is unchecked (False).  Then asks `weakfs select` for 10 features with PU Extra Trees:
# the ID and the date are left out with a note, the category is one-hot encoded, the gaps are
# imputed, the class prior is estimated and printed, and the selected names and scores are
# written to top10.json.
#
# Run:  bash examples/pu_tabular_cli.sh [--quick] [OUTPUT_FOLDER]
set -euo pipefail

trees=100
if [[ "${1:-}" == "--quick" ]]; then
  trees=20
  shift
fi
out="${1:-.}"
mkdir -p "$out"

python - "$out" <<'PY'
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from weakfs.datasets import load, make_pu_labels

out = Path(sys.argv[1])
X, y = load("spambase")
rng = np.random.default_rng(0)
table = X.copy()
table.columns = [c.replace("_", " ") for c in table.columns]  # spaces in the names
for column in table.columns[:5]:  # 8 % missing values in five columns
    table.loc[rng.random(len(table)) < 0.08, column] = np.nan
table.insert(0, "message id", [f"msg-{i:06d}" for i in rng.permutation(len(table))])
table["received"] = pd.Timestamp("2024-01-01") + pd.to_timedelta(
    rng.integers(0, 365 * 24 * 60, len(table)), unit="min"
)
table["received"] = table["received"].dt.strftime("%Y-%m-%d %H:%M")  # dates as text, as in CSV
table["mailbox"] = rng.choice(["inbox", "work", "archive"], len(table))
pu = make_pu_labels(y, positive=1, labeled_fraction=0.3, random_state=0)
table["is spam"] = pu.s.astype(bool)  # True = confirmed spam, False = not checked
table.to_parquet(out / "mails.parquet", index=False)
print(f"wrote {out / 'mails.parquet'}: {table.shape[0]} rows x {table.shape[1]} columns, "
      f"{int(pu.s.sum())} confirmed positives (true prior {pu.prior:.3f}, hidden from weakfs)")
PY

weakfs select "$out/mails.parquet" --target "is spam" --positive True --impute median \
  --method pu_extra_trees -k 10 --set n_estimators=$trees --n-jobs 2 --no-progress \
  -o "$out/top10.json"
