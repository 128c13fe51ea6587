"""Independent game-playing tasks on the backends the runner uses: loky processes, threads, a Dask cluster.

:func:`meeplelab.play.runner.simulate` plays a run's chunks; the studies play other units of work: a robustness
design point (:mod:`meeplelab.studies.robustness`), a balance candidate's lineups (:mod:`meeplelab.studies.balance`), a tuning
trial's (field member, seat) pairs (:mod:`meeplelab.studies.tune`). :func:`map_unordered` runs such tasks with the
same ``--n-jobs`` / ``--backend`` / ``--scheduler`` meaning as a run (the connection and the loky
workers that end with their parent come from :func:`meeplelab.play.runner._backend`), and yields each result
with its task index as it finishes. Every task's games are keyed by what they are (seed, game,
lineup), never by the task or worker that plays them, so the results are the same for any
``n_jobs`` and backend; callers put them back in task order.
"""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any, Callable, Iterator, Sequence

from meeplelab.play.config import BACKENDS, check_scheduler
from meeplelab.play.shipping import in_folder
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.extras import require as require_extra
from meeplelab.play.runner import _backend


def check_backend(backend: str, scheduler: str | None, n_jobs: int) -> None:
    """The checks :class:`meeplelab.play.config.RunConfig` makes of the three options, for a study's tasks.

    Raises:
        ConfigError: an unknown backend, dask without a scheduler, a scheduler without dask, or
            ``n_jobs`` 0 or below -1 (one line naming the value and what is allowed).
    """
    if backend not in BACKENDS:
        raise ConfigError(f"unknown backend {backend!r}: allowed: {', '.join(BACKENDS)}")
    if backend == "dask":
        require_extra("dask", "--backend dask")
        if not scheduler:
            raise ConfigError("--backend dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
    check_scheduler(backend, scheduler)
    if not isinstance(n_jobs, int) or n_jobs == 0 or n_jobs < -1:
        raise ConfigError(f"--n-jobs must be a positive integer or -1 (all cores), got {n_jobs}")


def map_unordered(fn: Callable[..., Any], tasks: Sequence[tuple], *, n_jobs: int = 1, backend: str = "loky",
                  scheduler: str | None = None) -> Iterator[tuple[int, Any]]:
    """``(i, fn(*tasks[i]))`` for every task, in the order they finish.

    ``n_jobs == 1`` (or one task) with the loky or threading backend plays the tasks here, one after the
    other; otherwise joblib runs them on loky worker processes (which end with this process) or threads,
    or each is submitted to the Dask cluster at ``scheduler``. ``fn`` and the task arguments must pickle
    for loky and Dask (a module-level function).

    Raises:
        ConfigError: bad backend options (:func:`check_backend`), or the Dask scheduler unreachable in 10 s.
        Whatever ``fn`` raises (the first failure ends the map).
    """
    check_backend(backend, scheduler, n_jobs)
    if not tasks:
        return
    if backend != "dask" and (n_jobs == 1 or len(tasks) == 1):
        for i, args in enumerate(tasks):
            yield i, fn(*args)
        return

    with _backend(SimpleNamespace(backend=backend, scheduler=scheduler, n_jobs=n_jobs)) as (jobs, client):
        if client is not None:  # this client's futures, polled (as_completed and wait need a default client)
            import time

            here = os.getcwd()  # the workers read relative preset paths against this folder (their own is another)
            futures = {client.submit(in_folder, here, fn, *args, pure=False): i for i, args in enumerate(tasks)}
            pending = list(futures)
            try:
                while pending:
                    done = [f for f in pending if f.done()]
                    pending = [f for f in pending if f not in done]
                    for f in done:
                        yield futures[f], f.result()
                    if not done:
                        time.sleep(0.05)
            finally:
                for f in pending:
                    f.cancel()
            return
        from joblib import Parallel, delayed

        def indexed(i, args):
            return i, fn(*args)

        yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(
            delayed(indexed)(i, args) for i, args in enumerate(tasks))


__all__ = ["check_backend", "map_unordered"]
