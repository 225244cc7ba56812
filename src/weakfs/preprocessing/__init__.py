"""Preparing real tables for the selectors: what ``weakfs select`` does to a table, for Python."""

from weakfs.preprocessing._table import TablePreparer

__all__ = ["TablePreparer"]
