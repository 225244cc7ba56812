"""What the PU Extra Trees experiment runs, shared by its cells and its report."""

DATASETS = ["mushrooms", "mnist", "unsw_nb15", "kddcup99", "pendigits"]
PU_METHODS = ["uPU-quadratic", "uPU-logistic", "nnPU-quadratic", "nnPU-logistic"]
BASELINES = ["SupervisedET", "NaivePUET", "PUBaggingET"]
EXTRA = ["appendix-m", "figure-2"]
METHODS = PU_METHODS + BASELINES + EXTRA
APPENDIX_M_K = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 42]
