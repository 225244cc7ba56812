"""A derived experiment (the scoreboard): no cell of its own; it reads its sources' committed
cells (:func:`stored_table`) and writes its table and report from them."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from weakfs.experiments._registry import Experiment, ReportContext, RunConfig, get
from weakfs.experiments._report_files import write_if_changed
from weakfs.experiments._store import CsvCells, cell_key, records_table

__all__ = ["run_derived", "stored_table"]


def stored_table(name: str, config: RunConfig, out_dir: str | Path = "results") -> pd.DataFrame:
    """The finished cells of experiment ``name`` at ``config`` that its committed
    ``OUT/NAME.csv`` holds, one row each as its report reads them; rows of an older version of
    the code are left out, the uncommitted cache is not read and nothing is run (an absent CSV
    gives an empty table)."""
    experiment = get(name)
    cells = [experiment.versioned(c) for c in experiment.make_cells(config)]
    keys = [cell_key(c) for c in cells]
    records = CsvCells(Path(out_dir) / f"{experiment.name}.csv").records(cells, keys)
    return records_table(records, keys)[0]


def _options_text(config: RunConfig) -> str:
    """The command-line options of ``config`` (`` --runs 5 --set grid=reduced``)."""
    parts = [] if config.runs is None else [f"--runs {config.runs}"]
    for flag, values in (("--datasets", config.datasets), ("--methods", config.methods)):
        if values is not None:
            parts.append(f"{flag} {','.join(values)}")
    parts += ["--quick"] if config.quick else []
    parts += [f"--set {key}={value}" for key, value in config.options.items()]
    return "".join(f" {part}" for part in parts)


def _out_text(folder: Path) -> str:
    """`` --out FOLDER`` as a command names it (none for ``results``, the default)."""
    folder = Path(os.path.normpath(folder)).as_posix()
    return "" if folder == "results" else f" --out {folder}"


def run_derived(experiment: Experiment, config: RunConfig, out: Path, say) -> pd.DataFrame:
    """A derived experiment: read its sources' committed cells, write OUT/NAME.csv (its table)
    and OUT/NAME.md; no date or timing in either, so the same stores give the same files byte
    for byte.  Returns the cells read (column ``experiment``: their source)."""
    name = experiment.name
    if config != RunConfig():
        raise ValueError(
            f"{name} computes nothing and takes no --runs, --datasets, --methods, --quick or "
            f"--set: it reads the committed cells of {', '.join(experiment.sources)} at the "
            "settings of their reports"
        )
    frames, read = [], []
    for key, settings in experiment.sources.items():
        # "name@folder": the store of ``name`` in that folder, relative to the output folder
        source, _, folder = key.partition("@")
        where = out / folder if folder else out
        cells = stored_table(source, settings, where)
        frames.append(cells.assign(experiment=key))
        shown = f"{folder}/{source}.csv" if folder else f"{source}.csv"
        read.append(
            f"  - `{shown}`: {len(cells)} cells, those of `weakfs reproduce {source}"
            f"{_options_text(settings)}{_out_text(where)}`"
        )
    cells = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    table = experiment.derive(cells)
    where = "" if out == experiment.default_out() else f" --out {out}"
    ctx = ReportContext(
        out_dir=out, name=name, config=config, command=f"weakfs reproduce {name}{where}"
    )
    body = experiment.write_report(table, ctx)
    header = [
        f"# {experiment.title}",
        "",
        f"- Command: `{ctx.command}` (computes nothing; the same stores give the same files)",
        "- Read from the committed stores in this folder (rows of older code, marked "
        "`superseded`, left out; the uncommitted cache not read):",
        *read,
        f"- Table: `{name}.csv`, {len(table)} rows",
        "",
    ]
    out.mkdir(parents=True, exist_ok=True)
    # ten significant digits: the last digits of a mean depend on the summation order of the
    # installed numpy and pandas, and would change the file without changing a result
    write_if_changed(out / f"{name}.csv", table.to_csv(index=False, float_format="%.10g"))
    write_if_changed(out / f"{name}.md", "\n".join(header) + "\n" + body.rstrip() + "\n")
    say(
        f"{name}: computes nothing; read {len(cells)} cells of {len(frames)} experiments, "
        f"wrote {name}.csv ({len(table)} rows) and {name}.md"
    )
    return cells
