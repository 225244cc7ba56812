"""Each default is written once: the class prior's estimator (``PRIOR_DEFAULTS``), each compared
method's settings (``MethodSpec.settings``, completed for its builder), and no alias shims of
the method list in the command line."""

from __future__ import annotations

import inspect

import pytest

import weakfs.cli
from weakfs._methods import METHODS
from weakfs.pu import estimate_class_prior
from weakfs.pu._prior import PRIOR_DEFAULTS


def test_estimate_class_prior_signature_reads_the_one_set_of_defaults():
    parameters = inspect.signature(estimate_class_prior).parameters
    assert {name: parameters[name].default for name in PRIOR_DEFAULTS} == dict(PRIOR_DEFAULTS)


def test_resolve_class_prior_estimates_with_those_defaults(monkeypatch):
    from weakfs.pu import _prior_resolution, resolve_class_prior

    seen = []

    def estimate(X, s, **settings):
        seen.append(settings)
        return 0.4

    monkeypatch.setattr(_prior_resolution, "_estimate_class_prior", estimate)
    resolve_class_prior([[0.0], [1.0], [2.0], [3.0]], [1, 0, 0, 1], random_state=0)
    # nothing of estimate_class_prior's own defaults retyped: only the convention and the seed
    assert seen == [{"unlabeled": "all", "random_state": 0}]


@pytest.mark.parametrize("name", [m for m, spec in METHODS.items() if spec.build is not None])
def test_a_builder_reads_its_settings_from_the_method_spec(name):
    spec = METHODS[name]
    built = spec.build(2, {}, 0.5, 0)  # no settings given: the spec's, not the builder's own
    params = built.get_params()
    for key, value in spec.settings.items():
        if key in params:
            assert params[key] == value


def test_the_command_line_keeps_no_alias_of_the_method_list():
    for shim in ("SELECTORS", "SELECTOR_ALIASES", "SelectorSpec"):
        assert not hasattr(weakfs.cli, shim)
    from weakfs.cli import _selectors

    assert not hasattr(_selectors, "_load_class")
