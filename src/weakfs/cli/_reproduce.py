"""``weakfs reproduce``: its parser, the request it makes of the command line, and the run."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from weakfs._words import counted
from weakfs.cli._common import _add_set_option, _fail, _parse_set

#: how ``weakfs`` adds the subcommand (``add_subparsers().add_parser(name, **PARSER)``)
PARSER = {
    "help": "run a paper experiment and write results/NAME.md",
    "description": "Run a paper experiment and write its report, OUT/NAME.md (with NAME.csv "
    "and the figures). Finished cells are cached: the same command resumes an interrupted run.",
    "allow_abbrev": False,
}


def format_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the arguments of ``weakfs reproduce`` to ``parser``."""
    parser.add_argument("experiment", nargs="?", help="experiment to run (see --list)")
    parser.add_argument("--list", action="store_true", help="list the experiments")
    parser.add_argument("--runs", type=int, help="number of seeds/splits (default: the paper's)")
    parser.add_argument("--datasets", help="comma-separated subset of datasets")
    parser.add_argument("--methods", help="comma-separated subset of methods")
    parser.add_argument("--quick", action="store_true", help="reduced protocol (smoke test)")
    _add_set_option(parser, "KEY=VALUE", "an experiment option")
    parser.add_argument("--n-jobs", type=int, default=1, help="cells run in parallel")
    parser.add_argument("--scheduler", help="'local' for a Dask LocalCluster or tcp://host:port")
    parser.add_argument(
        "--out",
        help="output directory (default results/; the demo, a smoke test: a temporary folder)",
    )
    parser.add_argument(
        "--cached-only",
        action="store_true",
        help="run nothing; report the cells already cached (the header counts the missing ones)",
    )
    return parser


@dataclass(frozen=True)
class ReproduceRequest:
    """``weakfs reproduce EXPERIMENT`` as asked on the command line (:meth:`from_args`).

    Attributes
    ----------
    experiment : str
        Name of the experiment, as typed (the registry resolves aliases).
    runs : int or None
        Number of seeds/splits; None: the paper's.
    datasets, methods : tuple of str or None
        Subsets of the experiment's datasets and methods; None: all of them.
    quick : bool
        Reduced protocol (smoke test).
    options : mapping
        Experiment options from ``--set`` (read-only), typed by :func:`_parse_set`.
    n_jobs : int
        Cells run in parallel.
    scheduler : str or None
        ``"local"`` for a Dask LocalCluster, or the address of a Dask scheduler.
    out : str or None
        Output directory, as typed; None: the experiment's (``results``, or a temporary folder
        for the demo).
    cached_only : bool
        Run nothing; report the cells already cached.
    command : str or None
        The command line the report records (None when not run as ``weakfs``).
    """

    experiment: str
    runs: int | None = None
    datasets: tuple[str, ...] | None = None
    methods: tuple[str, ...] | None = None
    quick: bool = False
    options: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    n_jobs: int = 1
    scheduler: str | None = None
    out: str | None = None
    cached_only: bool = False
    command: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> ReproduceRequest:
        return cls(
            experiment=args.experiment,
            runs=args.runs,
            datasets=_split(args.datasets),
            methods=_split(args.methods),
            quick=args.quick,
            options=MappingProxyType(_parse_set(args.set)),
            n_jobs=args.n_jobs,
            scheduler=args.scheduler,
            out=args.out,
            cached_only=args.cached_only,
            command="weakfs " + " ".join(sys.argv[1:]) if sys.argv[0].endswith("weakfs") else None,
        )

    def config(self):
        """The :class:`~weakfs.experiments.RunConfig` of the run."""
        from weakfs.experiments import RunConfig

        return RunConfig(
            runs=self.runs,
            datasets=None if self.datasets is None else list(self.datasets),
            methods=None if self.methods is None else list(self.methods),
            quick=self.quick,
            options=dict(self.options),
        )


def _split(text: str | None) -> tuple[str, ...] | None:
    """A comma-separated list (empty items dropped); None stays None."""
    return None if text is None else tuple(v for v in text.split(",") if v)


def _print_experiments() -> None:
    from weakfs.experiments import get, names

    for name in names():
        try:
            print(f"{name:16s} {get(name).title}")
        except Exception as exc:  # an experiment whose optional dependency is missing
            print(f"{name:16s} (unavailable: {exc})")


def main(args: argparse.Namespace) -> int:
    """``weakfs reproduce`` on parsed arguments."""
    if args.list or not args.experiment:
        _print_experiments()
        return 0
    if importlib.util.find_spec("matplotlib") is None:
        # every report draws figures: fail before the cells run, not after
        _fail(
            "the reports draw figures with matplotlib, which is not installed: "
            "pip install 'weakfs[experiments]'"
        )
    return run(ReproduceRequest.from_args(args))


def run(request: ReproduceRequest) -> int:
    """Run the experiment's cells (finished ones are cached) and write its report; 1 when a
    cell failed."""
    from weakfs.experiments import canonical_name, get, run_experiment

    start = time.perf_counter()
    failed = []

    def log(message: str) -> None:
        if message.startswith("cell failed"):
            failed.append(message)
        print(message)

    table = run_experiment(
        request.experiment,
        request.config(),
        out_dir=request.out,
        scheduler=request.scheduler,
        n_jobs=request.n_jobs,
        command=request.command,
        progress=True,
        log=log,
        cached_only=request.cached_only,
    )
    experiment = get(request.experiment)
    out = Path(request.out) if request.out is not None else experiment.default_out()
    report = out / (canonical_name(request.experiment) + ".md")
    print(f"{counted(len(table), 'cell')} in {time.perf_counter() - start:.1f} s; report: {report}")
    if not experiment.committed and request.out is None:
        print(
            f"(the {experiment.name} is a smoke test of the runner: its results go to {out}, "
            "not into results/; --out DIR writes them elsewhere)"
        )
    if failed:
        print(f"weakfs reproduce: {len(failed)} cell(s) failed (see above)", file=sys.stderr)
        return 1
    return 0
