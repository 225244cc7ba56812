"""Command line: ``weakfs select``, ``weakfs reproduce``, ``weakfs datasets``.

``_main`` builds the top parser from the subcommands' parsers, dispatches, and turns user
mistakes into one line naming the subcommand and exit code 2.  Each subcommand module
(``_select``, ``_reproduce``, ``_datasets``) has ``PARSER``, ``format_parser(parser)``,
``main(parsed_args)`` and a frozen request dataclass that the parsed arguments are unpacked into
once; its steps take the request and return what they prepared with their notes.  ``_selectors``
knows the selectors and builds one; ``_table`` reads the table and prepares its labels and
feature columns; ``_output`` checks and writes ``-o``; ``_common`` holds the user error, the
notes and the ``--set`` parser every subcommand shares.
"""

from weakfs.cli._datasets import DatasetsRequest
from weakfs.cli._main import build_parser, main
from weakfs.cli._reproduce import ReproduceRequest
from weakfs.cli._select import SelectRequest
from weakfs.cli._selectors import available_selectors

__all__ = [
    "DatasetsRequest",
    "ReproduceRequest",
    "SelectRequest",
    "available_selectors",
    "build_parser",
    "main",
]
