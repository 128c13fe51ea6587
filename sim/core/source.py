"""Load a module of the source tree from its file, without running its packages' ``__init__``.

The generators (:mod:`meeplelab.sim.core.generate`) read an engine's declarations (its state ``Layout``, its
decision table, whether its features define ``VALUE_FEATURES``) from the source files alone: an engine
package's ``__init__`` imports its engine, which imports the very modules being written (``cols.py``,
``dispatch.py``, ``play.py``), so importing the package would fail, or read a stale copy, when one of
them is missing or out of date.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import types
from pathlib import Path


#: the folder holding ``sim/`` (a checkout's root, or the installed ``meeplelab`` package): ``meeplelab.sim.x`` is
#: ``TREE/sim/x``; a checkout's ``tests`` engines (``tests.toy``) are found here from any folder
TREE = Path(__file__).resolve().parents[2]


def module_file(name: str) -> Path:
    """The ``.py`` file of module ``name`` (``meeplelab.sim.galileos_truth.state``) on ``sys.path``, found without importing.

    Raises:
        ImportError: no such file on ``sys.path``.
    """
    parts = name.split(".")
    if parts[0] == "meeplelab" and len(parts) > 1:  # the one import name: meeplelab.sim.x is TREE/sim/x
        for f in (TREE.joinpath(*parts[1:]).with_suffix(".py"), TREE.joinpath(*parts[1:], "__init__.py")):
            if f.is_file():
                return f
    roots = [Path(p) for p in sys.path or ["."]] + [TREE]
    try:  # a top-level package's place (an editable install's too), not imported
        top = importlib.util.find_spec(parts[0])
    except (ImportError, ValueError):  # a stand-in package of load_alone has no spec
        top = None
    if top is not None and top.submodule_search_locations:
        roots = [Path(loc).parent for loc in top.submodule_search_locations] + roots
    for root in roots:
        for f in (root.joinpath(*parts).with_suffix(".py"), root.joinpath(*parts, "__init__.py")):
            if f.is_file():
                return f
    raise ImportError(f"no module file for {name!r} on sys.path")


def load_alone(name: str) -> types.ModuleType:
    """Module ``name`` executed from its file. Parent packages not imported yet stand in as bare packages
    (their ``__path__`` only), so the module's relative imports of siblings work but no ``__init__`` of
    theirs runs; the stand-ins are removed afterwards (a later real import runs the real ``__init__``).

    Raises:
        ImportError: the module's file is not found, or its own imports fail.
    """
    if name in sys.modules:
        return sys.modules[name]
    path = module_file(name)
    parts = name.split(".")
    stand_ins = []
    for i in range(1, len(parts)):
        pkg = ".".join(parts[:i])
        if pkg in sys.modules:
            continue
        try:  # a real top-level package (sim, tests) is imported: its __init__ writes nothing generated
            if i == 1:
                importlib.import_module(pkg)
                continue
        except ImportError:
            pass
        mod = types.ModuleType(pkg)
        mod.__path__ = [str(module_file(pkg).parent)]
        sys.modules[pkg] = mod
        stand_ins.append(pkg)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {name} from {path}")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        return mod
    finally:
        for pkg in stand_ins:
            sys.modules.pop(pkg, None)


def defines(name: str, symbol: str) -> bool:
    """True when module ``name``'s file assigns ``symbol`` at its top level (read as text: nothing is imported)."""
    tree = ast.parse(module_file(name).read_text())
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == symbol for t in targets):
            return True
    return False


def package_folder(name: str) -> Path:
    """The folder of package ``name``, found without importing it."""
    return module_file(name).parent
