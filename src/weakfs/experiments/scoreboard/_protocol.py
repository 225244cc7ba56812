"""What the scoreboard reads: the experiments whose committed cells it reads, each at the
settings of its report in ``results/`` (the README's map of paper tables), and why the paper
entries without a cell have none."""

from weakfs.experiments._registry import RunConfig

__all__ = [
    "FSCPU_NOT_DESCRIBED",
    "GKF_NOT_STAGED",
    "NOT_DESCRIBED",
    "NOT_STAGED",
    "NOT_YET",
    "PU_ET_DATASETS",
    "SEWIL_NOT_STAGED",
    "SOURCES",
]

#: experiment -> the settings of its top-level report (the options of the command in its
#: header; a test checks that they agree)
SOURCES = {
    "fscpu-table1": RunConfig(runs=5),
    "fscpu-table3": RunConfig(runs=10),
    "ufvs": RunConfig(),
    "pu_extra_trees-tables": RunConfig(runs=5),
    "sewil-tables": RunConfig(
        runs=10,
        methods=[
            *["fsga", "rlsr", "sfs", "ssls", "cotfss", "fss", "cga", "criteria", "fsga_best"],
            *["criteria-tb-printed", "fsga-cbil", "fsga-cbil-beta", "fsga-cb", "fsga-oob"],
            "fsga-lenmut-bounded",
        ],
        options={"runs_by_method": "fsga_best:5"},
    ),
    "gkf_pual-tables": RunConfig(
        runs=10,
        methods=[
            "GKF-PUAL",
            "KF-PUAL",
            "PUAL",
            "GLLC",
            "uPU",
            "nnPU",
            "GKF-PUAL-paperstop",
            "GKF-PUAL-1se",
            "GKF-PUAL-k",
            "GKF-PUAL-R",
        ],
        options={"grid": "reduced", "greedy_rounds": 1},
    ),
}

#: the reasons a paper entry has no cell
NOT_STAGED = "data not staged"
NOT_DESCRIBED = "method not described anywhere we could read"
NOT_YET = "not run yet"

#: FSCPU's baselines whose algorithms are described nowhere we could read beyond the FSCPU
#: paper's paragraph (only their titles and abstracts are public), in its tables' labels
FSCPU_NOT_DESCRIBED = ["ES-MCRFS", "MRMR-UFS"]
#: the PU Extra Trees paper's datasets (Tables 2-5), in its order, as weakfs names the staged
#: ones; the others are not staged
PU_ET_DATASETS = ["Epsilon", "20News", "Covtype", "mushrooms", "mnist", "CIFAR-10", "unsw_nb15"]
#: the SEW-IL paper's dataset that is not staged, and the methods it has a number for there,
#: per table (Table 2's criteria, Table 3's searches, Table 4's methods: FSS and CoT-FSS are NA)
SEWIL_NOT_STAGED = {
    "Gisette": {
        "Table 2": ["gt", "oob", "tb", "cb", "cbil"],
        "Table 3": ["cga", "fsga"],
        "Table 4": ["rlsr", "sfs", "ssls", "sewil"],
    }
}
#: the GKF-PUAL paper's dataset that is not staged (Online Retail II), and the one it follows
#: in the paper's tables
GKF_NOT_STAGED = {"OR2": "OR1"}
