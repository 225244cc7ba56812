"""The SEW-IL paper's numbers (Feofanov, Devijver & Amini, arXiv:1911.04841, 2019), as printed:
"mean ± sd" strings of Tables 2, 3 and 4."""

from weakfs.experiments._report import paper_rows

__all__ = ["PAPER_T2", "PAPER_T34"]

# the paper's numbers ("mean ± sd" strings as printed)
_PAPER_T2_TEXT = """
dataset | GT | OOB | TB | CB | CBIL
Protein | .665 ± .025 | .615 ± .036 | .441 ± .06 | .613 ± .03 | .622 ± .03
Madelon | .589 ± .016 | .564 ± .034 | .503 ± .014 | .568 ± .029 | .57 ± .028
Isolet | .678 ± .019 | .644 ± .039 | .435 ± .02 | .625 ± .027 | .633 ± .035
Fashion | .619 ± .014 | .57 ± .031 | .543 ± .022 | .575 ± .029 | .58 ± .023
MNIST | .549 ± .012 | .377 ± .028 | .499 ± .034 | .451 ± .036 | .463 ± .038
Coil20 | .918 ± .012 | .908 ± .021 | .866 ± .023 | .891 ± .025 | .898 ± .023
PCMAC | .62 ± .011 | .574 ± .032 | .54 ± .021 | .61 ± .024 | .61 ± .02
RELATHE | .643 ± .012 | .592 ± .021 | .577 ± .015 | .598 ± .021 | .598 ± .025
BASEHOCK | .69 ± .011 | .655 ± .041 | .586 ± .01 | .666 ± .036 | .658 ± .034
"""
_PAPER_T34_TEXT = """
method | dataset | ACC-U | ACC-T | d'
fss | Protein | .733 ± .028 | .73 ± .042 | 19
fss | Madelon | .585 ± .043 | .591 ± .053 | 63
fss | Isolet | .78 ± .027 | .778 ± .038 | 73
fss | Fashion | .625 ± .029 | .617 ± .033 | 86
fss | MNIST | .724 ± .021 | .724 ± .047 | 86
fss | Coil20 | .896 ± .018 | .889 ± .025 | 102
fss | PCMAC | .638 ± .066 | .615 ± .098 | 222
fss | RELATHE | .728 ± .024 | .708 ± .047 | 266
fss | BASEHOCK | NA | NA | NA
cga | Protein | .761 ± .03 | .751 ± .043 | 41
cga | Madelon | .584 ± .021 | .604 ± .042 | 250
cga | Isolet | .837 ± .017 | .838 ± .03 | 313
cga | Fashion | .691 ± .017 | .686 ± .033 | 392
cga | MNIST | .818 ± .022 | .829 ± .049 | 396
cga | Coil20 | .938 ± .012 | .933 ± .023 | 506
cga | PCMAC | .818 ± .019 | .847 ± .031 | 1647
cga | RELATHE | .773 ± .026 | .78 ± .049 | 2169
cga | BASEHOCK | .91 ± .012 | .923 ± .024 | 2433
fsga | Protein | .757 ± .026 | .753 ± .043 | 33
fsga | Madelon | .666 ± .042 | .662 ± .046 | 27
fsga | Isolet | .814 ± .017 | .802 ± .033 | 66
fsga | Fashion | .668 ± .018 | .657 ± .026 | 100
fsga | MNIST | .786 ± .018 | .794 ± .046 | 91
fsga | Coil20 | .941 ± .011 | .939 ± .024 | 102
fsga | PCMAC | .813 ± .022 | .83 ± .035 | 57
fsga | RELATHE | .74 ± .036 | .726 ± .054 | 71
fsga | BASEHOCK | .915 ± .007 | .912 ± .024 | 75
rlsr | Protein | .727 ± .024 | .721 ± .046 | 19
rlsr | Madelon | .558 ± .036 | .564 ± .062 | 63
rlsr | Isolet | .822 ± .02 | .814 ± .029 | 73
rlsr | Fashion | .591 ± .016 | .59 ± .041 | 86
rlsr | MNIST | .21 ± .022 | .212 ± .03 | 86
rlsr | Coil20 | .922 ± .013 | .916 ± .025 | 102
rlsr | PCMAC | .817 ± .021 | .825 ± .037 | 222
rlsr | RELATHE | .759 ± .019 | .757 ± .045 | 266
rlsr | BASEHOCK | .908 ± .015 | .912 ± .024 | 287
sfs | Protein | .712 ± .028 | .716 ± .049 | 19
sfs | Madelon | .589 ± .028 | .601 ± .032 | 63
sfs | Isolet | .672 ± .022 | .659 ± .037 | 73
sfs | Fashion | .528 ± .034 | .52 ± .054 | 86
sfs | MNIST | .111 ± .002 | .109 ± .003 | 86
sfs | Coil20 | .81 ± .015 | .816 ± .025 | 102
sfs | PCMAC | .726 ± .047 | .727 ± .061 | 222
sfs | RELATHE | .658 ± .033 | .647 ± .037 | 266
sfs | BASEHOCK | .83 ± .039 | .831 ± .053 | 287
ssls | Protein | .685 ± .028 | .673 ± .048 | 19
ssls | Madelon | .553 ± .04 | .566 ± .06 | 63
ssls | Isolet | .666 ± .016 | .649 ± .036 | 73
ssls | Fashion | .512 ± .031 | .504 ± .045 | 86
ssls | MNIST | .445 ± .062 | .451 ± .052 | 86
ssls | Coil20 | .813 ± .018 | .809 ± .023 | 102
ssls | PCMAC | .595 ± .057 | .598 ± .066 | 222
ssls | RELATHE | .606 ± .02 | .607 ± .028 | 266
ssls | BASEHOCK | .656 ± .075 | .666 ± .086 | 287
cotfss | Protein | .715 ± .039 | .715 ± .05 | 19
cotfss | Madelon | .54 ± .042 | .531 ± .062 | 63
cotfss | Isolet | .658 ± .058 | .648 ± .071 | 73
cotfss | Coil20 | .843 ± .069 | .832 ± .083 | 102
"""
PAPER_T2 = {row[0]: tuple(row[1:]) for row in paper_rows(_PAPER_T2_TEXT)[1:]}
# method -> dataset -> (ACC-U, ACC-T, d')
PAPER_T34: dict[str, dict[str, tuple]] = {}
for _m, _ds, _u, _t, _k in paper_rows(_PAPER_T34_TEXT)[1:]:
    PAPER_T34.setdefault(_m, {})[_ds] = (_u, _t, _k if _k == "NA" else int(_k))
