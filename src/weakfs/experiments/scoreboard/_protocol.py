"""What the scoreboard reads: the experiments whose committed cells it reads, each at the
settings of its report in ``results/`` (the README's map of paper tables)."""

from weakfs.experiments._registry import RunConfig

__all__ = ["SOURCES"]

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
            *["sla-all", "fsga-votes", "fsga-cbil-labels", "fsga-lenmut-unbounded", "fsga-oracle"],
        ],
        options={"runs_by_method": "fsga_best:5,fsga:20,rlsr:20,sfs:20,ssls:20,cotfss:20"},
    ),
    "gkf_pual-tables": RunConfig(
        runs=5,
        methods=["GKF-PUAL", "KF-PUAL", "PUAL", "GLLC", "uPU", "nnPU", "GKF-PUAL-script"],
        options={"lambda1_path": "true"},
    ),
}
