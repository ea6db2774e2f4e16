"""Writing a file in one piece: under a temporary name beside it, renamed into place
only once complete, so a failed or interrupted write never leaves a partial file."""
from __future__ import annotations

import os
import pathlib
import tempfile
from typing import Callable

__all__ = ["write_atomic"]


def write_atomic(path: pathlib.Path, write: Callable[[pathlib.Path], object]) -> None:
    """Call ``write(tmp_path)`` (a temporary path with ``path``'s suffix, in its
    directory) and move the result onto ``path`` only if it succeeds; the temporary
    file is removed otherwise. The file gets the usual permissions (0666 less umask)."""
    path = pathlib.Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=path.parent or ".")
    os.close(fd)
    try:
        write(pathlib.Path(tmp))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        pathlib.Path(tmp).unlink(missing_ok=True)
        raise
