"""Command line: ``weakfs select``, ``weakfs reproduce``, ``weakfs datasets``.

``_main`` parses the arguments and turns user mistakes into one line and exit code 2;
``_select`` knows the selectors and runs ``weakfs select``; ``_table`` reads the table and
prepares its labels and feature columns; ``_common`` holds the error and note helpers.
"""

from weakfs.cli._main import build_parser, main
from weakfs.cli._select import SELECTOR_ALIASES, SELECTORS, SelectorSpec, available_selectors

__all__ = [
    "SELECTORS",
    "SELECTOR_ALIASES",
    "SelectorSpec",
    "available_selectors",
    "build_parser",
    "main",
]
