"""Paper reproductions: a registry of experiments and a resumable, parallel runner."""

from weakfs.experiments._registry import (
    Experiment,
    ReportContext,
    RunConfig,
    canonical_name,
    get,
    names,
)
from weakfs.experiments._runner import run_experiment

__all__ = [
    "Experiment",
    "ReportContext",
    "RunConfig",
    "canonical_name",
    "get",
    "names",
    "run_experiment",
]
