"""Every public estimator documents each ``__init__`` parameter in its numpydoc ``Parameters``
section: in the signature's order, with a type and a description."""

import inspect
import warnings

import pytest
from numpydoc.docscrape import NumpyDocString

from weakfs.utils._testing import all_estimators

KNOWN_UNDESCRIBED: dict = {}


def _documented(cls) -> list:
    """``(name, type, description)`` of every documented parameter, one per name."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a malformed section is a failure, not a warning
        doc = NumpyDocString(inspect.getdoc(cls) or "")
    out = []
    for param in doc["Parameters"]:
        for name in param.name.split(","):
            out.append((name.strip(), param.type.strip(), " ".join(param.desc).strip()))
    return out


def _signature(cls) -> list[str]:
    return [
        name
        for name, p in inspect.signature(cls.__init__).parameters.items()
        if name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


@pytest.mark.parametrize("cls", all_estimators(), ids=lambda cls: cls.__name__)
def test_init_parameters_are_documented(cls):
    documented = _documented(cls)
    names = [name for name, _, _ in documented]
    signature = _signature(cls)
    missing = [p for p in signature if p not in names]
    assert not missing, f"{cls.__name__}: parameters without documentation: {missing}"
    extra = [p for p in names if p not in signature]
    assert not extra, f"{cls.__name__}: documented parameters it does not have: {extra}"
    assert names == signature, f"{cls.__name__}: documented in another order than {signature}"
    untyped = [name for name, type_, _ in documented if not type_]
    assert not untyped, f"{cls.__name__}: parameters without a type: {untyped}"
    undescribed = {name for name, _, desc in documented if not desc}
    known = KNOWN_UNDESCRIBED.get(cls, set())
    assert undescribed <= known, (
        f"{cls.__name__}: parameters without a description: {sorted(undescribed - known)}"
    )
    if known - undescribed:
        warnings.warn(
            f"{cls.__name__}: {sorted(known - undescribed)} are described now; remove them "
            "from KNOWN_UNDESCRIBED",
            UserWarning,
            stacklevel=1,
        )


def test_the_check_reads_numpydoc_sections():
    class Documented:
        """Summary.

        Parameters
        ----------
        a, b : int
            Two numbers.
        c : str
        """

        def __init__(self, a, b, c): ...

    assert _documented(Documented) == [
        ("a", "int", "Two numbers."),
        ("b", "int", "Two numbers."),
        ("c", "str", ""),
    ]
    assert _signature(Documented) == ["a", "b", "c"]
