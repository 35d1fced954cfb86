"""Writing output files safely: never onto a command's own input, never half-written.

A command's output replaces the old file only once it is complete (a temporary file in the same
directory, renamed over it), so a full disk or a crash leaves the old file as it was; any
failure is one "cannot write FILE: reason" error instead of a traceback.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from lit.errors import InputError


def _identity(path: str | Path) -> tuple[int, int] | None:
    """(device, inode) of *path* ("-" = stdin), or None if it does not exist."""
    try:
        st = os.fstat(sys.stdin.fileno()) if str(path) == "-" else os.stat(path)
    except (OSError, ValueError):  # no such file, or stdin closed / replaced by a non-file
        return None
    return st.st_dev, st.st_ino


def slug(name: str) -> str:
    """A file-name-safe form of *name* (a feature, a rule), so it can name an output file."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", name).strip("_")[:60]


def refuse_input_as_output(output: str | Path, *inputs: str | Path | None) -> None:
    """InputError if *output* is one of *inputs* — by resolved path, or by device and inode
    (hard links, and stdin redirected from the output file) — since writing it would destroy
    the input before it is read."""
    out = Path(output)
    target = _identity(out)
    for given in inputs:
        if given is None:
            continue
        same_path = str(given) != "-" and out.resolve() == Path(given).resolve()
        if same_path or (target is not None and _identity(given) == target
                         and _is_regular(out)):
            shown = "standard input" if str(given) == "-" else str(given)
            raise InputError(f"{output}: the output would overwrite the input ({shown})")


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _mode_for(path: Path) -> int:
    """The permissions *path* has, or those a new file gets under the umask (mkstemp's own
    0600 would make every rewritten output private)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def temporary_beside(path: Path) -> Path:
    """A new empty file in *path*'s directory, with the permissions *path* has or would get
    (renaming it over *path* is then atomic and changes nothing else)."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                    dir=path.parent if str(path.parent) else ".")
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        os.chmod(fd, _mode_for(path))
    finally:
        os.close(fd)
    return Path(name)


def overwrite_temporary(path: Path) -> Path:
    """Where `lit nli --overwrite` writes until its run is complete: one fixed name beside
    *path* (``.NAME.overwrite.tmp``), so the next run on *path* finds what a killed run left
    there (lit.pipeline.run adopts or removes it)."""
    return path.with_name(f".{path.name}.overwrite.tmp")


def create_overwrite_temporary(path: Path) -> Path:
    """A new empty `overwrite_temporary` of *path*, with the permissions *path* has."""
    tmp = overwrite_temporary(path)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.chmod(fd, _mode_for(path))
        finally:
            os.close(fd)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
    return tmp


def stale_temporaries(path: Path) -> list[Path]:
    """Temporaries a killed `--overwrite` run of an older LIT left beside *path*
    (``.NAME.XXXXXXXX.tmp``, from `temporary_beside`)."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")
    folder = path.parent if str(path.parent) else Path(".")
    try:
        return sorted(p for p in folder.iterdir() if pattern.fullmatch(p.name))
    except OSError:
        return []


@contextmanager
def atomic_text(path: str | Path) -> Iterator[IO[str]]:
    """A text file to write *path* through: a temporary file beside it, fsynced and renamed
    over *path* when the block ends without an exception (removed otherwise). A path that
    exists but is not a regular file (/dev/stdout, a pipe) is written directly. OSError
    becomes InputError("cannot write PATH: reason")."""
    path = Path(path)
    direct = path.exists() and not _is_regular(path)
    tmp = None if direct else temporary_beside(path)
    try:
        with open(tmp or path, "w", encoding="utf-8") as f:
            yield f
            f.flush()
            if not direct:
                os.fsync(f.fileno())
        if tmp is not None:
            os.replace(tmp, path)
            tmp = None
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Replace *path* with *text* in one step (see `atomic_text`)."""
    with atomic_text(path) as f:
        f.write(text)
