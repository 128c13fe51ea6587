"""Run Python as after a bare ``pip install meeplelab``: no extra's modules can be imported.

The test environment has every extra installed (the ``test`` extra brings them all), so a child process hides
what a bare install would not have: a finder placed first on ``sys.meta_path`` raises ``ModuleNotFoundError``
(what Python raises for a package that is not installed) for every installed top-level module whose distribution
is not among the project's dependencies (``pyproject.toml``) and theirs, evaluated through the installed
distributions' metadata. That hides the extras (OpenSpiel, Dask, PettingZoo, Jupyter), what they pull in (psutil,
toolz, ...) and the test tools alike. With ``extras`` given, only those extras' own modules
(:data:`meeplelab.sim.core.extras.EXTRAS`) are hidden. ``python -m tests.no_extras -c CODE`` or
``python -m tests.no_extras -m MODULE ARGS`` (or :func:`run`) starts one.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class HideModules:
    """A meta path finder that refuses the top-level modules ``names`` (and everything under them)."""

    def __init__(self, names):
        self.names = frozenset(names)

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)


#: what a fresh virtualenv holds besides the project's dependencies
SEEDED = {"pip", "setuptools", "wheel"}


def bare_install() -> set[str]:
    """The distributions ``pip install meeplelab`` installs (canonical names): ``pyproject.toml``'s dependencies
    and, through the installed distributions' metadata, theirs (markers evaluated without extras)."""
    import tomllib
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    seen: set[str] = set()
    todo = [Requirement(d) for d in deps]
    while todo:
        r = todo.pop()
        name = canonicalize_name(r.name)
        if name in seen or (r.marker is not None and not r.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        try:
            todo += [Requirement(x) for x in metadata.distribution(name).requires or ()]
        except metadata.PackageNotFoundError:
            continue
    return seen | SEEDED | {"meeplelab"}


def hidden_modules(extras=None) -> set[str]:
    """The top-level modules to hide: those of ``extras`` (:data:`meeplelab.sim.core.extras.EXTRAS`), or by
    default every installed module that :func:`bare_install` does not bring."""
    from importlib import metadata

    from packaging.utils import canonicalize_name

    if extras is not None:
        from meeplelab.sim.core.extras import EXTRAS

        return {m for e in extras for m in EXTRAS[e]}
    keep = bare_install()
    return {m for m, dists in metadata.packages_distributions().items()
            if not any(canonicalize_name(d) in keep for d in dists)}


def hide(extras=None) -> None:
    """Hide the modules of ``extras`` (default all) from this process; none of them may be imported yet."""
    names = hidden_modules(extras)
    loaded = sorted(n for n in sys.modules if n.split(".")[0] in names)
    assert not loaded, f"already imported, cannot be hidden: {loaded}"
    sys.meta_path.insert(0, HideModules(names))


def run(args: list[str], *, cwd: Path | str | None = None, timeout: float = 600, extras=None,
        env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m tests.no_extras ARGS`` in ``cwd``: ``ARGS`` is ``["-c", CODE]`` or ``["-m", MODULE, ...]``.

    Returns the finished process (text output captured). ``extras``: the extras to hide (default all).
    """
    e = {**os.environ, **(env or {})}
    e["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [e.get("PYTHONPATH")])])
    if extras is not None:
        e["MEEPLELAB_HIDE_EXTRAS"] = ",".join(extras)
    return subprocess.run([sys.executable, "-m", "tests.no_extras", *args], cwd=cwd, env=e, capture_output=True,
                          check=False, text=True, timeout=timeout)


def main(argv: list[str]) -> None:
    """Hide the extras (``$MEEPLELAB_HIDE_EXTRAS``, comma separated; default all), then run ``-c CODE`` or
    ``-m MODULE ARGS...`` as ``python`` would."""
    wanted = os.environ.pop("MEEPLELAB_HIDE_EXTRAS", None)
    hide(wanted.split(",") if wanted else None)
    if len(argv) >= 2 and argv[0] == "-c":
        sys.argv = ["-c", *argv[2:]]
        exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})  # noqa: S102 (python -c, as given)
    elif len(argv) >= 2 and argv[0] == "-m":
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        raise SystemExit("usage: python -m tests.no_extras -c CODE | -m MODULE [ARGS...]")


if __name__ == "__main__":
    main(sys.argv[1:])
