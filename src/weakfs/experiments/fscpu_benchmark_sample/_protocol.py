"""What the FSCPU benchmark sample runs, shared by its cells and its report."""

__all__ = ["DATASETS", "METHODS", "PAIRS", "REGIME", "K"]

#: six of the benchmark's tables: two wide bags of words (PCMAC 3,289 and BASEHOCK 4,862
#: columns), and tables of 57 to 970 columns
DATASETS = ["spambase", "madelon", "gina", "mnist-even", "pcmac", "basehock"]
REGIME = "pu-scar-0.3"
K = 20
#: method -> (objective, options of FSCPUSelector beyond the benchmark's setting)
METHODS = {
    "fscpu": ("cluster", {}),
    "fscpu-rows1500": ("cluster", {"search_rows": 1500}),
    "fscpu-mi": ("cluster+mi", {}),
    "fscpu-mi-rows1500": ("cluster+mi", {"search_rows": 1500}),
    "fscpu-rows1500-shared": ("cluster", {"search_rows": 1500, "shared_start": True}),
    "fscpu-mi-rows1500-shared": ("cluster+mi", {"search_rows": 1500, "shared_start": True}),
    "fscpu-rows1500-warm": ("cluster", {"search_rows": 1500, "warm_start": True}),
    "fscpu-mi-rows1500-warm": ("cluster+mi", {"search_rows": 1500, "warm_start": True}),
}
#: option -> the paper's search it is paired with
PAIRS = {
    "fscpu-rows1500": "fscpu",
    "fscpu-mi-rows1500": "fscpu-mi",
    "fscpu-rows1500-shared": "fscpu",
    "fscpu-mi-rows1500-shared": "fscpu-mi",
    "fscpu-rows1500-warm": "fscpu",
    "fscpu-mi-rows1500-warm": "fscpu-mi",
}
