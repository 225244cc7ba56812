"""The PU Extra Trees paper's numbers (accuracy, F1 in %) where its dataset is ours (Tables 2-5),
as printed: ``"mean ± sd"`` over its 5 replications (the sd printed in brackets beside each
mean).  Mushroom's uPU-quadratic accuracy is printed "0.607 (0.48)"; it is read as printed,
though beside an F1 of 39.02 it is likely 60.7 % with a misplaced decimal point."""

PAPER = {
    ("mushrooms", "uPU-quadratic"): ("0.607 ± 0.48", "39.02 ± 1.19"),
    ("mushrooms", "uPU-logistic"): ("99.02 ± 0.32", "99.04 ± 0.32"),
    ("mushrooms", "nnPU-quadratic"): ("99.70 ± 0.24", "99.71 ± 0.24"),
    ("mushrooms", "nnPU-logistic"): ("99.36 ± 0.48", "99.38 ± 0.47"),
    ("mushrooms", "SupervisedET"): ("100 ± 0.00", "100 ± 0.00"),
    ("mushrooms", "NaivePUET"): ("53.85 ± 0.32", "19.68 ± 2.04"),
    ("mushrooms", "PUBaggingET"): ("62.76 ± 0.84", "45.3 ± 0.84"),
    ("mnist", "uPU-quadratic"): ("50.74 ± 0.0", "0.00 ± 0.00"),
    ("mnist", "uPU-logistic"): ("89.05 ± 0.61", "88.06 ± 0.74"),
    ("mnist", "nnPU-quadratic"): ("93.60 ± 0.39", "93.49 ± 0.42"),
    ("mnist", "nnPU-logistic"): ("94.01 ± 0.19", "93.90 ± 0.19"),
    ("mnist", "SupervisedET"): ("98.11 ± 0.05", "98.09 ± 0.05"),
    ("mnist", "NaivePUET"): ("50.74 ± 0.00", "0.00 ± 0.00"),
    ("mnist", "PUBaggingET"): ("50.74 ± 0.00", "0.00 ± 0.00"),
    ("unsw_nb15", "uPU-quadratic"): ("47.18 ± 0.15", "7.97 ± 0.47"),
    ("unsw_nb15", "uPU-logistic"): ("83.89 ± 1.03", "86.33 ± 0.87"),
    ("unsw_nb15", "nnPU-quadratic"): ("82.24 ± 0.86", "85.65 ± 0.59"),
    ("unsw_nb15", "nnPU-logistic"): ("81.51 ± 1.58", "85.17 ± 1.15"),
    ("unsw_nb15", "SupervisedET"): ("86.57 ± 0.05", "88.96 ± 0.04"),
    ("unsw_nb15", "NaivePUET"): ("44.95 ± 0.01", "0.08 ± 0.06"),
    ("unsw_nb15", "PUBaggingET"): ("44.97 ± 0.02", "0.11 ± 0.06"),
}
