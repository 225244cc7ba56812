"""The GKF-PUAL paper's numbers (Wang, Zhu & Xue, Information Sciences 690, 2025): Table 2 (F1 %,
rows γ = 0.5 then 0.25) and Table 3 (% irrelevant removed, rows γ = 0.25 then 0.5 as the caption
says)."""

from weakfs.experiments._report import paper_rows

__all__ = ["PAPER_F1", "PAPER_REMOVED"]

_PAPER_F1_TEXT = """
dataset | gamma | GKF-PUAL | KF-PUAL | PUAL | GLLC | uPU | nnPU
OD | 0.5 | 100.0 | 92.54 | 85.7 | 100.0 | 80.0 | 100.0
OD | 0.25 | 91.4 | 84.24 | 80.6 | 100.0 | 70.0 | 100.0
OR1 | 0.5 | 88.3 | 75.57 | 78.4 | 74.3 | 15.8 | 78.5
OR1 | 0.25 | 79.3 | 72.66 | 73.7 | 70.6 | 19.6 | 67.6
UMD | 0.5 | 91.3 | 78.24 | 74.4 | 85.3 | 100.0 | 100.0
UMD | 0.25 | 90.0 | 72.14 | 72.4 | 84.5 | 100.0 | 100.0
Acc | 0.5 | 71.2 | 64.35 | 70.0 | 69.8 | 19.2 | 19.7
Acc | 0.25 | 71.6 | 64.89 | 69.8 | 57.0 | 21.3 | 22.6
Ecoli | 0.5 | 89.0 | 82.25 | 91.6 | 89.0 | 76.1 | 77.7
Ecoli | 0.25 | 85.4 | 80.42 | 83.4 | 86.0 | 76.1 | 77.7
ENB | 0.5 | 66.6 | 47.94 | 45.3 | 44.1 | 28.9 | 29.3
ENB | 0.25 | 64.4 | 44.21 | 44.6 | 35.1 | 24.5 | 24.9
HD | 0.5 | 75.3 | 74.68 | 80.5 | 81.7 | 67.5 | 70.6
HD | 0.25 | 76.3 | 74.64 | 81.2 | 80.1 | 66.7 | 68.9
Pen | 0.5 | 88.3 | 76.38 | 82.5 | 79.0 | 83.7 | 84.5
Pen | 0.25 | 85.8 | 75.95 | 80.8 | 77.9 | 79.8 | 80.5
LD | 0.5 | 58.2 | 44.78 | 47.3 | 51.5 | 10.9 | 29.1
LD | 0.25 | 58.8 | 39.45 | 45.4 | 50.8 | 9.5 | 18.8
SSMCR | 0.5 | 88.2 | 80.48 | 82.8 | 89.2 | 79.5 | 80.7
SSMCR | 0.25 | 87.9 | 74.09 | 82.3 | 88.6 | 79.6 | 81.9
Seeds | 0.5 | 86.3 | 78.15 | 74.2 | 75.4 | 84.1 | 91.4
Seeds | 0.25 | 89.9 | 73.8 | 70.8 | 74.9 | 81.0 | 85.6
RD | 0.5 | 32.1 | 24.64 | 77.1 | 78.1 | 68.6 | 69.9
RD | 0.25 | 31.8 | 23.82 | 71.8 | 75.1 | 67.0 | 69.5
"""
_PAPER_REMOVED_TEXT = """
dataset | 0.25 | 0.5
OD | 84.0 | 86.0
OR1 | 75.0 | 73.75
Pen | 70.94 | 67.19
Ecoli | 77.08 | 72.92
ENB | 48.57 | 47.86
Acc | 91.25 | 85.0
SSMCR | 55.0 | 53.33
UMD | 86.0 | 76.0
RD | 24.29 | 15.71
Seeds | 47.14 | 51.43
HD | 17.69 | 15.0
LD | 56.67 | 55.83
"""
# dataset: {gamma: [GKF-PUAL, KF-PUAL, PUAL, GLLC, uPU, nnPU]}
PAPER_F1: dict[str, dict[float, list[float]]] = {}
for _row in paper_rows(_PAPER_F1_TEXT)[1:]:
    PAPER_F1.setdefault(_row[0], {})[float(_row[1])] = [float(v) for v in _row[2:]]
PAPER_REMOVED = {
    row[0]: {0.25: float(row[1]), 0.5: float(row[2])} for row in paper_rows(_PAPER_REMOVED_TEXT)[1:]
}
