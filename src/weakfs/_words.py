"""Counts in words: ``1 labeled row``, ``2 labeled rows`` (every message that counts)."""

from __future__ import annotations

import re

__all__ = ["counted", "singular_counts"]

#: nouns messages count, singular -> plural
NOUNS = {
    "row": "rows",
    "positive": "positives",
    "negative": "negatives",
    "feature": "features",
    "column": "columns",
    "fold": "folds",
    "resample": "resamples",
    "candidate": "candidates",
    "value": "values",
    "cell": "cells",
    "draw": "draws",
    "class": "classes",
    "sample": "samples",
    "label": "labels",
    "chunk": "chunks",
    "group": "groups",
}
_PLURAL_AFTER_ONE = re.compile(
    r"(?<![\d.,])\b1 ((?:[a-z-]+ )?)(" + "|".join(map(re.escape, NOUNS.values())) + r")\b"
)
_SINGULAR = {plural: singular for singular, plural in NOUNS.items()}


def counted(n, noun: str) -> str:
    """``n`` and ``noun`` (its last word in the singular), the last word made plural unless
    ``n`` is 1: ``counted(1, "labeled row") == "1 labeled row"``.

    Examples
    --------
    >>> counted(1, "labeled row"), counted(3, "fold"), counted(0, "class")
    ('1 labeled row', '3 folds', '0 classes')
    """
    if int(n) == 1 and float(n) == 1:
        return f"{n} {noun}"
    head, _, last = noun.rpartition(" ")
    plural = NOUNS.get(last, last + "s")
    return f"{n} {head + ' ' if head else ''}{plural}"


def singular_counts(text: str) -> str:
    """``text`` with a count of 1 followed by a plural noun (``1 labeled rows``) made singular:
    for sentences written before they read their count (a board's stored notes).

    Examples
    --------
    >>> singular_counts("a test fold holds only 1 labeled rows; 10 rows")
    'a test fold holds only 1 labeled row; 10 rows'
    """
    return _PLURAL_AFTER_ONE.sub(lambda m: f"1 {m[1]}{_SINGULAR[m[2]]}", text)
