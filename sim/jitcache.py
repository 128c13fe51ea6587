"""numba's on-disk kernel cache: never stale, and always somewhere writable.

Rule kernels are compiled with ``@njit(cache=True)``. numba checks a cached kernel against its own
source file's time and size only, so editing a module the kernel calls into (a constant in
:mod:`meeplelab.sim.core.rng`, a helper kernel in another file) would leave the cached machine code running the
old way, while any edit of the kernel's own file (a comment, an unrelated function) compiles it again.
:func:`install` (called when :mod:`sim` is imported, before any kernel module) makes every cache locator key a
kernel of this project by its call graph instead (:func:`kernel_digest`): the code of the kernel and of every
jitted function it reaches (without line numbers), and the values of the globals they name. Editing one
handler then compiles again exactly the kernels that reach it (the apply dispatcher and the play loops, not the
legal-mask or setup kernels); a comment, a docstring of the module or a function nobody calls compiles
nothing. What the graph cannot look into (a plain project function with a numba ``@overload``, an
``@intrinsic``, a project class) is keyed by its file's import closure (:func:`source_digest`). The stamp is
computed at the kernel's first call, when every module it names is imported. numba still names a cache file
by the function's first line, so a function whose lines move compiles again once. Kernels of other packages
keep numba's own key. A cached jitted function is loaded without numba's registry refresh (:func:`_load_overload`),
which numba does before compiling anyway: a process that only loads kernels skips its 0.5 s.

numba writes its cache beside the source (``__pycache__``) or in the user's cache folder
(``~/.cache/numba``). When neither is writable (a read-only install with a read-only HOME) numba
refuses to define a cached kernel ("no locator available"); :func:`install` adds a last locator
that uses ``$TMPDIR/meeplelab-numba-cache-<uid>``. Set ``NUMBA_CACHE_DIR`` to choose the folder
yourself (numba's own setting; it is used first when set). When no folder can be used,
:func:`no_cache_message` is the one line the CLI says (naming the folder ``NUMBA_CACHE_DIR`` names
when it is set and not writable).

Whenever a kernel of the project is about to be compiled (a cache miss: the first run, a changed
source, a cache in a temporary fallback folder that was emptied), :func:`install`'s listener says so
once per process on stderr, naming the folder the machine code will be cached in
(:func:`compile_notice`), so a compile of several minutes never runs silently, whatever the command
(the CLI, the API, a notebook). It is said when numba really starts compiling, so a one-line error
about the input always comes first. While it compiles, :data:`COMPILES` shows which function and how
many have compiled so far (a row of the progress display of :mod:`meeplelab.play.progress` when one is drawn,
else one line rewritten in place on a terminal or in a notebook, erased at the end); in a pipe or a
log only the notice is said. A loky worker whose parent said the notice says nothing
(:func:`worker_mode`): one notice per command.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import stat
import sys
import tempfile
from pathlib import Path

from numba.core import caching, dispatcher, event
from numba.core.runtime import rtsys

#: top-level packages of this project: their kernels are keyed by their call graph (:func:`kernel_digest`)
PACKAGES = ("meeplelab", "sim", "strategies", "play", "analysis", "studies", "benchmarks", "tests")

_MODULES: dict[Path, tuple[str, bool] | None] = {}  # file -> (module name, is package), or None
_IMPORTS: dict[Path, tuple[list[str], list[str]]] = {}
_DIGESTS: dict[Path, str] = {}


def _module_of(py_file: Path) -> tuple[Path, str, bool] | None:
    """(root folder on sys.path, dotted module name, is a package) of a file in a package tree."""
    p = Path(py_file).resolve()
    is_pkg = p.name == "__init__.py"
    parts = [] if is_pkg else [p.stem]
    d = p.parent
    while (d / "__init__.py").is_file():
        parts.insert(0, d.name)
        d = d.parent
    if not parts:
        return None
    return d, ".".join(parts), is_pkg


@functools.lru_cache(maxsize=None)  # asked once per import edge of every kernel file: 20,000 times per process
def _file_of(root: Path, name: str) -> Path | None:
    """The source file of module ``name`` under ``root`` (package ``__init__.py`` or module file).

    ``meeplelab.sim.x`` is ``root/meeplelab/sim/x`` in an installed wheel and ``root/sim/x`` in a checkout (the
    package-dir mapping of pyproject.toml)."""
    parts = name.split(".")
    if parts[0] not in PACKAGES:
        return None
    for ps in ([parts, parts[1:]] if parts[0] == "meeplelab" and len(parts) > 1 else [parts]):
        base = root.joinpath(*ps)
        for f in (base / "__init__.py", base.with_suffix(".py")):
            if f.is_file():
                return f.resolve()
    return None


_IMPORT_RE = re.compile(
    rb"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]+))", re.M)
_DEF_RE = re.compile(rb"^([ \t]*)(?:async[ \t]+)?def[ \t]", re.M)
_NAME_RE = re.compile(r"^[A-Za-z_][\w.]*$")


def _in_function(text: bytes, pos: int, defs: list[tuple[int, int]]) -> bool:
    """True when the line starting at ``pos`` lies in the body of a ``def`` (indented more than a
    ``def`` line before it, with no line in between indented as little as that ``def``)."""
    line_end = text.find(b"\n", pos)
    line = text[pos: line_end if line_end >= 0 else len(text)]
    indent = len(line) - len(line.lstrip(b" \t"))
    if indent == 0:
        return False
    for start, d_indent in reversed(defs):
        if start >= pos:
            continue
        if d_indent >= indent:
            continue
        # a def less indented than this line: is every non-blank line between them indented deeper?
        between = text[text.find(b"\n", start) + 1: pos].split(b"\n")
        if all(not ln.strip() or len(ln) - len(ln.lstrip(b" \t")) > d_indent for ln in between):
            return True
        return False
    return False


def _imports(py_file: Path, name: str, is_pkg: bool) -> tuple[list[str], list[str]]:
    """What ``py_file`` imports outside function bodies: (modules it names, their parent packages).

    Every ``import``/``from ... import`` line that is not inside a ``def`` counts (also under a
    module-level ``if``/``try``); ``from M import x`` also names ``M.x`` in case it is a module.
    Imports inside functions run when the function is called and cannot change what a kernel
    compiles against. Read with regular expressions (parsing every file with :mod:`ast` costs a
    second per process); a docstring line that looks like an import only adds a file to hash."""
    if py_file in _IMPORTS:
        return _IMPORTS[py_file]
    try:
        text = py_file.read_bytes()
    except OSError:
        text = b""
    defs = [(m.start(), len(m.group(1))) for m in _DEF_RE.finditer(text)]
    package = name if is_pkg else name.rpartition(".")[0]
    found: set[str] = set()
    for m in _IMPORT_RE.finditer(text):
        if _in_function(text, m.start(), defs):
            continue
        frm, what, plain = m.groups()
        if what:
            what = re.sub(rb"#[^\n]*", b"", what)  # a comment inside ``from x import (a,  # ...)``
        if plain:
            for part in plain.decode("utf-8", "replace").split(","):
                mod = part.split(" as ")[0].strip()
                if _NAME_RE.match(mod):
                    found.add(mod)
            continue
        frm = frm.decode("utf-8", "replace")
        level = len(frm) - len(frm.lstrip("."))
        if level:
            pk = package.split(".") if package else []
            base = pk[: len(pk) - (level - 1)] if level - 1 <= len(pk) else []
            mod = ".".join(base + ([frm[level:]] if frm[level:] else []))
        else:
            mod = frm
        if not _NAME_RE.match(mod or "-"):
            continue
        found.add(mod)
        for part in what.decode("utf-8", "replace").strip("() \t\n").split(","):
            n = part.split(" as ")[0].strip()
            if n.isidentifier():
                found.add(f"{mod}.{n}")
    parents = set()
    for n in found:
        parts = n.split(".")
        parents.update(".".join(parts[:i]) for i in range(1, len(parts)))
    _IMPORTS[py_file] = (sorted(found), sorted(parents - found))
    return _IMPORTS[py_file]


def closure(py_file: Path | str) -> list[Path]:
    """The project source files that ``py_file`` imports, directly or through each other (itself
    included), sorted; only modules of :data:`PACKAGES` under the same root are followed. Parent
    packages of an imported module are included (their ``__init__.py`` runs first) but their own
    imports are followed only when they are imported themselves."""
    m = _module_of(Path(py_file))
    if m is None:
        return [Path(py_file).resolve()]
    root, name, is_pkg = m
    start = Path(py_file).resolve()
    seen = {start: (name, is_pkg)}
    hashed = set()
    todo = [start]
    while todo:
        f = todo.pop()
        fname, fpkg = seen[f]
        mods, parents = _imports(f, fname, fpkg)
        for dep in mods:
            g = _file_of(root, dep)
            if g is not None and g not in seen:
                # the file's own dotted name, not the one it was imported by (``meeplelab.sim.x`` or ``sim.x``):
                # its relative imports, and so the closure, must not depend on which importer was read first
                mg = _module_of(g)
                seen[g] = (mg[1], mg[2]) if mg is not None else (dep, g.name == "__init__.py")
                todo.append(g)
        for dep in parents:
            g = _file_of(root, dep)
            if g is not None:
                hashed.add(g)
    return sorted(set(seen) | hashed)


@functools.lru_cache(maxsize=None)
def _bytes(f: Path) -> bytes:
    """A source file's bytes, read once per process (every kernel module's closure hashes the shared ones)."""
    return f.read_bytes()


def source_digest(py_file: Path | str) -> str:
    """sha256 (hex) over the paths (relative to the root) and bytes of :func:`closure` of ``py_file``;
    computed once per process and file."""
    key = Path(py_file).resolve()
    if key not in _DIGESTS:
        m = _module_of(key)
        root = m[0] if m else key.parent
        h = hashlib.sha256()
        for f in closure(key):
            h.update(str(f.relative_to(root) if f.is_relative_to(root) else f).encode() + b"\0")
            h.update(_bytes(f))
            h.update(b"\0")
        _DIGESTS[key] = h.hexdigest()
    return _DIGESTS[key]


def is_project_file(py_file: str | Path) -> bool:
    """True for a source file of one of :data:`PACKAGES` (its kernels are keyed by their closure)."""
    m = _module_of(Path(py_file)) if str(py_file).endswith(".py") and os.path.exists(py_file) else None
    return m is not None and m[1].split(".")[0] in PACKAGES


def fallback_cache_dir() -> Path:
    """The writable folder used when numba finds no other: ``$TMPDIR/meeplelab-numba-cache-<uid>``."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"meeplelab-numba-cache-{uid}"


# ---- the call-graph key (compile only what depends on the change) -----------------------------------------------

_OWN: dict[int, tuple[str, tuple]] = {}  # id(function) -> (its own digest, the functions it references)
_PINNED: list = []  # the functions of _OWN, kept alive so their ids are never reused


def _is_project(modname: str | None) -> bool:
    return bool(modname) and modname.split(".")[0] in PACKAGES


def _code_into(code, h, names: set) -> None:
    """Hash a code object without its line numbers (bytecode, names, constants, nested code), and collect
    every name it loads (globals and attributes, nested functions included)."""
    h.update(code.co_code)
    h.update(getattr(code, "co_exceptiontable", b""))
    h.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars, code.co_argcount,
                   code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags)).encode())
    names.update(code.co_names)
    for c in code.co_consts:
        if isinstance(c, type(code)):
            _code_into(c, h, names)
        elif isinstance(c, frozenset):  # ``x in {1, 2}``: its repr's order changes with the hash seed
            h.update(repr(sorted(repr(x) for x in c)).encode())
        else:
            h.update(repr((type(c).__name__, c)).encode())


def _file_digest_of(obj) -> str:
    """The import-closure digest of the file defining ``obj`` (the conservative key of what the call graph
    cannot see into: a plain function with a numba ``@overload``, an ``@intrinsic``, a project class)."""
    import inspect

    try:
        return source_digest(inspect.getfile(obj))
    except (TypeError, OSError):
        return "?"


def _value_into(v, h, names: set, deps: list, seen_mods: set) -> None:
    """Hash what a kernel compiles against when it references ``v``: a constant's value, a jitted function's
    options (its code is followed as a dependency), a project module's attributes that the code names."""
    import enum
    import types as pytypes

    import numpy as np

    if not hasattr(v, "py_func") and hasattr(getattr(v, "_dispatcher", None), "py_func"):
        v = v._dispatcher  # a ``@vectorize`` DUFunc: its kernel's dispatcher
    if hasattr(v, "py_func") and hasattr(v, "targetoptions"):  # a numba dispatcher (njit, rule, handler)
        deps.append(v.py_func)
        h.update(_options(v).encode())
    elif isinstance(v, pytypes.FunctionType):
        if _is_project(v.__module__):
            h.update(("pyfunc:" + _file_digest_of(v)).encode())
        h.update(f"fn:{v.__module__}.{v.__qualname__}".encode())
    elif isinstance(v, pytypes.ModuleType):
        h.update(f"mod:{v.__name__}".encode())
        if _is_project(v.__name__) and v.__name__ not in seen_mods:
            seen_mods.add(v.__name__)
            d = vars(v)
            for n in sorted(names):
                if n in d:
                    h.update(f"attr:{n}".encode())
                    _value_into(d[n], h, names, deps, seen_mods)
    elif v is None or isinstance(v, (bool, int, float, complex, str, bytes, np.generic, enum.Enum)):
        h.update(repr((type(v).__name__, v)).encode())
    elif isinstance(v, (set, frozenset)):
        h.update(repr(sorted(repr(x) for x in v)).encode())
    elif isinstance(v, (tuple, list)):
        h.update(f"seq{len(v)}".encode())
        for x in v:
            _value_into(x, h, names, deps, seen_mods)
    elif isinstance(v, np.ndarray):
        h.update(repr((v.dtype.descr, v.shape)).encode())  # descr: a structured dtype's field names and order
        h.update(np.ascontiguousarray(v).tobytes())
    elif isinstance(v, type):
        h.update(f"type:{v.__module__}.{v.__qualname__}".encode())
        if _is_project(v.__module__):
            h.update(_file_digest_of(v).encode())
            deps.append(_OPAQUE)
    else:
        t = type(v)
        h.update(f"obj:{t.__module__}.{t.__qualname__}".encode())
        r = repr(v)
        if " at 0x" not in r:
            h.update(r.encode())
        if _is_project(t.__module__) or _is_project(getattr(v, "__module__", None)):
            h.update(_file_digest_of(t if _is_project(t.__module__) else v).encode())
            deps.append(_OPAQUE)


def _own(func) -> tuple[str, tuple]:
    """(digest, referenced functions) of one Python function: its code without line numbers, its defaults,
    its closure cells and the values of the globals it names; computed once per process."""
    key = id(func)
    if key not in _OWN:
        import builtins

        h = hashlib.sha256(f"{func.__module__}.{func.__qualname__}".encode())
        names: set = set()
        _code_into(func.__code__, h, names)
        deps: list = []
        seen_mods: set = set()
        g = func.__globals__
        for n in sorted(names):
            if n in g:
                h.update(f"global:{n}".encode())
                _value_into(g[n], h, names, deps, seen_mods)
            elif hasattr(builtins, n):
                h.update(f"builtin:{n}".encode())
        for cell in func.__closure__ or ():
            try:
                _value_into(cell.cell_contents, h, names, deps, seen_mods)
            except ValueError:  # an empty cell
                h.update(b"empty-cell")
        for dv in (func.__defaults__ or ()) + tuple(sorted((func.__kwdefaults__ or {}).items())):
            _value_into(dv, h, names, deps, seen_mods)
        _PINNED.append(func)
        _OWN[key] = (h.hexdigest(), tuple(deps))
    return _OWN[key]


_OPAQUE = object()  # in a function's references: it names something the call graph cannot look into


def _options(disp) -> str:
    """A dispatcher's compile options as text: its ``targetoptions`` (inline, error_model, fastmath, ...) and
    ``locals`` (declared local types)."""
    declared = getattr(disp, "locals", None) or {}  # numba adds its SSA versions (``acc.1``) as it compiles: not keyed
    return repr(("jit", type(disp).__name__, sorted((k, repr(o)) for k, o in disp.targetoptions.items()),
                 sorted((k, repr(o)) for k, o in declared.items() if "." not in k)))


_EXTENDS = re.compile(rb"^[ \t]*@(?:[\w.]*\.)?(?:overload|overload_method|overload_attribute|intrinsic|lower_builtin|"
                      rb"type_callable|register_jitable|generated_jit)\b", re.M)


@functools.lru_cache(maxsize=None)
def _extension_files_digest(root: Path) -> str:
    """sha256 over the import-closure digests of every project source file under ``root`` that extends numba (a
    decorator line ``@overload``, ``@intrinsic``, ``@lower_builtin``, ...): where the typing of an opaque reference
    may be defined. The same set in every process, whatever it imported (a kernel's key never depends on that)."""
    h = hashlib.sha256()
    found = []
    for pkg in PACKAGES:
        if pkg == "tests":  # the suite writes its probe extensions under strategies/; its own files extend nothing
            continue
        base = root / pkg
        if not base.is_dir():
            continue
        for f in base.rglob("*.py"):
            if ".venv" in f.parts or "site-packages" in f.parts:
                continue
            try:
                if _EXTENDS.search(_bytes(f.resolve())):
                    found.append(source_digest(f))
            except OSError:
                continue
    for d in sorted(found):
        h.update(d.encode())
    return h.hexdigest()


def kernel_digest(py_func) -> str:
    """sha256 (hex) over every function a kernel can reach (its own code and the jitted functions it calls,
    directly or through others, without line numbers) and the values of the globals they name: what its machine
    code is compiled from. An edit to one handler recompiles only the kernels that reach it; a comment, a
    docstring elsewhere or a function it never calls compiles nothing again. What the graph cannot see into
    (a plain project function carrying a numba ``@overload``, an ``@intrinsic``, a project class) is keyed by
    its file's import closure (:func:`source_digest`), the kernel's own file's import closure and those of every
    project source file that extends numba (an ``@overload`` may live in another file than its target). The
    kernel's own decorator options (``error_model``, ``locals``, ...) count too."""
    seen: dict[int, str] = {}
    opaque = False
    todo = [py_func]
    while todo:
        f = todo.pop()
        if f is _OPAQUE:
            opaque = True
            continue
        if id(f) in seen:
            continue
        d, deps = _own(f)
        seen[id(f)] = d
        todo.extend(deps)
    h = hashlib.sha256()
    for d in sorted(seen.values()):
        h.update(d.encode())
    own = py_func.__globals__.get(py_func.__name__)
    if getattr(own, "py_func", None) is py_func and hasattr(own, "targetoptions"):
        h.update(_options(own).encode())  # the kernel's own decorator (error_model, fastmath, locals, ...)
    if opaque:  # something the graph cannot look into: the kernel's own import closure and numba's extensions too
        import inspect

        try:
            h.update(source_digest(inspect.getfile(py_func)).encode())
        except (TypeError, OSError):
            pass
        m = _module_of(Path(inspect.getfile(py_func)))
        if m is not None:
            h.update(_extension_files_digest(m[0]).encode())
    return h.hexdigest()


class _CallGraphStamp:
    """The source stamp of a project kernel, computed when numba first compares it (the kernel's first call, when
    every module it names is imported), then fixed; pickled into the cache index as a plain tuple."""

    __slots__ = ("_func", "_value")

    def __init__(self, func):
        self._func = func
        self._value = None

    def value(self) -> tuple:
        if self._value is None:
            self._value = ("meeplelab-callgraph", kernel_digest(self._func))
        return self._value

    def __eq__(self, other):
        return self.value() == (other.value() if isinstance(other, _CallGraphStamp) else other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.value())

    def __reduce__(self):
        return (tuple, (self.value(),))


def _keyed(cls: type) -> type:
    """A subclass of numba locator ``cls`` whose source stamp for a project kernel is its call graph
    (:func:`kernel_digest`, not the file's time and size); other kernels keep numba's own stamp."""

    def get_source_stamp(self):
        py_file = getattr(self, "_py_file", None)
        func = getattr(self, "_meeplelab_func", None)
        if func is not None and py_file is not None and is_project_file(py_file):
            return _CallGraphStamp(func)
        return cls.get_source_stamp(self)

    def from_function(kls, py_func, py_file):
        self = super(keyed, kls).from_function(py_func, py_file)
        if self is not None:
            self._meeplelab_func = py_func
        return self

    keyed = type(f"Keyed{cls.__name__}", (cls,), {"get_source_stamp": get_source_stamp, "_meeplelab": True,
                                                   "from_function": classmethod(from_function)})
    return keyed


def _fallback_locator(base: type) -> type:
    """A locator (after numba's own) caching into :func:`fallback_cache_dir`."""

    class FallbackCacheLocator(base):
        _meeplelab = True

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = str(fallback_cache_dir() / self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            if not os.path.exists(py_file):
                return None
            top = fallback_cache_dir()
            try:
                top.mkdir(mode=0o700, exist_ok=True)
                st = top.stat()
                if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
                    return None  # someone else's folder: never load their machine code
                self = cls(py_func, py_file)
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    return FallbackCacheLocator


_NOTICED = False  # the compile notice was given in this process


def _writable(folder: Path) -> bool:
    """Whether files can be created in ``folder`` (made if missing); a real try, not permission bits."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
        return True
    except OSError:
        return False


def no_cache_message() -> str:
    """The one line for numba finding no folder to cache the kernels in ("no locator available")."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given and not _writable(Path(given)):
        return (f"numba cannot cache the rule kernels: the folder NUMBA_CACHE_DIR names ({given}) is not writable "
                f"(nor are the package folder, the user's cache folder and {fallback_cache_dir()}): point "
                "NUMBA_CACHE_DIR at a writable folder")
    return ("numba finds no writable folder to cache the rule kernels in (the package folder, the user's cache "
            f"folder and {fallback_cache_dir()} are read-only or not yours): set NUMBA_CACHE_DIR to a writable folder")


def compile_notice(where: str | None = None, what: str = "rule kernels") -> str:
    """``compiling the rule kernels (...; cached in FOLDER after)``: the line said before a compile."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    why = ""
    if given and where and not str(where).startswith(str(Path(given))):
        why = f"; NUMBA_CACHE_DIR {given} is not writable"
    elif where and str(where).startswith(str(fallback_cache_dir())):
        why = "; the install's folders are read-only"
    place = f"cached in {where} after{why}" if where else "cached after"
    return f"compiling the {what} (first run on this machine or after a change: a few minutes; {place})"


def say_compiling(text: str) -> None:
    """Print the compile notice ``text`` on stderr, once per process (the listener then stays quiet)."""
    global _NOTICED
    if not _NOTICED:
        _NOTICED = True
        if not _QUIET:
            print(text, file=sys.stderr, flush=True)


def noticed() -> bool:
    """True once this process said the compile notice (or was told its parent said it: :func:`worker_mode`)."""
    return _NOTICED


_QUIET = False  # a worker whose parent said the notice: nothing is said here
_WORKER = False  # a worker process: the notice at most, never the in-place progress line


def worker_mode(parent_noticed: bool) -> None:
    """Called in every loky worker (:func:`meeplelab.play.workers.watch_parent`): a worker never draws the in-place
    compile progress line (several workers would write over each other), and says no notice when its
    parent already said one (the parent compiles every kernel a chunk needs before starting workers,
    :func:`meeplelab.play.warmup.warm_for_run`, so a worker only loads them; one notice per command)."""
    global _WORKER, _QUIET, _NOTICED
    _WORKER = True
    if parent_noticed:
        _QUIET = _NOTICED = True


class _CompileProgress:
    """Which project function numba is compiling and how many it compiled in this process, drawn while it
    compiles: as a row of the live progress display of :mod:`meeplelab.play.progress` when one is drawn, else as one
    line rewritten in place on a terminal (or in a notebook, or when ``MEEPLELAB_PROGRESS=1``) and erased
    when the compile ends. Elsewhere (a pipe, a log) only the notice is said. numba gives no total: the
    count of functions that will compile is not known before they compile."""

    def __init__(self):
        self.depth = 0  # nesting of numba:compile events (a kernel compiles the functions it calls)
        self.count = 0  # project functions compiled in this process
        self.t0 = 0.0
        self.drawn = 0  # characters of the in-place line now on the screen
        self.last = 0.0
        self.line = True  # False: never draw the in-place line (--no-progress; :func:`compile_progress`)

    def _line_wanted(self) -> bool:
        if _WORKER or _QUIET or not self.line:
            return False
        forced = os.environ.get("MEEPLELAB_PROGRESS", "").strip().lower()
        if forced in ("0", "no", "off", "false", "never"):
            return False
        if forced in ("1", "yes", "on", "true", "always"):
            return True
        err = sys.stderr
        if type(err).__module__.split(".")[0] == "ipykernel":  # a notebook: its output honours "\r"
            return True
        try:
            return bool(err.isatty())
        except (AttributeError, ValueError):
            return False

    def _row(self, state: str, name: str) -> bool:
        mod = sys.modules.get("meeplelab.play.progress")  # never imported here: rich stays out of a plain import of sim
        return bool(mod is not None and mod._compile_row(state, self.count, name))

    def _draw(self, name: str, final: bool = False) -> None:
        import time

        if self._row("end" if final else "tick", name):
            return
        if not self._line_wanted():
            return
        now = time.monotonic()
        if not final and now - self.last < 0.25 and self.drawn:
            return
        self.last = now
        if final:
            text = ""
        else:
            text = (f"compiling {name}: {self.count} function{'s' if self.count != 1 else ''} compiled, "
                    f"{now - self.t0:.0f} s")
        pad = " " * max(0, self.drawn - len(text))
        sys.stderr.write(f"\r{text}{pad}" + ("\r" if final else ""))
        sys.stderr.flush()
        self.drawn = 0 if final else len(text)

    def start(self, ev) -> None:
        import time

        disp = (ev.data or {}).get("dispatcher")
        func = getattr(disp, "py_func", None)
        mod = getattr(func, "__module__", "") or ""
        self.depth += 1
        if mod.split(".")[0] not in PACKAGES:
            return
        where = getattr(getattr(disp, "_cache", None), "_cache_path", None)
        if not _NOTICED and where is not None:
            say_compiling(compile_notice(where))
        if self.depth == 1:
            self.t0 = time.monotonic()
        self.count += 1
        self._draw(f"{mod}.{getattr(func, '__qualname__', '?')}")

    def end(self, ev) -> None:
        import logging
        import time

        self.depth = max(0, self.depth - 1)
        if self.depth == 0 and self.count:
            disp = (ev.data or {}).get("dispatcher")
            func = getattr(disp, "py_func", None)
            name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', '?')}"
            self._draw(name, final=True)
            logging.getLogger("meeplelab.compile").info(
                "compiled %s (with the functions it calls) in %.1f s; %d functions compiled in this process",
                name, time.monotonic() - self.t0, self.count)


COMPILES = _CompileProgress()


def compile_progress(on: bool) -> None:
    """Turn the in-place compile progress line off (``--no-progress``) or back on; the notice is said anyway."""
    COMPILES.line = bool(on)


def _listen_for_compiles() -> None:
    class CompileNotice(event.Listener):
        """Says :func:`compile_notice` at the first compile of a cached kernel of the project (a cache miss:
        numba fires ``numba:compile`` only when it really compiles), then draws :data:`COMPILES`."""

        def on_start(self, ev):
            COMPILES.start(ev)

        def on_end(self, ev):
            COMPILES.end(ev)

    event.register("numba:compile", CompileNotice())


def _load_overload(self, sig, target_context):
    """numba's ``Cache.load_overload`` without its ``target_context.refresh()`` for the cache of a plain jitted
    function (``_load_lazily``, set by :func:`_lazy_caching`): only numba's runtime (NRT) is started, as a cached
    kernel's machine code needs nothing else at load (its outside symbols are the Python C API, numba's C helpers
    and the NRT). The refresh imports and installs every lowering registry of numba (about 230 modules,
    scipy.linalg included: 0.5 s of each process that plays games); numba still does it before it compiles
    anything, so a cache miss compiles as before. Other caches (a ``@vectorize`` ufunc builds its wrapper with
    the lowering registries right after the load) take numba's own load."""
    if not getattr(self, "_load_lazily", False):
        return _NUMBA_LOAD[0](self, sig, target_context)
    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


_NUMBA_LOAD: list = []  # numba's own Cache.load_overload, kept by install()


def _lazy_caching(enable):
    """``Dispatcher.enable_caching`` marking the plain jitted function's cache for :func:`_load_overload`."""

    @functools.wraps(enable)
    def enable_caching(self):
        enable(self)
        self._cache._load_lazily = True

    return enable_caching


def install() -> None:
    """Key cached project kernels by their call graph, add the writable fallback locator and load cached kernels
    without numba's registry refresh (:func:`_load_overload`) (once)."""
    classes = caching._CacheImpl._locator_classes if hasattr(caching, "_CacheImpl") else caching.CacheImpl._locator_classes
    if any(getattr(c, "_meeplelab", False) for c in classes):
        return
    base = getattr(caching, "UserProvidedCacheLocator", None) or getattr(caching, "_UserProvidedCacheLocator")
    classes[:] = [_keyed(c) for c in classes] + [_keyed(_fallback_locator(base))]
    _NUMBA_LOAD.append(caching.Cache.load_overload)
    caching.Cache.load_overload = _load_overload
    dispatcher.Dispatcher.enable_caching = _lazy_caching(dispatcher.Dispatcher.enable_caching)
    _listen_for_compiles()
