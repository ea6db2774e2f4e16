"""Package namespaces whose names are imported on first use (PEP 562).

A package ``__init__`` lists its public names and the submodule each comes from; the
submodule is imported the first time one of its names is read, so importing the
package itself costs nothing (``furball --help`` does not load scipy or shapely).
Type checkers read the same names from an ``if TYPE_CHECKING:`` block.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping

__all__ = ["attach"]


def attach(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` whose public ``name`` lives in
    submodule ``exports[name]`` (relative, e.g. ``".pose"``)."""

    def __getattr__(name: str) -> object:
        where = exports.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(where, package), name)

    def __dir__() -> list[str]:
        return sorted(set(exports) | set(importlib.import_module(package).__dict__))

    return __getattr__, __dir__
