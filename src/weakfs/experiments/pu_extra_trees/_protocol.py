"""What the PU Extra Trees experiment runs, shared by its cells and its report."""

DATASETS = ["mushrooms", "mnist", "unsw_nb15", "kddcup99", "pendigits"]
PU_METHODS = ["uPU-quadratic", "uPU-logistic", "nnPU-quadratic", "nnPU-logistic"]
BASELINES = ["SupervisedET", "NaivePUET", "PUBaggingET"]
EXTRA = ["appendix-m", "figure-2"]
METHODS = PU_METHODS + BASELINES + EXTRA
APPENDIX_M_K = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 42]
#: the ablation of the two PU baselines (mushrooms only): U with the labeled positives (the
#: whole training split, as the paper's "entire dataset") or without them; PUBaggingET's
#: bootstrap sample of U of size |U| (the paper's "dataset size") or |P| (Mordelet & Vert's
#: usual choice); 10 bags of 10 trees (100 trees, as PU ET) or 10 bags of 100 trees
ABLATION_DATASETS = ["mushrooms"]
U_SETS = {"withP": True, "noP": False}
BAG_SIZES = ["bagU", "bagP"]
BAG_TREES = {"10x10": (10, 10), "10x100": (10, 100)}
ABLATION_METHODS = [f"NaivePUET-{u}" for u in U_SETS] + [
    f"PUBaggingET-{u}-{size}-{trees}" for u in U_SETS for size in BAG_SIZES for trees in BAG_TREES
]
