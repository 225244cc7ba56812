"""The GKF-PUAL paper's numbers (Wang, Zhu & Xue, Information Sciences 690, 2025): Table 2 (F1 %,
rows γ = 0.5 then 0.25) and Table 3 (% irrelevant removed, rows γ = 0.25 then 0.5 as the caption
says), each as printed: ``mean ± sd`` over the 10 repetitions.

Every cell of both tables prints a standard deviation.  Our copy of the paper is a text
extraction that lost the decimal point of six of those sds (and of five means); they are read with
the one decimal every other value of their column has: Table 2 GKF-PUAL RD "32122" (32.1 ± 2.2)
and "31.8+26" (31.8 ± 2.6), PUAL RD γ = 0.5 "77.1+29" (± 2.9), nnPU Pen γ = 0.5 "84.5 + 129"
(± 12.9), nnPU SSMCR γ = 0.25 "81.9+14" (± 1.4), nnPU Seeds γ = 0.5 "91.4 +£54" (± 5.4); the
means "853", "453", "742" and "754" are 85.3 (GLLC UMD γ = 0.5), 45.3 (PUAL ENB γ = 0.5), 74.2 and
75.4 (PUAL and GLLC Seeds γ = 0.5).  OR2 is left out: its data are not available to us.
"""

from weakfs.experiments._report import paper_mean, paper_rows

__all__ = ["PAPER_F1", "PAPER_F1_TEXT", "PAPER_REMOVED", "PAPER_REMOVED_TEXT"]

_PAPER_F1_TEXT = """
dataset | gamma | GKF-PUAL | KF-PUAL | PUAL | GLLC | uPU | nnPU
OD | 0.5 | 100.0 ± 0.0 | 92.54 ± 1.74 | 85.7 ± 6.1 | 100.0 ± 0.0 | 80.0 ± 42.2 | 100.0 ± 0.0
OD | 0.25 | 91.4 ± 12.3 | 84.24 ± 1.88 | 80.6 ± 7.9 | 100.0 ± 0.0 | 70.0 ± 48.3 | 100.0 ± 0.0
OR1 | 0.5 | 88.3 ± 3.5 | 75.57 ± 2.89 | 78.4 ± 2.4 | 74.3 ± 4.3 | 15.8 ± 31.6 | 78.5 ± 6.5
OR1 | 0.25 | 79.3 ± 12.3 | 72.66 ± 8.30 | 73.7 ± 3.4 | 70.6 ± 6.0 | 19.6 ± 31.3 | 67.6 ± 6.6
UMD | 0.5 | 91.3 ± 3.1 | 78.24 ± 9.80 | 74.4 ± 4.1 | 85.3 ± 7.4 | 100.0 ± 0.0 | 100.0 ± 0.0
UMD | 0.25 | 90.0 ± 4.6 | 72.14 ± 6.81 | 72.4 ± 4.6 | 84.5 ± 4.3 | 100.0 ± 0.0 | 100.0 ± 0.0
Acc | 0.5 | 71.2 ± 5.3 | 64.35 ± 2.36 | 70.0 ± 4.9 | 69.8 ± 5.1 | 19.2 ± 26.4 | 19.7 ± 27.6
Acc | 0.25 | 71.6 ± 5.4 | 64.89 ± 1.79 | 69.8 ± 5.1 | 57.0 ± 8.3 | 21.3 ± 28.7 | 22.6 ± 30.3
Ecoli | 0.5 | 89.0 ± 0.9 | 82.25 ± 2.30 | 91.6 ± 3.6 | 89.0 ± 3.5 | 76.1 ± 5.6 | 77.7 ± 6.1
Ecoli | 0.25 | 85.4 ± 7.2 | 80.42 ± 4.84 | 83.4 ± 5.7 | 86.0 ± 3.9 | 76.1 ± 6.4 | 77.7 ± 5.9
ENB | 0.5 | 66.6 ± 5.3 | 47.94 ± 1.10 | 45.3 ± 7.4 | 44.1 ± 4.7 | 28.9 ± 20.2 | 29.3 ± 21.7
ENB | 0.25 | 64.4 ± 6.5 | 44.21 ± 2.88 | 44.6 ± 9.4 | 35.1 ± 6.2 | 24.5 ± 28.5 | 24.9 ± 29.1
HD | 0.5 | 75.3 ± 4.3 | 74.68 ± 3.67 | 80.5 ± 3.1 | 81.7 ± 5.3 | 67.5 ± 4.1 | 70.6 ± 2.1
HD | 0.25 | 76.3 ± 3.0 | 74.64 ± 2.13 | 81.2 ± 5.1 | 80.1 ± 5.2 | 66.7 ± 4.0 | 68.9 ± 2.8
Pen | 0.5 | 88.3 ± 10.8 | 76.38 ± 12.45 | 82.5 ± 21.2 | 79.0 ± 12.1 | 83.7 ± 9.4 | 84.5 ± 12.9
Pen | 0.25 | 85.8 ± 12.5 | 75.95 ± 14.37 | 80.8 ± 23.9 | 77.9 ± 9.0 | 79.8 ± 10.7 | 80.5 ± 12.3
LD | 0.5 | 58.2 ± 5.0 | 44.78 ± 2.93 | 47.3 ± 6.3 | 51.5 ± 6.8 | 10.9 ± 23.5 | 29.1 ± 25.6
LD | 0.25 | 58.8 ± 4.1 | 39.45 ± 5.45 | 45.4 ± 5.3 | 50.8 ± 3.9 | 9.5 ± 21.7 | 18.8 ± 24.6
SSMCR | 0.5 | 88.2 ± 1.3 | 80.48 ± 5.92 | 82.8 ± 2.8 | 89.2 ± 1.7 | 79.5 ± 1.5 | 80.7 ± 1.3
SSMCR | 0.25 | 87.9 ± 1.9 | 74.09 ± 2.75 | 82.3 ± 2.2 | 88.6 ± 1.8 | 79.6 ± 1.9 | 81.9 ± 1.4
Seeds | 0.5 | 86.3 ± 4.2 | 78.15 ± 4.01 | 74.2 ± 7.2 | 75.4 ± 11.3 | 84.1 ± 4.0 | 91.4 ± 5.4
Seeds | 0.25 | 89.9 ± 3.4 | 73.80 ± 1.71 | 70.8 ± 21.2 | 74.9 ± 13.6 | 81.0 ± 5.9 | 85.6 ± 5.2
RD | 0.5 | 32.1 ± 2.2 | 24.64 ± 4.05 | 77.1 ± 2.9 | 78.1 ± 4.8 | 68.6 ± 14.7 | 69.9 ± 16.3
RD | 0.25 | 31.8 ± 2.6 | 23.82 ± 7.39 | 71.8 ± 4.3 | 75.1 ± 5.8 | 67.0 ± 14.1 | 69.5 ± 12.7
"""
_PAPER_REMOVED_TEXT = """
dataset | 0.25 | 0.5
OD | 84.00 ± 6.99 | 86.00 ± 6.99
OR1 | 75.00 ± 11.79 | 73.75 ± 10.94
Pen | 70.94 ± 8.21 | 67.19 ± 6.95
Ecoli | 77.08 ± 11.85 | 72.92 ± 12.87
ENB | 48.57 ± 7.38 | 47.86 ± 9.55
Acc | 91.25 ± 9.22 | 85.00 ± 6.45
SSMCR | 55.00 ± 15.81 | 53.33 ± 20.49
UMD | 86.00 ± 9.66 | 76.00 ± 23.66
RD | 24.29 ± 9.04 | 15.71 ± 8.11
Seeds | 47.14 ± 9.04 | 51.43 ± 11.07
HD | 17.69 ± 4.87 | 15.00 ± 6.14
LD | 56.67 ± 11.65 | 55.83 ± 11.15
"""
# dataset: {gamma: [GKF-PUAL, KF-PUAL, PUAL, GLLC, uPU, nnPU]}, as printed ("mean ± sd")
PAPER_F1_TEXT: dict[str, dict[float, list[str]]] = {}
for _row in paper_rows(_PAPER_F1_TEXT)[1:]:
    PAPER_F1_TEXT.setdefault(_row[0], {})[float(_row[1])] = _row[2:]
# dataset: {gamma: "mean ± sd"}
PAPER_REMOVED_TEXT = {
    row[0]: {0.25: row[1], 0.5: row[2]} for row in paper_rows(_PAPER_REMOVED_TEXT)[1:]
}
# the means alone
PAPER_F1: dict[str, dict[float, list[float]]] = {
    d: {g: [paper_mean(v) for v in row] for g, row in by_gamma.items()}
    for d, by_gamma in PAPER_F1_TEXT.items()
}
PAPER_REMOVED = {
    d: {g: paper_mean(v) for g, v in by_gamma.items()} for d, by_gamma in PAPER_REMOVED_TEXT.items()
}
