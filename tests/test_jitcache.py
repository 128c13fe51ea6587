"""numba's kernel cache: a cached kernel is compiled again when code
it reaches changes (a helper's body, a constant in another module), and only then; a read-only install (package
folder and HOME read-only) still imports and runs, caching into a writable fallback folder, or says in one line
what to set."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from meeplelab.sim import jitcache as J

ROOT = Path(__file__).resolve().parents[1]
IGNORE = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "data_*")

PROBE = '''
import numpy as np
from numba import njit

from meeplelab.sim.core.rng import mix64


@njit(cache=True)
def probe(x):
    """A strategy-side kernel that calls the core's random-number mixer (imported, not its own)."""
    return mix64(x)
'''

RUN_PROBE = ("import numpy as np\n"
             "from meeplelab.strategies._probe import probe\n"
             "v = int(probe(np.uint64(12345)))\n"
             "print(v, sum(probe.stats.cache_hits.values()), sum(probe.stats.cache_misses.values()))\n")


def splitmix(z: int, m1: int, m2: int) -> int:
    mask = 2**64 - 1
    z = ((z ^ (z >> 30)) * m1) & mask
    z = ((z ^ (z >> 27)) * m2) & mask
    return z ^ (z >> 31)


def _copy_tree(dst: Path) -> None:
    for pkg in ("sim", "strategies"):
        shutil.copytree(ROOT / pkg, dst / pkg, ignore=IGNORE)
    shutil.copy(ROOT / "cli.py", dst / "cli.py")
    (dst / "meeplelab").mkdir()  # the package face: the copy imports itself as meeplelab.sim, meeplelab.strategies
    shutil.copy(ROOT / "meeplelab" / "__init__.py", dst / "meeplelab")
    shutil.copy(ROOT / "pyproject.toml", dst)


def _env(tree: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


def _run_probe(tree: Path) -> tuple[int, int, int]:
    """The probe's value, cache hits and misses, from a fresh process on ``tree``."""
    r = subprocess.run([sys.executable, "-c", RUN_PROBE], cwd=tree, env=_env(tree), capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    v, hits, misses = map(int, r.stdout.split())
    return v, hits, misses


def test_a_cached_kernel_is_compiled_again_when_a_module_it_imports_changes(tmp_path):
    tree = tmp_path / "tree"
    _copy_tree(tree)
    (tree / "strategies" / "_probe.py").write_text(PROBE)
    m1, m2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB

    def run() -> tuple[int, int, int]:
        return _run_probe(tree)

    assert run() == (splitmix(12345, m1, m2), 0, 1)  # compiled, then cached
    assert run() == (splitmix(12345, m1, m2), 1, 0)  # loaded from the cache
    rng = tree / "sim" / "core" / "rng.py"
    new_m1 = 0xD6E8FEB86659FD93
    text = rng.read_text()
    assert text.count("_M1 = np.uint64(0xBF58476D1CE4E5B9)") == 1
    rng.write_text(text.replace("_M1 = np.uint64(0xBF58476D1CE4E5B9)", f"_M1 = np.uint64({new_m1:#x})"))
    assert run() == (splitmix(12345, new_m1, m2), 0, 1)  # the edit in the imported module is seen
    assert run() == (splitmix(12345, new_m1, m2), 1, 0)  # and the new compile is cached


@pytest.mark.slow  # two fresh processes, the first compiling
def test_a_kernel_loaded_from_the_cache_leaves_numbas_lowering_registries_unloaded(tmp_path):
    """Start-up: a cached kernel is loaded without numba's registry refresh (sim/jitcache.py ``_load_overload``), which
    a compile still does first: numba's lowering modules (numba.np.arraymath, and scipy.linalg through it) are
    imported by the compiling process only, and the loaded kernel gives the compiled one's value."""
    tree = tmp_path / "tree"
    _copy_tree(tree)
    (tree / "strategies" / "_probe.py").write_text(PROBE)
    code = RUN_PROBE + "import sys\nprint('numba.np.arraymath' in sys.modules, 'scipy.linalg' in sys.modules)\n"
    out = []
    for _ in range(2):
        r = subprocess.run([sys.executable, "-c", code], cwd=tree, env=_env(tree), capture_output=True, text=True,
                           timeout=600, check=False)
        assert r.returncode == 0, r.stderr
        out.append(r.stdout.split())
    want = str(splitmix(12345, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB))
    assert out[0] == [want, "0", "1", "True", "True"]  # compiled (a cache miss): numba refreshes its registries
    assert out[1] == [want, "1", "0", "False", "False"]  # loaded from the cache: no refresh


def test_a_kernel_compiles_again_only_when_code_it_reaches_changes(tmp_path):
    """The call-graph key: a comment, a new function nobody calls or an edit of a kernel the probe
    never calls leaves it cached, even in its own file or the file of the helper it calls; an edit of the helper's
    body compiles it again."""
    tree = tmp_path / "tree"
    _copy_tree(tree)
    probe = tree / "strategies" / "_probe.py"
    probe.write_text(PROBE)
    m1, m2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
    want = splitmix(12345, m1, m2)

    def run() -> tuple[int, int, int]:
        return _run_probe(tree)

    assert run() == (want, 0, 1)
    probe.write_text(PROBE + "\n# a comment\n\n@njit(cache=True)\ndef unused(x):\n    return x + 1\n")
    rng = tree / "sim" / "core" / "rng.py"
    text = rng.read_text()
    text += "\n# a comment at the end of the helper's module\n"
    draw = "    return mix64(keys[g] + counters[g] * GOLDEN)\n"
    assert text.count(draw) == 1  # draw_u64: a kernel of rng.py that the probe does not call
    rng.write_text(text.replace(draw, "    return mix64(keys[g] + counters[g] * GOLDEN + np.uint64(0))\n"))
    assert run() == (want, 1, 0)  # still cached: nothing the probe reaches changed
    body = "    z = (z ^ (z >> _S30)) * _M1\n    z = (z ^ (z >> _S27)) * _M2\n    return z ^ (z >> _S31)\n"
    text = rng.read_text()
    assert text.count(body) == 2  # mix64 and its numpy twin
    edited = "    z = (z ^ (z >> _S30)) * _M1; unused_local = 0\n"
    rng.write_text(text.replace(body, edited + body.split("\n", 1)[1], 1))
    assert run() == (want, 0, 1)  # mix64's code changed: the probe that calls it compiles again
    assert run() == (want, 1, 0)


HELPERS = '''
import numba
import numpy as np
from numba import njit, vectorize

REC = np.array([(1, 2)], dtype=[("a", "i8"), ("b", "i8")])


@njit(cache=True, locals={"acc": numba.int8})
def h_locals(x):
    acc = x
    acc += 100
    return acc


@vectorize(["float64(float64)"], cache=True)
def h_vec(x):
    return x + 1.0


def ol_target(x):
    return x
'''

OVERLOAD = '''
from numba.extending import overload

from meeplelab.strategies import _pa


@overload(_pa.ol_target)
def _ol(x):
    def impl(x):
        return x + 9
    return impl
'''

KERNELS = '''
from numba import njit

from meeplelab.strategies import _pb  # noqa: F401  (registers the overload)
from meeplelab.strategies._pa import REC, h_locals, h_vec, ol_target


@njit(cache=True)
def k_locals(x):
    return h_locals(x)


@njit(cache=True)
def k_vec(x):
    return h_vec(x)


@njit(cache=True)
def k_rec(x):
    return REC[0]["a"] + x


@njit(cache=True)
def k_ol(x):
    return ol_target(x)


@njit(cache=True)
def k_own(x):
    return 1.0 / x
'''

RUN_KERNELS = ("from meeplelab.strategies import _pk as K\n"
               "for name, arg in (('k_locals', 100), ('k_vec', 1.0), ('k_rec', 10), ('k_ol', 1), ('k_own', 0.0)):\n"
               "    k = getattr(K, name)\n"
               "    try:\n"
               "        v = repr(k(arg))\n"
               "    except ZeroDivisionError:\n"
               "        v = 'ZeroDivisionError'\n"
               "    print(name, v, sum(k.stats.cache_hits.values()), sum(k.stats.cache_misses.values()))\n")


def test_decorator_options_ufuncs_structured_arrays_and_overloads_elsewhere_are_in_the_key(tmp_path):
    """The cases a newcomer's review found stale under the first call-graph key (2026-12-03): a called helper's
    ``locals``, the kernel's own ``error_model``, a ``@vectorize`` helper's body, a structured array's field
    order, an ``@overload`` of the called function living in another file. Each edit compiles its kernel again
    with the new result."""
    tree = tmp_path / "tree"
    _copy_tree(tree)
    st = tree / "strategies"
    (st / "_pa.py").write_text(HELPERS)
    (st / "_pb.py").write_text(OVERLOAD)
    (st / "_pk.py").write_text(KERNELS)

    def run() -> dict[str, tuple[str, int, int]]:
        r = subprocess.run([sys.executable, "-c", RUN_KERNELS], cwd=tree, env=_env(tree), capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        return {n: (v, int(h), int(m)) for n, v, h, m in (ln.split() for ln in r.stdout.splitlines())}

    first = {"k_locals": ("-56", 0, 1), "k_vec": ("2.0", 0, 1), "k_rec": ("11", 0, 1), "k_ol": ("10", 0, 1),
             "k_own": ("ZeroDivisionError", 0, 1)}
    assert run() == first
    assert run() == {n: (v, 1, 0) for n, (v, _, _) in first.items()}
    (st / "_pa.py").write_text(HELPERS.replace('"acc": numba.int8', '"acc": numba.int64')
                               .replace("x + 1.0", "x + 50.0")
                               .replace('[("a", "i8"), ("b", "i8")]', '[("b", "i8"), ("a", "i8")]'))
    (st / "_pb.py").write_text(OVERLOAD.replace("x + 9", "x + 20"))
    (st / "_pk.py").write_text(KERNELS.replace("@njit(cache=True)\ndef k_own", '@njit(cache=True, error_model="numpy")\ndef k_own'))
    assert run() == {"k_locals": ("200", 0, 1), "k_vec": ("51.0", 0, 1), "k_rec": ("12", 0, 1), "k_ol": ("21", 0, 1),
                     "k_own": ("inf", 0, 1)}


def test_a_comment_inside_a_parenthesised_import_keeps_the_modules_after_it(tmp_path):
    from meeplelab.sim import jitcache

    pkg = tmp_path / "strategies"
    (pkg / "qq").mkdir(parents=True)
    for f in (pkg / "__init__.py", pkg / "qq" / "__init__.py", pkg / "qq" / "sub1.py", pkg / "qq" / "sub2.py"):
        f.write_text("")
    main = pkg / "qmain.py"
    main.write_text("from strategies.qq import (\n    sub1,  # the first\n    sub2,\n)\n")
    files = {p.name for p in jitcache.closure(main)}
    assert {"sub1.py", "sub2.py"} <= files


def test_the_cache_key_covers_the_import_closure():
    from meeplelab.sim import jitcache

    rules = ROOT / "sim" / "galileos_truth" / "rules" / "__init__.py"
    files = {str(p.relative_to(ROOT)) for p in jitcache.closure(rules)}
    assert {"sim/galileos_truth/rules/__init__.py", "sim/galileos_truth/rules/dispatch.py",
            "sim/galileos_truth/rules/flow.py", "sim/galileos_truth/rules/ledger.py", "sim/galileos_truth/cols.py",
            "sim/galileos_truth/content.py", "sim/core/rng.py"} <= files
    assert "play/runner.py" not in files and "cli.py" not in files  # not imported by the kernels
    # imported only inside functions of the engine (which run after the kernels are compiled) or
    # by the package's __init__ for its own job: editing them compiles nothing again
    assert "strategies/galileos_truth.py" not in files and "sim/jitcache.py" not in files
    probe = ROOT / "sim" / "galileos_truth" / "engine.py"  # the engine imports its rules package
    assert "sim/galileos_truth/rules/__init__.py" in {str(p.relative_to(ROOT)) for p in jitcache.closure(probe)}
    # the random streams import only the decorators they are compiled with (sim/core/jit.py), besides package inits
    rng = {str(p.relative_to(ROOT)) for p in jitcache.closure(ROOT / "sim" / "core" / "rng.py")}
    assert {f for f in rng if not f.endswith("__init__.py")} == {"sim/core/rng.py", "sim/core/jit.py"}


def _unprivileged(tmp: Path) -> tuple[list[str], callable]:
    """A command prefix that runs as a user who cannot write ``tmp`` (root cannot be stopped by
    permissions: drop to ``nobody``); and a function making a folder writable for that user."""
    if os.getuid() == 0:
        return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"], lambda p: os.chown(p, 65534, 65534)
    return [], lambda p: None


def _readonly_install(tmp_path_factory):
    base = Path(tempfile.mkdtemp(prefix="meeplelab-ro-"))  # world-readable, unlike pytest's tmp folders
    os.chmod(base, 0o755)
    tree, home = base / "site-packages", base / "home"
    _copy_tree(tree)
    home.mkdir()
    prefix, give = _unprivileged(base)
    if not prefix:
        for p in [tree, home, *tree.rglob("*")]:
            if p.is_dir():
                os.chmod(p, 0o555)
    return base, tree, home, prefix, give


@pytest.fixture
def readonly(tmp_path_factory):
    base, tree, home, prefix, give = _readonly_install(tmp_path_factory)
    yield base, tree, home, prefix, give
    for p in [base, *base.rglob("*")]:
        if p.is_dir():
            os.chmod(p, 0o755)
    shutil.rmtree(base, ignore_errors=True)


def test_a_read_only_install_imports_and_caches_into_a_writable_fallback(readonly):
    base, tree, home, prefix, give = readonly
    tmpdir = base / "tmp"
    tmpdir.mkdir()
    give(tmpdir)
    env = _env(tree, HOME=str(home), TMPDIR=str(tmpdir), XDG_CACHE_HOME=str(home / ".cache"))
    r = subprocess.run(prefix + [sys.executable, "-c", "import cli; cli.main()", "games"], cwd=base, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [ln.split()[0] for ln in lines] == ["galileos-truth", "unconscious-mind"]
    assert not any("unavailable" in ln for ln in lines), r.stdout
    assert not (tree / "sim" / "core" / "__pycache__").exists() and not any(home.iterdir())
    code = ("import numpy as np\nfrom meeplelab.sim.core.rng import mix64\nprint(int(mix64(np.uint64(7))), "
            "sum(mix64.stats.cache_hits.values()))")
    out = [subprocess.run(prefix + [sys.executable, "-c", code], cwd=base, env=env, capture_output=True, text=True,
                          timeout=600) for _ in range(2)]
    assert [o.returncode for o in out] == [0, 0], out[0].stderr + out[1].stderr
    want = splitmix(7, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB)
    assert [o.stdout.split() for o in out] == [[str(want), "0"], [str(want), "1"]]  # cached, then loaded
    cache = list((tmpdir / f"meeplelab-numba-cache-{65534 if prefix else os.getuid()}").rglob("rng.mix64-*.nbi"))
    assert len(cache) == 1


def test_a_read_only_install_without_any_writable_folder_says_so_in_one_line(readonly):
    base, tree, home, prefix, give = readonly
    tmpdir = base / "tmp"
    tmpdir.mkdir()
    give(tmpdir)
    uid = 65534 if prefix else os.getuid()
    taken = tmpdir / f"meeplelab-numba-cache-{uid}"  # the fallback folder exists, read-only (or another user's)
    taken.mkdir(mode=0o555)
    env = _env(tree, HOME=str(home), TMPDIR=str(tmpdir), XDG_CACHE_HOME=str(home / ".cache"))
    r = subprocess.run(prefix + [sys.executable, "-c", "import cli; cli.main()", "games"], cwd=base, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == (
        "error: numba finds no writable folder to cache the rule kernels in (the package folder, the user's cache "
        f"folder and {taken} are read-only or not yours): "
        "set NUMBA_CACHE_DIR to a writable folder")
    assert r.stdout == ""


# ------------------------------------------------------------------ a NUMBA_CACHE_DIR nobody can write
@pytest.fixture
def readonly_folder(tmp_path):
    """A folder nobody can write: a read-only tmpfs mount for root (permissions do not stop root), else
    a folder without write permission; unmounted in the finally block."""
    folder = Path(tempfile.mkdtemp(prefix="meeplelab-ro-cache-"))
    os.chmod(folder, 0o555)
    mounted = False
    try:
        if os.getuid() == 0:
            subprocess.run(["mount", "-t", "tmpfs", "-o", "ro", "tmpfs", str(folder)], check=True, timeout=60)
            mounted = True
        yield folder
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=True, timeout=60)
        os.chmod(folder, 0o755)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_read_only_install_says_it_is_compiling_and_where_it_caches(readonly):
    """The kernels of a read-only install compile into the temporary fallback folder: the notice comes
    first, naming that folder (not minutes of compiling without a word)."""
    base, tree, home, prefix, give = readonly
    for p in (tree / "strategies", tree / "strategies" / "_probe.py"):
        if p.exists():
            os.chmod(p, 0o755)
    (tree / "strategies" / "_probe.py").write_text(PROBE)
    os.chmod(tree / "strategies", 0o555)
    tmpdir = base / "tmp"
    tmpdir.mkdir()
    give(tmpdir)
    env = _env(tree, HOME=str(home), TMPDIR=str(tmpdir), XDG_CACHE_HOME=str(home / ".cache"))
    runs = [subprocess.run(prefix + [sys.executable, "-c", RUN_PROBE], cwd=base, env=env, capture_output=True,
                           text=True, timeout=600) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    fallback = tmpdir / f"meeplelab-numba-cache-{65534 if prefix else os.getuid()}"
    notice = runs[0].stderr.strip().splitlines()
    assert len(notice) == 1 and notice[0].startswith("compiling the rule kernels (first run on this machine or after "
                                                     f"a change: a few minutes; cached in {fallback}/"), notice
    assert notice[0].endswith(" after; the install's folders are read-only)")
    assert runs[0].stdout.split()[1:] == ["0", "1"]  # compiled
    assert runs[1].stdout.split()[1:] == ["1", "0"] and runs[1].stderr == ""  # loaded: nothing to say


def test_a_read_only_numba_cache_dir_is_named_in_the_one_line_error(readonly, readonly_folder):
    base, tree, home, prefix, give = readonly
    tmpdir = base / "tmp"
    tmpdir.mkdir()
    give(tmpdir)
    uid = 65534 if prefix else os.getuid()
    taken = tmpdir / f"meeplelab-numba-cache-{uid}"
    taken.mkdir(mode=0o555)  # the fallback folder is not usable either
    env = _env(tree, HOME=str(home), TMPDIR=str(tmpdir), XDG_CACHE_HOME=str(home / ".cache"),
               NUMBA_CACHE_DIR=str(readonly_folder))
    r = subprocess.run(prefix + [sys.executable, "-c", "import cli; cli.main()", "games"], cwd=base, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == (
        f"error: numba cannot cache the rule kernels: the folder NUMBA_CACHE_DIR names ({readonly_folder}) is not "
        f"writable (nor are the package folder, the user's cache folder and {taken}): point NUMBA_CACHE_DIR at a "
        "writable folder")
    assert r.stdout == ""


def test_a_files_import_closure_does_not_depend_on_the_name_it_was_first_reached_by():
    """``sim/core/lookahead.py`` reached first through ``meeplelab.sim.core.lookahead`` (as an engine's written
    lookahead module imports it) has the closure it has when read alone: a kernel's cache key must not depend on
    which module a process happened to read first (a warm run would compile again)."""
    core = ROOT / "sim" / "core" / "lookahead.py"
    J._IMPORTS.clear()
    alone = J.closure(core)
    J._IMPORTS.clear()
    J.closure(ROOT / "sim" / "galileos_truth" / "lookahead.py")  # imports it as meeplelab.sim.core.lookahead
    assert J.closure(core) == alone
    assert (ROOT / "meeplelab" / "__init__.py").resolve() not in alone
