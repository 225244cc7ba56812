"""Sphinx configuration of the weakfs documentation.

Build (from the repository root): ``sphinx-build -W --keep-going -b html docs docs/_build/html``.
The build needs no network: no intersphinx inventories are fetched.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent

# the checkout's sources come first, so the pages describe this tree, not an installed copy
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(DOCS / "_ext"))

import weakfs  # noqa: E402

# sphinx-gallery runs the examples without arguments: this makes them take their quick settings
os.environ.setdefault("WEAKFS_EXAMPLES_QUICK", "1")
os.environ.setdefault("MPLBACKEND", "Agg")
# the staged datasets some examples read live in a data folder beside the checkout (locally and
# in CI), found as tests/conftest.py finds it; an empty WEAKFS_DATA counts as unset
_STAGED = ROOT.parent / "shared" / "data"
if not os.environ.get("WEAKFS_DATA") and _STAGED.is_dir():
    os.environ["WEAKFS_DATA"] = str(_STAGED)

project = "weakfs"
author = "weakfs developers"
copyright = "weakfs developers"
release = weakfs.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "weakfs_docs",  # docs/_ext: tables generated from the committed results
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "_tools",
    "_ext",
    "_generated",  # included into pages, not pages themselves
    "README.md",
    "auto_examples/*.ipynb",
    "auto_examples/*.py",
    "auto_examples/*.zip",
    "auto_examples/*.codeobj.json",
    "**.ipynb_checkpoints",
]

# -- autodoc, autosummary, numpydoc -----------------------------------------------------------
autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": False}
autodoc_typehints = "none"  # numpydoc's Parameters sections already give the types
numpydoc_show_class_members = False  # autosummary's class template lists the methods
numpydoc_class_members_toctree = False
# docstrings name types in prose ("array-like of shape (n, k)"): no cross-references attempted
numpydoc_xref_param_type = False

# -- MyST -------------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
# heading anchors let the pages' existing "#section" links resolve
myst_heading_anchors = 3

# -- sphinx-gallery ---------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    # every Python example runs (the shell example is not a gallery item)
    "filename_pattern": r".*\.py$",
    "ignore_pattern": r"__init__\.py",
    "download_all_examples": False,
    "remove_config_comments": True,
    "plot_gallery": "True",
    "matplotlib_animations": False,
    "within_subsection_order": "FileNameSortKey",
    "reference_url": {"weakfs": None},
    "show_memory": False,
    "capture_repr": (),
}

# -- HTML -------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"weakfs {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_show_sourcelink = False
html_static_path: list[str] = []
html_context = {"default_mode": "light"}


def _skip_metadata_routing(app, what, name, obj, skip, options):
    # scikit-learn's generated set_*_request methods: their docstrings cite scikit-learn's own
    # glossary, and they say nothing about weakfs
    if name == "get_metadata_routing" or (name.startswith("set_") and name.endswith("_request")):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_metadata_routing)
