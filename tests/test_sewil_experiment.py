"""The sewil-tables experiment: grid, splits and report (no forests are trained here)."""

import numpy as np
import pandas as pd
import pytest

from weakfs.experiments._registry import ReportContext, RunConfig, get
from weakfs.experiments.sewil import SPLITS, load_split
from weakfs.experiments.sewil._cells import make_cells
from weakfs.experiments.sewil._report import _size_and_accuracy, write_report


def test_registered_and_grid():
    exp = get("sewil-tables")
    assert exp.default_runs == 20
    cells = make_cells(RunConfig(runs=2, datasets=["Protein", "PCMAC"]))
    methods = {(c["dataset"], c["method"]) for c in cells}
    assert ("Protein", "cotfss") in methods and ("PCMAC", "cotfss") not in methods
    assert len([c for c in cells if c["dataset"] == "Protein"]) == 2 * 8
    only_t4 = make_cells(RunConfig(runs=1, datasets=["Protein"], options={"tables": "t4"}))
    assert {c["method"] for c in only_t4} == {"rlsr", "sfs", "ssls", "cotfss", "fsga"}
    mixed = make_cells(
        RunConfig(runs=1, datasets=["Protein"], options={"runs_by_method": "rlsr:3"})
    )
    assert sorted(c["seed"] for c in mixed if c["method"] == "rlsr") == [0, 1, 2]
    assert [c["seed"] for c in mixed if c["method"] == "fsga"] == [0]


@pytest.mark.needs_data("mice_protein")
def test_protein_split_has_table1_sizes():
    X, y_semi, y_true, X_te, _ = load_split("Protein", 0)
    _, n_l, n_u, n_t = SPLITS["Protein"]
    assert (y_semi != -1).sum() == n_l and (y_semi == -1).sum() == n_u
    assert X_te.shape[0] == n_t and X.shape[0] == n_l + n_u
    assert not np.isnan(X).any()
    np.testing.assert_array_equal(y_semi[y_semi != -1], y_true[y_semi != -1])
    _, y2, *_ = load_split("Protein", 0)
    np.testing.assert_array_equal(y2, y_semi)


def test_report_on_a_made_up_table(tmp_path):
    rows = []
    for seed in range(5):
        for m, acc in (("fsga", 0.8), ("rlsr", 0.6), ("fss", 0.7), ("cga", 0.79)):
            rows.append(
                {
                    "dataset": "Protein",
                    "method": m,
                    "seed": seed,
                    "acc_u": acc + seed / 100,
                    "acc_t": acc,
                    "n_features": 10,
                    "select_seconds": 1.0,
                    "history": "0.9;0.8;0.7" if m in ("fsga", "cga") else np.nan,
                }
            )
        rows.append(
            {
                "dataset": "Protein",
                "method": "criteria",
                "seed": seed,
                "gt_acc_u": 0.7,
                "oob_acc_u": 0.6,
                "tb_acc_u": 0.5,
                "cb_acc_u": 0.6,
                "cbil_acc_u": 0.65,
                "select_seconds": 1.0,
            }
        )
    ctx = ReportContext(out_dir=tmp_path, name="sewil-tables", config=RunConfig(), command="x")
    text = write_report(pd.DataFrame(rows), ctx)
    assert "Table 4" in text and "Table 3" in text and "Table 2" in text
    t4_row = next(line for line in text.splitlines() if line.startswith("| Protein | ACC-U"))
    assert "↓" in t4_row  # RLSR is worse than SEW-IL in every one of 5 splits
    assert "**0.820 ± 0.016**" in t4_row  # the best mean in bold
    assert ".757 ± .026" in text  # the paper's SEW-IL number is shown beside ours
    assert (tmp_path / "sewil-tables_history.png").exists()
    assert "| Protein | fsga | 5 | 1 |" in text  # timing: splits run and mean selection seconds


@pytest.mark.needs_data("fashion_mnist_test1000", "mice_protein")
def test_image_pixels_are_binarised_as_the_authors_do():
    X, _, _, X_test, _ = load_split("Fashion", 0)
    assert set(np.unique(X)) <= {0.0, 1.0} and set(np.unique(X_test)) <= {0.0, 1.0}
    X_protein = load_split("Protein", 0)[0]
    assert len(np.unique(X_protein)) > 2  # other datasets keep their values


@pytest.mark.needs_data("mice_protein")
def test_criteria_cell_self_learns_with_weakfs_forest(monkeypatch):
    # Table 2's self-learning grows the same forest as the rest of the experiment
    from sklearn.ensemble import RandomForestClassifier

    from weakfs.experiments.sewil._cells import run_cell

    def refuse(*args, **kwargs):
        raise AssertionError("scikit-learn's forest was fitted")

    monkeypatch.setattr(RandomForestClassifier, "fit", refuse)
    cell = {"dataset": "Protein", "method": "criteria", "seed": 0, "quick": True}
    out = run_cell({**cell, "n_jobs": 1, "n_estimators": 5})
    picks = [out[f"{name}_acc_u"] for name in ("oob", "tb", "cb", "cbil")]
    assert all(0.0 <= acc <= out["gt_acc_u"] for acc in picks)


def test_report_explains_where_sewil_is_below_the_paper():
    from weakfs.experiments.sewil._report import _sewil_gap

    rows = []
    for seed in range(5):  # SEW-IL 0.75 on Isolet (paper .814 ± .017), RLSR 0.82 (.822 ± .02)
        isolet = {"dataset": "Isolet", "seed": seed}
        rows.append(
            {**isolet, "method": "fsga", "acc_u": 0.75 + seed / 1000, "n_features": 30 + seed}
        )
        rows.append({**isolet, "method": "rlsr", "acc_u": 0.82, "n_features": 73})
    text = _sewil_gap(pd.DataFrame(rows))
    assert "below the paper on 1 of the datasets run (Isolet)" in text
    assert "within or above the paper in 1 of 1 comparisons" in text
    assert "Isolet 32 (66)" in text and "Spearman 1.00" in text
    for row in rows:  # now within .814 ± .017
        if row["method"] == "fsga":
            row["acc_u"] = 0.81
    assert _sewil_gap(pd.DataFrame(rows)) == ""


def test_gap_paragraph_compares_the_vote_with_the_best_candidate_on_shared_splits():
    from weakfs.experiments.sewil._report import _sewil_gap

    rows = []
    for seed in range(4):  # the vote below the paper on Isolet; the best candidate on 2 splits
        isolet = {"dataset": "Isolet", "seed": seed}
        rows.append({**isolet, "method": "fsga", "acc_u": 0.70 + seed / 100, "n_features": 30})
        if seed < 2:
            rows.append({**isolet, "method": "fsga_best", "acc_u": 0.80, "n_features": 60})
    text = _sewil_gap(pd.DataFrame(rows))
    # the vote's mean over the shared splits 0 and 1 only (0.705), not over all four
    assert "Isolet 0.800 against 0.705 (2 splits, 60 against 30 features; within the paper)" in text
    no_best = _sewil_gap(pd.DataFrame([r for r in rows if r["method"] == "fsga"]))
    assert "Output rule" not in no_best and "below the paper" in no_best


def test_best_candidate_variant_is_asked_for_by_name():
    default = {c["method"] for c in make_cells(RunConfig(runs=1, datasets=["Isolet"]))}
    assert "fsga_best" not in default
    asked = make_cells(RunConfig(runs=2, datasets=["Isolet"], methods=["fsga_best"]))
    assert [(c["method"], c["seed"]) for c in asked] == [("fsga_best", 0), ("fsga_best", 1)]


def test_table2_names_the_deviation_where_tb_is_above_the_paper():
    from weakfs.experiments.sewil._report import _table2

    row = {"dataset": "Protein", "method": "criteria", "gt_acc_u": 0.66, "oob_acc_u": 0.62}
    row.update({"cb_acc_u": 0.62, "cbil_acc_u": 0.62, "tb_acc_u": 0.62})  # paper TB .441 ± .06
    text = _table2(pd.DataFrame([{**row, "seed": seed} for seed in range(3)]))
    assert "TB is above the paper on Protein" in text
    row["tb_acc_u"] = 0.45
    assert "TB is above" not in _table2(pd.DataFrame([row]))


def test_arms_and_tb_printed_cells_only_when_asked():
    from weakfs.experiments.sewil._cells import VERSION
    from weakfs.experiments.sewil._protocol import ARM_METHODS, TB_PRINTED_METHOD

    default = make_cells(RunConfig(runs=1, datasets=["Isolet"]))
    assert not {c["method"] for c in default} & {*ARM_METHODS, TB_PRINTED_METHOD}
    asked = make_cells(
        RunConfig(runs=5, datasets=["Isolet", "Coil20"], methods=[*ARM_METHODS, TB_PRINTED_METHOD])
    )
    assert len(asked) == 5 * 2 * (len(ARM_METHODS) + 1)
    assert sorted({c["seed"] for c in asked}) == [0, 1, 2, 3, 4]
    versions = {c["method"]: VERSION(c) for c in asked}
    assert versions[TB_PRINTED_METHOD] == 3 and versions["fsga-oob"] == 2
    # the committed cells keep their versions (and so their keys)
    assert VERSION({"method": "fsga"}) == 2 and VERSION({"method": "criteria"}) == 3
    t2_only = make_cells(
        RunConfig(runs=1, datasets=["Isolet"], methods=["fsga-cb", TB_PRINTED_METHOD],
                  options={"tables": "t2"})
    )  # fmt: skip
    assert [c["method"] for c in t2_only] == [TB_PRINTED_METHOD]


@pytest.mark.needs_data("mice_protein")
def test_fsga_cbil_arm_is_the_fsga_cell_and_records_the_wrapper():
    from weakfs.experiments.sewil._cells import run_cell

    cell = {"dataset": "Protein", "seed": 1, "quick": True, "n_jobs": 1, "n_estimators": 5}
    fsga = run_cell({**cell, "method": "fsga"})
    arm = run_cell({**cell, "method": "fsga-cbil"})
    for key in ("acc_u", "acc_t", "n_features", "history", "n_evaluations"):
        assert arm[key] == fsga[key]
    assert 0.0 <= arm["pseudo_label_accuracy"] <= 1.0
    assert 0.0 < arm["pseudo_label_share"] <= 1.0
    assert 0.0 <= arm["criterion_value"] <= 1.0
    assert 1.0 <= arm["mislabeling_beta"] <= arm["mislabeling_gamma"] <= 8.0
    bounded = run_cell({**cell, "method": "fsga-lenmut-bounded"})
    assert bounded["max_length_change"] == 2  # floor(floor(sqrt(77)) / 4)
    # the fsga cell's selector again, with its final population's votes recorded
    votes = run_cell({**cell, "method": "fsga-votes"})
    for key in ("acc_u", "acc_t", "n_features", "history"):
        assert votes[key] == fsga[key]
    counts = dict(item.split(":") for item in votes["votes"].split(";"))
    assert all(1 <= int(c) <= votes["population_size"] for c in counts.values())
    # the top-m by votes at FSGA's own count is FSGA's own selection
    assert votes["top_own_m"] == fsga["n_features"]
    assert votes["top_own_acc_u"] == fsga["acc_u"]
    assert votes["top_paper_m"] == 33  # the paper's d' on Protein
    assert votes["top_d23_m"] == 19  # ceil(77 ** (2 / 3))
    assert votes["top_d23_voted"] <= min(len(counts), 19)
    every = run_cell({**cell, "method": "sla-all"})
    assert every["n_features"] == 77 and 0.0 <= every["acc_u"] <= 1.0


@pytest.mark.needs_data("mice_protein")
def test_tb_printed_cell_repeats_the_criteria_cell():
    from weakfs.experiments.sewil._cells import run_cell

    cell = {"dataset": "Protein", "seed": 0, "quick": True, "n_jobs": 1, "n_estimators": 5}
    old = run_cell({**cell, "method": "criteria"})
    new = run_cell({**cell, "method": "criteria-tb-printed"})
    for key in ("gt_acc_u", "oob_acc_u", "tb_acc_u", "cb_acc_u", "cbil_acc_u", "n_features"):
        assert new[key] == old[key]
    assert 0.0 <= new["tb_printed_acc_u"] <= new["gt_acc_u"]
    assert -1.0 <= new["tb_printed_rho"] <= 1.0 and 0 <= new["gt_index"] < new["n_subsets"]


def _arm_rows():
    rows = []
    for seed in range(5):
        for ds, base in (("Isolet", 0.78), ("Coil20", 0.93)):
            cell = {"dataset": ds, "seed": seed, "n_features": 40}
            for arm, shift in (("fsga-cbil", 0.0), ("fsga-oob", 0.04), ("fsga-cb", -0.01)):
                rows.append(
                    {
                        **cell,
                        "method": arm,
                        "acc_u": base + shift + seed / 1000,
                        "criterion_value": 0.5,
                        "pseudo_label_accuracy": 0.8,
                    }
                )
            rows.append({**cell, "method": "fsga", "acc_u": base + seed / 1000})
            rows.append({**cell, "method": "rlsr", "acc_u": base + 0.03, "n_features": 73})
    return pd.DataFrame(rows)


def test_arm_report_helpers_on_a_made_up_table():
    from weakfs.experiments.sewil._arms_report import (
        arm_summary,
        arm_table,
        arms_conclusion,
        arms_section,
    )

    table = _arm_rows()
    rows = arm_table(table)
    assert list(rows["arm"][:3]) == ["fsga-cbil", "fsga-cb", "fsga-oob"]  # protocol order
    isolet = rows[rows["dataset"] == "Isolet"].set_index("arm")
    # paper SEW-IL on Isolet .814 ± .017: 0.782 below, 0.822 within; Coil20 .941 ± .011
    assert isolet.at["fsga-cbil", "vs paper"] == "below"
    assert isolet.at["fsga-oob", "vs paper"] == "within"
    assert isolet.at["fsga-oob", "ACC-U"] == "0.822 ± 0.002"
    assert isolet.at["fsga-oob", "RLSR ours (paper)"] == "0.810 ± 0.000 (.822 ± .02)"
    summary = arm_summary(table, rows).set_index("arm")
    assert summary.at["fsga-oob", "reaches the paper's sd"] == 2  # Coil20 0.972: above
    assert summary.at["fsga-oob", "above RLSR"] == 2
    assert summary.at["fsga-cb", "above RLSR"] == 0
    assert summary.at["fsga-oob", "ΔACC-U vs fsga-cbil"] == "+0.040 (10 splits)"
    assert summary.at["fsga-cbil", "ΔACC-U vs fsga-cbil"] == "reference"
    text = arms_conclusion(summary.reset_index())
    assert "`fsga-oob` (2 of 2) reaches the paper's SEW-IL" in text
    none = table[table["method"] != "fsga-oob"]
    assert "no arm reaches" in arms_conclusion(arm_summary(none))
    section = arms_section(table)
    assert "same ACC-U and d' on 10 of the 10 splits" in section  # fsga-cbil == fsga here
    assert arms_section(table[table["method"] == "rlsr"]) == ""
    # the earlier unbounded variant joins the arms where it ran, never alone
    lenmut = table[table["method"] == "fsga"].assign(method="fsga_lenmut")
    both = arm_table(pd.concat([table, lenmut]))
    assert list(both.loc[both["dataset"] == "Isolet", "arm"])[-1] == "fsga_lenmut"
    assert arms_section(pd.concat([table[table["method"] == "rlsr"], lenmut])) == ""


def test_subset_report_on_a_made_up_table():
    from weakfs.experiments.sewil._subset_report import (
        subset_rows,
        subset_section,
        subset_summary,
        top_m_frame,
    )

    table = _arm_rows()
    every = table[table["method"] == "fsga"].assign(method="sla-all", n_features=617, acc_t=0.8)
    every["acc_u"] += 0.02  # all features beat SEW-IL's subset by 0.02 on every split
    votes = table[table["method"] == "fsga"].assign(
        method="fsga-votes", top_own_acc_u=table["acc_u"], top_own_m=40,
        top_d23_acc_u=table["acc_u"] + 0.03, top_d23_m=73,
    )  # fmt: skip
    votes["top_own_acc_u"] = votes["acc_u"]
    votes["top_d23_acc_u"] = votes["acc_u"] + 0.03
    full = pd.concat([table, every, votes], ignore_index=True)
    top = top_m_frame(full)
    assert set(top["method"]) == {"fsga-top-own", "fsga-top-d23"}  # no paper count recorded
    rows = subset_rows(full).set_index(["dataset", "subset"])
    assert rows.at[("Isolet", "SEW-IL (fsga)"), "Δ vs sla-all"] == -0.02
    assert rows.at[("Isolet", "SEW-IL (fsga)"), "splits ≥ sla-all"] == "0 of 5"
    assert rows.at[("Isolet", "fsga-top-d23"), "splits ≥ sla-all"] == "5 of 5"
    assert rows.at[("Isolet", "fsga-oob"), "Δ vs sla-all"] == 0.02
    summary = subset_summary(subset_rows(full)).set_index("subset")
    assert summary.at["SEW-IL (fsga)", "≥ sla-all"] == 0
    assert summary.at["fsga-top-d23", "≥ sla-all"] == 2 and summary.at["fsga-oob", "datasets"] == 2
    section = subset_section(full)
    # sla-all on Isolet 0.802 (within .814 ± .017), Coil20 0.952 (within .941 ± .011)
    assert "reaches the paper's SEW-IL ACC-U (within its sd or above) on 2 of 2" in section
    assert subset_section(table) == ""


def test_size_rows_correlate_a_subsets_size_with_its_shortfall():
    from weakfs.experiments.sewil._subset_report import size_rows

    seeds = np.arange(12)
    size = 30 + 2 * seeds  # larger subsets lose less: Δ = -0.06 + 0.004 * seed
    fsga = pd.DataFrame(
        {"dataset": "Isolet", "seed": seeds, "method": "fsga", "n_features": size,
         "acc_u": 0.78 + 0.004 * seeds}
    )  # fmt: skip
    every = fsga.assign(method="sla-all", n_features=617, acc_u=0.84)
    rows = size_rows(pd.concat([fsga, every], ignore_index=True)).set_index("dataset")
    assert rows.at["Isolet", "Spearman (d', Δ)"] == 1.0 and rows.at["Isolet", "subsets"] == 12
    assert rows.at["Isolet", "mean Δ, smallest third"] == round(-0.06 + 0.004 * 1.5, 3)
    assert rows.at["Isolet", "mean Δ, largest third"] == round(-0.06 + 0.004 * 9.5, 3)
    assert size_rows(pd.concat([fsga[:9], every], ignore_index=True)).empty  # under 10


def test_oracle_criterion_is_the_out_of_bag_error_against_the_truth():
    from weakfs.experiments.sewil._cells import TruthOOBError
    from weakfs.semi_supervised import ForestEvidence

    oob = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [np.nan, np.nan]])
    pseudo = np.array([0, 1, 0, 1])  # the criterion must not read these
    evidence = ForestEvidence(oob, pseudo, np.array([True, False, False, False]))
    # row 3 was never out of bag; of rows 0-2 the truth disagrees with the vote on row 2
    assert TruthOOBError(np.array([0, 1, 1, 0]))(evidence) == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="every training row pseudo-labeled"):
        TruthOOBError(np.array([0, 1, 1]))(evidence)


def test_oracle_rows_compare_the_truth_guided_subset_on_test_rows():
    from weakfs.experiments.sewil._subset_report import oracle_conclusion, oracle_rows

    base = {"dataset": "Coil20", "n_features": 40}
    rows = []
    for seed in range(3):
        rows.append({**base, "seed": seed, "method": "fsga", "acc_u": 0.90, "acc_t": 0.90})
        rows.append({**base, "seed": seed, "method": "sla-all", "acc_u": 0.94, "acc_t": 0.93})
        rows.append({**base, "seed": seed, "method": "fsga-oracle", "acc_u": 0.97, "acc_t": 0.91})
    rows.append({**base, "seed": 3, "method": "fsga-oracle", "acc_u": 0.99, "acc_t": 0.99})
    out = oracle_rows(pd.DataFrame(rows)).set_index("dataset")
    assert out.at["Coil20", "splits"] == 3  # split 3 has no fsga / sla-all cell
    assert out.at["Coil20", "oracle Δ ACC-T vs sla-all"] == -0.02  # ACC-T, not ACC-U
    assert "reaches `sla-all`'s ACC-T on 0 of 1" in oracle_conclusion(out.reset_index())
    assert "not in the criterion" in oracle_conclusion(out.reset_index())
    assert out.at["Coil20", "oracle ACC-U vs paper"] == "above"  # paper: .941 ± .011
    said = oracle_conclusion(out.reset_index())
    assert "reaches the paper's SEW-IL (within its sd or above) on 1 of 1 datasets, our " in said
    assert "on the same splits on 0: the paper's numbers lie within" in said  # fsga 0.90: below
    assert "even the oracle stays below" not in said
    low = oracle_rows(pd.DataFrame(rows).replace({"acc_u": {0.97: 0.90}}))
    assert "on Coil20 even the oracle stays below the paper's number" in oracle_conclusion(low)


def test_tb_printed_report_helpers_on_a_made_up_table():
    from weakfs.experiments.sewil._arms_report import (
        tb_printed_conclusion,
        tb_printed_section,
        tb_printed_table,
    )

    rows = []
    for seed in range(4):
        common = {"dataset": "Protein", "seed": seed, "gt_acc_u": 0.66, "tb_acc_u": 0.66}
        rows.append({**common, "method": "criteria", "cbil_acc_u": 0.62})
        rows.append(
            {
                **common,
                "method": "criteria-tb-printed",
                "tb_printed_acc_u": 0.44 if seed else 0.66,
                "tb_rho": 0.9,
                "tb_printed_rho": -0.8,
                "cbil_acc_u": 0.62,
            }
        )
    table = pd.DataFrame(rows)
    out = tb_printed_table(table).set_index("criterion")
    assert out.at["TB", "picks the best"] == "4 of 4"
    assert out.at["TB-PRINTED", "picks the best"] == "1 of 4"
    assert out.at["TB-PRINTED", "ρ"] == -0.8
    # paper TB on Protein .441 ± .06: 0.495 within, 0.66 above
    assert out.at["TB", "vs paper"] == "above" and out.at["TB-PRINTED", "vs paper"] == "within"
    text = tb_printed_conclusion(tb_printed_table(table))
    assert "TB restricted (ours) is within the paper's TB sd on 0 of 1" in text
    assert "TB as printed is within the paper's TB sd on 1 of 1" in text
    assert "best subset in 1 of 4 splits and trails GT by 0.165" in text
    section = tb_printed_section(table)
    assert "agree on 4 of the 4 splits" in section
    assert tb_printed_section(table[table["method"] == "criteria"]) == ""


def test_report_of_criteria_cells_alone(tmp_path):
    # a run of Table 2's cells only has no ACC-U column: Tables 3 and 4 say "not run"
    rows = [
        {"dataset": "Protein", "method": "criteria-tb-printed", "seed": s, "gt_acc_u": 0.66,
         "tb_acc_u": 0.66, "tb_printed_acc_u": 0.44, "select_seconds": 1.0}
        for s in range(3)
    ]  # fmt: skip
    ctx = ReportContext(out_dir=tmp_path, name="sewil-tables", config=RunConfig(), command="x")
    text = write_report(pd.DataFrame(rows), ctx)
    assert "Table 2 with the transductive bound as printed" in text


def test_size_and_accuracy_sentence_follows_the_test():
    """The report's sentence on subset size and ACC-U claims an association only at p < 0.05,
    calls it weak below |rho| 0.3 and names its direction."""
    assert _size_and_accuracy(0.11, 0.20) == "but within a dataset it does not go with ACC-U"
    assert _size_and_accuracy(0.16, 0.04).endswith(
        "goes weakly with ACC-U, larger subsets scoring higher"
    )
    assert _size_and_accuracy(-0.5, 0.001).endswith(
        "goes with ACC-U, smaller subsets scoring higher"
    )
    assert "does not go" in _size_and_accuracy(float("nan"), float("nan"))
