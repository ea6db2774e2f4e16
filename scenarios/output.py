"""Writing output files safely, and reaching the optional drawing package.

* Files are written to a temporary name beside the target and renamed into place
  only when complete, so a failed run leaves no partial output file.
* Pictures are drawn by the ``viz`` package, which nothing in the engine imports: the
  CLI looks the renderer up by name in the ``furball.plot`` entry-point group (declared
  in pyproject.toml) and saves the figure it returns.
"""
from __future__ import annotations

import os
import pathlib
import tempfile
from importlib.metadata import entry_points

from geometry.errors import InputError

PLOT_FORMATS = (".png", ".svg", ".pdf")


def check_output_path(path: str, formats: tuple[str, ...], option: str) -> pathlib.Path:
    """Validate an output file name before any work is done. Raises :class:`InputError`."""
    p = pathlib.Path(path)
    if p.suffix.lower() not in formats:
        raise InputError(f"{option} {path}: expected a file ending in {', '.join(formats)}")
    parent = p.parent if str(p.parent) else pathlib.Path(".")
    if not parent.is_dir():
        raise InputError(f"{option} {path}: directory {parent} does not exist")
    if p.is_dir():
        raise InputError(f"{option} {path}: is a directory, expected a file name")
    return p


def write_atomic(path: pathlib.Path, write) -> None:
    """Call ``write(tmp_path)`` and move the result onto ``path`` only if it succeeds."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=path.parent or ".")
    os.close(fd)
    try:
        write(pathlib.Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        pathlib.Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: pathlib.Path, text: str) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def renderer(name: str):
    """The ``furball.plot`` entry point ``name`` (a callable returning a matplotlib Figure)."""
    for ep in entry_points(group="furball.plot"):
        if ep.name == name:
            return ep.load()
    raise InputError(f"cannot draw '{name}': the furball viz package is not installed")


def save_figure(figure, path: pathlib.Path, **savefig_kwargs) -> None:
    """Save a figure atomically (format from the file suffix)."""
    write_atomic(path, lambda tmp: figure.savefig(tmp, **savefig_kwargs))
