"""What the UFVS experiment runs, shared by its cells and its report."""

DATASETS = [
    "madelon",
    "arcene",
    "dexter",
    "dorothea",
    "ada",
    "gina",
    "hiva",
    "sylva",
    "kddcup99_10pct",
]
MODES = ["paper", "zero_absent"]
