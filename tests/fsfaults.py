"""Real file-system faults for tests: a read-only folder and a nearly full disk, as real tmpfs mounts.

Root ignores permission bits, so ``chmod`` does not make a folder read-only for the tests; a mount does.
Both fixtures need root (the development machine and CI run as root) and unmount in a ``finally``.

- ``readonly_dir``: an empty folder mounted read-only (``mount -t tmpfs -o ro``): every write is EROFS.
- ``full_disk``: a 3 MB tmpfs; ``fill(left=...)`` writes a file of zeros leaving ``left`` bytes free, so
  the next large write fails with ENOSPC. Files put there before ``fill`` (an earlier good output) stay.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest


def _mount(target: Path, opts: str) -> None:
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(target)], check=True, capture_output=True)


def _umount(target: Path) -> None:
    subprocess.run(["umount", "-l", str(target)], check=False, capture_output=True)


@pytest.fixture
def readonly_dir(tmp_path):
    """An empty read-only folder (a read-only tmpfs mount)."""
    d = tmp_path / "ro"
    _mount(d, "ro,size=1m")
    try:
        yield d
    finally:
        _umount(d)


class FullDisk:
    """A small tmpfs at ``.path``; :meth:`fill` leaves only ``left`` bytes free."""

    def __init__(self, path: Path):
        self.path = path
        self.filler = path / ".filler"

    def free(self) -> int:
        st = os.statvfs(self.path)
        return st.f_bavail * st.f_frsize

    def fill(self, left: int = 0) -> None:
        with open(self.filler, "ab") as fh:
            need = self.free() - left
            while need > 0:
                n = min(need, 1 << 20)
                try:
                    fh.write(b"\0" * n)
                    fh.flush()
                except OSError:
                    break
                need = self.free() - left


@pytest.fixture
def full_disk(tmp_path):
    """A 3 MB tmpfs (``FullDisk``); call ``fill()`` once the earlier good output is in place."""
    d = tmp_path / "disk"
    _mount(d, "size=3m")
    try:
        yield FullDisk(d)
    finally:
        _umount(d)
