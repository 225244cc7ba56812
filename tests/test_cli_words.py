"""The command line's words: ``compare --help`` explains the board, and a count of one is never
followed by a plural ("1 labeled rows")."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from weakfs._words import counted, singular_counts
from weakfs.cli import main


def test_compare_help_says_what_k_lists_and_how_to_read_the_board(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "features, not names" in text and "the size you must keep" in text
    for words in ("k_rule", "top group", "tied", "recommended", "abstains", "'named'"):
        assert words in text
    assert "compare runs the semi-supervised selectors instead of the PU ones" in text


def test_a_count_of_one_takes_the_singular():
    assert counted(1, "labeled row") == "1 labeled row" and counted(2, "fold") == "2 folds"
    stored = "The labels cannot tell these selectors apart (a test fold holds only 1 labeled rows"
    assert "only 1 labeled row " in singular_counts(stored + " (fewer than 5))")
    assert singular_counts("11 rows, 1.5 rows, 21 folds") == "11 rows, 1.5 rows, 21 folds"


def test_the_command_line_says_1_labeled_positive(tmp_path, capsys):
    rng = np.random.RandomState(0)
    frame = pd.DataFrame(rng.normal(size=(40, 3)), columns=list("abc"))
    frame["label"] = 0
    frame.loc[0, "label"] = 1
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    main(["select", str(path), "--target", "label", "--positive", "1", "--method", "mrmr",
          "-k", "1", "--no-progress"])  # fmt: skip
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert "1 labeled positive " in printed or "1 labeled positive(" in printed
    assert not re.search(r"(?<![\d.])1 (labeled |unlabeled )?(rows|positives)\b", printed)
