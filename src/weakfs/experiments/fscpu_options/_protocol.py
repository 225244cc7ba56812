"""What the fscpu-options experiment reads, shared by its derivation and its report."""

from weakfs.experiments._registry import RunConfig
from weakfs.experiments.fscpu._protocol import FSCPU_OPTION_METHODS

__all__ = ["DEFAULTS", "SOURCES"]

#: the paper's searches, the yardstick of every option
DEFAULTS = ("fscpu", "fscpu-mi")
#: the paper's runs in the results folder (two levels above the options' folder), the options'
#: beside this report (``name@folder``: a store in that folder, relative to the output folder)
SOURCES = {
    "fscpu-table1@../..": RunConfig(runs=5, methods=list(DEFAULTS)),
    "fscpu-table1": RunConfig(runs=5, methods=list(FSCPU_OPTION_METHODS)),
}
