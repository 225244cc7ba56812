"""Utilities shared by the test-suite, the estimators and the reports: ``markdown_table`` (a
DataFrame as a GitHub markdown table, as every report and leaderboard writes it)."""

from weakfs._markdown import markdown_table

__all__ = ["markdown_table"]
