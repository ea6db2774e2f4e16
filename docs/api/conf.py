"""Sphinx configuration of furball's API reference: the docstrings of every module.

Build it from the repository's root (warnings as errors, as tests/test_docs.py does)::

    python -m sphinx -W -b html docs/api build/api

Each package's page lists its own docstring and then every public module below it
(``.. furball-modules:: furball.geometry``), found when the page is built, so a new
module is in the reference without editing a page.
"""
from __future__ import annotations

import importlib
import pkgutil

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

import furball

project = "furball"
release = furball.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
exclude_patterns = ["_build"]

# the docstrings are prose with Google-style sections where they have sections
napoleon_google_docstring = True
napoleon_numpy_docstring = True
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
# frozen dataclasses: their fields are documented by the class docstring, not one by one
autodoc_inherit_docstrings = False
# Short names in annotations and docstrings (``State``, :mod:`state`) are what a reader of
# one game's module means by them, but every game has its own ``State``: Sphinx would link
# a guess, and warns. They stay unlinked text instead of failing the build.
suppress_warnings = ["ref.python"]
html_theme = "alabaster"
html_static_path: list[str] = []


class FurballModules(SphinxDirective):
    """``.. furball-modules:: PACKAGE``: an ``automodule`` section for each public module
    of PACKAGE (not its subpackages, which have their own pages), in name order."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        package = importlib.import_module(self.arguments[0])
        lines: list[str] = []
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            if info.name.startswith("_") or info.ispkg:
                continue
            name = f"{package.__name__}.{info.name}"
            lines += [name, "-" * len(name), "", f".. automodule:: {name}", ""]
        body = nodes.section()
        nested_parse_with_titles(self.state, StringList(lines, source=self.get_source_info()[0]), body)
        return body.children


def setup(app):
    app.add_directive("furball-modules", FurballModules)
