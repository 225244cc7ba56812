"""Paper reproductions: a registry of experiments and a resumable, parallel runner."""

from weakfs.experiments._registry import Experiment, ReportContext, RunConfig, get, names

__all__ = ["Experiment", "ReportContext", "RunConfig", "get", "names"]
