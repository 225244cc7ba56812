"""The vectorised information measures against literal textbook formulas on small data."""

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from weakfs import _information as info


def brute_entropy(rows) -> float:
    counts = Counter(map(tuple, rows))
    n = sum(counts.values())
    return -sum(c / n * np.log2(c / n) for c in counts.values())


def brute_mi(x_rows, y_rows) -> float:
    n = len(x_rows)
    pxy = Counter(zip(map(tuple, x_rows), map(tuple, y_rows)))
    px, py = Counter(map(tuple, x_rows)), Counter(map(tuple, y_rows))
    return sum(c / n * np.log2((c / n) / (px[a] / n * py[b] / n)) for (a, b), c in pxy.items())


small = arrays(
    np.int64, st.tuples(st.integers(2, 40), st.integers(1, 4)), elements=st.integers(0, 3)
)


@settings(max_examples=60, deadline=None)
@given(small)
def test_joint_entropy_matches_brute_force(X):
    assert info.joint_entropy(X) == pytest.approx(brute_entropy(X.tolist()), abs=1e-10)


@settings(max_examples=60, deadline=None)
@given(small, st.data())
def test_mutual_information_matches_brute_force(X, data):
    y = np.array(data.draw(st.lists(st.integers(0, 2), min_size=X.shape[0], max_size=X.shape[0])))
    expected = brute_mi(X.tolist(), y[:, None].tolist())
    assert info.mutual_information(X, y) == pytest.approx(expected, abs=1e-10)
    per_column = info.mutual_information_columns(X, y)
    for j in range(X.shape[1]):
        assert per_column[j] == pytest.approx(
            brute_mi(X[:, [j]].tolist(), y[:, None].tolist()), abs=1e-10
        )


@settings(max_examples=40, deadline=None)
@given(small, st.data())
def test_joint_mi_columns_and_cmi(X, data):
    n = X.shape[0]
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    j = data.draw(st.integers(0, X.shape[1] - 1))
    joint = info.joint_mutual_information_columns(X, j, y)
    for k in range(X.shape[1]):
        expected = brute_mi(X[:, [k, j]].tolist(), y[:, None].tolist())
        assert joint[k] == pytest.approx(expected, abs=1e-10)
    # chain rule: I(X_k, X_j; y) = I(X_j; y) + I(X_k; y | X_j)
    for k in range(X.shape[1]):
        chain = info.mutual_information(X[:, j], y) + info.conditional_mutual_information(
            X[:, k], y, X[:, j]
        )
        assert joint[k] == pytest.approx(chain, abs=1e-9)


def test_units_and_nmi():
    x = np.array([0, 0, 1, 1])
    assert info.entropy(x) == pytest.approx(1.0)
    assert info.entropy(x, base=np.e) == pytest.approx(np.log(2))
    assert info.normalized_mutual_information(x, 1 - x) == pytest.approx(1.0)
    assert info.normalized_mutual_information(x, [0, 1, 0, 1]) == pytest.approx(0.0)
    assert info.normalized_mutual_information([1, 1], [2, 2]) == 1.0
    with pytest.raises(ValueError, match="base"):
        info.entropy(x, base=1)


def test_strings_bools_and_wide_joint_codes():
    assert info.entropy(["a", "b", "a", "b"]) == pytest.approx(1.0)
    assert info.encode(np.array([True, False, True]))[0].tolist() == [1, 0, 1]
    assert info.mutual_information(np.array([True, False] * 3), [1, 0] * 3) == pytest.approx(1.0)
    rng = np.random.RandomState(0)
    X = rng.randint(0, 1000, size=(500, 12))  # radix 1000**12 overflows int64: re-compressed
    codes, k = info.joint_codes(X)
    assert k == len({tuple(r) for r in X.tolist()})
    pairs = {tuple(r): c for r, c in zip(X.tolist(), codes.tolist())}
    assert len(set(pairs.values())) == k


def test_equal_width_bins():
    X = np.array([[0.0, 5, 1], [2.5, 5, 2], [5.0, 5, 1], [10.0, 5, 3]])
    codes, edges = info.equal_width_bins(X, n_bins=5, keep_discrete_up_to=3)
    assert codes[:, 0].tolist() == [0, 1, 2, 4]
    assert codes[:, 1].tolist() == [0, 0, 0, 0]
    assert codes[:, 2].tolist() == [0, 1, 0, 2] and edges[2] is None
    with pytest.raises(ValueError, match="NaN"):
        info.equal_width_bins([[np.nan]])
    before = X.copy()
    info.equal_width_bins(X)
    np.testing.assert_array_equal(X, before)


def test_columnwise_equals_loop_on_random_data():
    rng = np.random.RandomState(1)
    X = rng.randint(0, 5, size=(300, 7))
    y = rng.randint(0, 3, size=300)
    loop = [info.mutual_information(X[:, j], y, base=np.e) for j in range(7)]
    np.testing.assert_allclose(info.mutual_information_columns(X, y, base=np.e), loop, atol=1e-12)
    for a, b in itertools.combinations(range(7), 2):
        assert info.joint_mutual_information_columns(X, b, y)[a] == pytest.approx(
            info.mutual_information(X[:, [a, b]], y), abs=1e-12
        )


def test_bin_equal_width_applies_fitted_edges_to_new_data():
    # in range: the same codes as equal_width_bins; out of range: the end bins; constant: bin 0
    X = np.array([[0.0, 3.0], [0.5, 3.0], [1.0, 3.0]])
    codes, _ = info.equal_width_bins(X, n_bins=4)
    lo, hi = X.min(axis=0), X.max(axis=0)
    np.testing.assert_array_equal(info.bin_equal_width(X, lo, hi, 4), codes)
    new = np.array([[-5.0, 9.0], [0.26, 3.0], [7.0, -1.0]])
    assert info.bin_equal_width(new, lo, hi, 4).tolist() == [[0, 0], [1, 0], [3, 0]]


def test_a_huge_contingency_table_is_counted_sparse_with_the_same_result(monkeypatch):
    rng = np.random.RandomState(0)
    X, y = rng.randint(0, 60, size=(300, 6)), rng.randint(0, 40, size=300)
    dense = info.mutual_information_columns(X, y)
    monkeypatch.setattr(info, "_BLOCK_ENTRIES", 1)  # every table is "huge": the sparse path
    monkeypatch.setattr(info, "_SPARSE_RATIO", 0)
    sparse = info.mutual_information_columns(X, y)
    np.testing.assert_allclose(sparse, dense, rtol=0, atol=1e-12)
    np.testing.assert_allclose(sparse[0], brute_mi(X[:, [0]], y[:, None]))


def test_raw_floats_against_raw_floats_need_no_dense_table():
    """mRMR on raw values: 1,200 distinct values per column against a column of 1,200 is a
    dense table of 29 million cells per block; counted sparse it stays small."""
    import tracemalloc

    from weakfs.pu import MRMRSelector

    rng = np.random.RandomState(0)
    X, s = rng.rand(1200, 20), (rng.rand(1200) < 0.2).astype(int)
    tracemalloc.start()
    sel = MRMRSelector(n_features_to_select=5, n_bins=None).fit(X, s)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert sel.get_support().sum() == 5
    assert peak < 50e6


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 60), st.integers(1, 6), st.integers(0, 10_000), st.integers(2, 8))
def test_compiled_discretisation_gives_the_reference_codes(n, d, seed, n_bins):
    """discretize's one-pass kernel equals equal_width_bins (few-valued columns kept)."""
    from weakfs._information import discretize, equal_width_bins

    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    X[:, 0] = rng.randint(0, 3, size=n)  # a few-valued column
    if d > 1:
        X[:, 1] = 7.0  # a constant one
    reference, _ = equal_width_bins(X, n_bins=n_bins, keep_discrete_up_to=n_bins)
    codes = discretize(X, n_bins)
    assert codes.dtype == np.uint8
    np.testing.assert_array_equal(codes, reference)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 80), st.integers(1, 5), st.integers(0, 10_000))
def test_compiled_counts_give_the_same_mutual_information_bit_for_bit(n, d, seed):
    from weakfs._information import EncodedColumns, _columnwise_mi, _encode_columns, encode

    rng = np.random.RandomState(seed)
    codes = rng.randint(0, 5, size=(n, d)).astype(np.uint8)
    y = rng.randint(0, 2, size=n)
    fast = EncodedColumns(codes)
    slow_codes, slow_sizes = _encode_columns(codes.astype(np.int64))
    np.testing.assert_array_equal(fast.codes, slow_codes)
    y_codes, k_y = encode(y)
    np.testing.assert_array_equal(
        fast.mutual_information(y), _columnwise_mi(slow_codes, slow_sizes, y_codes, k_y, np.e)
    )
    j = int(rng.randint(d))
    for major in ("column", "pivot"):
        code_j, size_j = slow_codes[:, j], int(slow_sizes[j])
        if major == "column":
            pair = slow_codes * size_j + code_j[:, None]
        else:
            pair = code_j[:, None] * slow_sizes[None, :] + slow_codes
        expected = _columnwise_mi(pair, slow_sizes * size_j, y_codes, k_y, np.e)
        np.testing.assert_array_equal(fast.joint_mutual_information(j, y, major=major), expected)
