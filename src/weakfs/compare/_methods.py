"""The selectors ``compare`` runs: the entries of weakfs's one method list
(``weakfs._methods``) that have a ``build`` rule, and which of them read which labels."""

from __future__ import annotations

from weakfs._methods import METHODS as _ALL_METHODS
from weakfs._methods import MethodSpec, canonical_method, settings_at

__all__ = ["METHODS", "MethodSpec", "applicable_methods", "settings_at"]

#: name -> spec, in the order of the leaderboard's method column
METHODS: dict[str, MethodSpec] = {
    name: spec for name, spec in _ALL_METHODS.items() if spec.build is not None
}


def applicable_methods(labels: str, methods=None) -> list[str]:
    """The methods that read ``labels`` (all of them, or those asked for, checked)."""
    fitting = [name for name, spec in METHODS.items() if spec.labels == labels]
    if methods is None:
        return fitting
    names = [canonical_method(m) for m in methods]
    unknown = [m for m in names if m not in METHODS]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; known: {', '.join(METHODS)}")
    wrong = [m for m in names if m not in fitting]
    if wrong:
        raise ValueError(
            f"{', '.join(wrong)} read(s) {METHODS[wrong[0]].labels} labels, not {labels}; "
            f"methods for {labels} labels: {', '.join(fitting)}"
        )
    return names
