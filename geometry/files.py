"""Writing a file in one piece: a failed or interrupted write never leaves a partial
file, nor a temporary one.

:func:`write_bytes_atomic` writes into a nameless file in the target's directory (Linux
``O_TMPFILE``), gives it a name only once complete (``linkat`` through
``/proc/self/fd``) and renames it over the target; a process killed while writing leaves
nothing behind. Where ``O_TMPFILE`` is missing, a named temporary file beside the target
is used and removed on failure.
"""
from __future__ import annotations

import os
import pathlib
import secrets

__all__ = ["write_bytes_atomic"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes_atomic(path: str | pathlib.Path, data: bytes) -> None:
    """Put ``data`` at ``path`` in one piece, with the usual permissions (0666 less the
    umask). Raises ``OSError`` when the directory cannot be written; the target is then
    unchanged."""
    path = pathlib.Path(path)
    folder = path.parent
    mode = 0o666 & ~_umask()
    tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
    try:
        fd = os.open(folder, os.O_TMPFILE | os.O_WRONLY, mode)
    except (OSError, AttributeError):  # no O_TMPFILE here: a named temporary file
        fd = None
    try:
        if fd is not None:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                # linkat(AT_SYMLINK_FOLLOW) on /proc/self/fd/N gives the nameless file a name
                proc = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
                try:
                    os.link(str(f.fileno()), tmp, src_dir_fd=proc, follow_symlinks=True)
                finally:
                    os.close(proc)
        else:
            with open(tmp, "xb") as f:
                f.write(data)
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
