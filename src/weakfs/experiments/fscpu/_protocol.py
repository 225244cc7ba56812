"""What the FSCPU experiments run, shared by their cells and their reports."""

from weakfs.datasets import FSCPU_CONDITIONS

#: the names of Table 1's conditions, in the paper's column order
CONDITIONS = [c.name for c in FSCPU_CONDITIONS]

METHODS_T1 = [
    "fscpu",
    "fscpu-mi",
    "semi-jmi",
    "kbest",
    "lasso",
    "mrmr",
    "dt-rfe",
    "sselect",
    "jsfs",
]
METHODS_T3 = [*METHODS_T1, "lgbm-opt"]
#: the methods that run FSCPUSelector (a clustering per evaluated mask)
FSCPU_METHODS = ("fscpu", "fscpu-mi")
DATASETS_T3 = ["spambase", "ionosphere", "rt_iot2022"]
LABELED_RATE = {"spambase": 0.03, "ionosphere": 0.10, "rt_iot2022": 0.02}
#: RT-IoT2022 columns left out: identifiers of a connection, not measurements of it
RT_IOT_IDENTIFIERS = ("id.orig_p", "id.resp_p")
# the paper's Figure 1 panels (a)-(d): {cluster assumption, labeled rate, negative, positive
# clusters} = {yes, 40 %, 8, 2}, {yes, 10 %, 8, 2}, {no, 10 %}, {yes, 10 %, 1, 2}
FIGURE1_CONDITIONS = ["ca-40-8-2", "ca-10-8-2", "noca-10", "ca-10-1-2"]
