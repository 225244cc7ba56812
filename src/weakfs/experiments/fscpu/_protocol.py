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
#: beyond the paper, in Table 1 only: mRMR on the raw values (``MRMRSelector(n_bins=None)``:
#: every distinct value its own category, as the paper's pymrmr treats floats)
MRMR_RAW = "mrmr-raw"
EXTRA_METHODS_T1 = [MRMR_RAW]
METHODS_T3 = [*METHODS_T1, "lgbm-opt"]
#: beyond the paper, in Table 1 only and only when named (``--methods``): FSCPU and FSCPU-MI
#: with a speed option of ``FSCPUSelector`` -> (objective, options)
FSCPU_OPTION_METHODS = {
    "fscpu-rows1500": ("cluster", {"search_rows": 1500}),
    "fscpu-mi-rows1500": ("cluster+mi", {"search_rows": 1500}),
    "fscpu-warm": ("cluster", {"warm_start": True}),
    "fscpu-mi-warm": ("cluster+mi", {"warm_start": True}),
    "fscpu-rows1500-warm": ("cluster", {"search_rows": 1500, "warm_start": True}),
    "fscpu-mi-rows1500-warm": ("cluster+mi", {"search_rows": 1500, "warm_start": True}),
    "fscpu-rows1500-shared": ("cluster", {"search_rows": 1500, "shared_start": True}),
    "fscpu-mi-rows1500-shared": ("cluster+mi", {"search_rows": 1500, "shared_start": True}),
}
#: the methods that run FSCPUSelector (a clustering per evaluated mask)
FSCPU_METHODS = ("fscpu", "fscpu-mi", *FSCPU_OPTION_METHODS)
DATASETS_T3 = ["spambase", "ionosphere", "rt_iot2022"]
LABELED_RATE = {"spambase": 0.03, "ionosphere": 0.10, "rt_iot2022": 0.02}
#: RT-IoT2022 columns left out: identifiers of a connection, not measurements of it
RT_IOT_IDENTIFIERS = ("id.orig_p", "id.resp_p")
#: the Table-3 ablation of the RT-IoT2022 build (dataset ``rt_iot2022-<build>``, see
#: ``_data.rt_iot_build``): build -> its number of feature columns d
RT_IOT_BUILDS = {"79": 79, "67": 67, "67-discrete": 67, "81": 81, "onehot": 94}
DATASETS_T3_ABLATION = [f"rt_iot2022-{build}" for build in RT_IOT_BUILDS]
#: build "67": a column is near-constant when its most frequent value is held by more than this
#: share of the rows, a near-duplicate when |r| with an earlier kept column exceeds the next
RT_IOT_NEAR_CONSTANT = 0.99
RT_IOT_NEAR_DUPLICATE = 0.999
#: build "67-discrete": columns with at most this many distinct values are left out (any bound
#: from 19 to 55 leaves the same 67 columns)
RT_IOT_FEW_VALUES = 20
#: the ablation's selectors, and the numbers of features it selects on every build: the paper's
#: 34 (= ceil(67 / 2)) and our main table's 40 (= ceil(79 / 2)), and ceil(d / 2) besides
METHODS_T3_ABLATION = ["lasso", "kbest"]
K_T3_ABLATION = (34, 40)
#: LightGBM on every feature (no selection) trained on the PU labels: the level the selectors
#: are measured against; and the same trained on the training split's true labels (a fully
#: labeled reference: what LightGBM reaches when the labeling is not the limit)
ALL_FEATURES = "all-features"
ALL_FEATURES_PN = "all-features-pn"
# the paper's Figure 1 panels (a)-(d): {cluster assumption, labeled rate, negative, positive
# clusters} = {yes, 40 %, 8, 2}, {yes, 10 %, 8, 2}, {no, 10 %}, {yes, 10 %, 1, 2}
FIGURE1_CONDITIONS = ["ca-40-8-2", "ca-10-8-2", "noca-10", "ca-10-1-2"]
