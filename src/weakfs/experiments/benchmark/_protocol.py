"""What the benchmark of weak-label feature selection runs: its datasets and label regimes."""

#: name -> (weakfs dataset, the label value(s) read as positive, or a rule); "synth-*" are generated
DATASETS = {
    "spambase": ("spambase", 1),
    "ionosphere": ("ionosphere", "b"),
    "mushrooms": ("mushrooms", 1),
    "heart": ("heart_statlog", 2),
    "liver": ("liver_bupa", 2),
    "raisin": ("raisin", "Kecimen"),
    "occupancy": ("occupancy", 1),
    "madelon": ("madelon", 1),
    "ada": ("ada", 1),
    "gina": ("gina", 1),
    "sylva": ("sylva", 1),
    "pcmac": ("PCMAC", 1),
    "basehock": ("BASEHOCK", 1),
    "mnist-even": ("mnist_test10k", "even"),
    "synth-informative": ("synth", "informative"),
    "synth-xor": ("synth", "xor"),
}
#: label regime -> (kind, parameter): PU under SCAR at a labeled fraction of the positives, PU
#: labeled with a probability that grows with a positive's score (not SCAR), a few labels per
#: class (semi-supervised), or none
REGIMES = {
    "pu-scar-0.1": ("pu", 0.1),
    "pu-scar-0.3": ("pu", 0.3),
    "pu-scar-0.5": ("pu", 0.5),
    "pu-biased-0.3": ("pu-biased", 0.3),
    "semi-5pc": ("semi", 0.05),
    "none": ("none", None),
}
#: rows kept of a larger table (a random subset per repetition), so a cell fits its budget
MAX_ROWS = 3000
#: the share of rows held out (their true labels score the selections)
TEST_SIZE = 0.3
#: the reference rows of ``compare_selectors`` (random columns, every column), by their names
#: there, so that the report needs no computing module
RANDOM, ALL_FEATURES = "random", "all features"
REFERENCES = (RANDOM, ALL_FEATURES)
