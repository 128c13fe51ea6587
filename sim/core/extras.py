"""The optional parts of meeplelab and the extra that installs each (``pyproject.toml``).

``pip install meeplelab`` brings the main job (simulate, experiment, stronger, report, tune, robustness,
balance); four features need more and are installed by an extra:

==============  ==================================  ================================================
extra           installs                            needed by
==============  ==================================  ================================================
``openspiel``   open_spiel, networkx                the OpenSpiel games and bots, a tournament's metagame
``dask``        dask[distributed]                   ``--backend dask``
``rl``          pettingzoo, gymnasium               the PettingZoo and Gymnasium environments
``notebooks``   jupyterlab, ipykernel               opening ``notebooks/`` in Jupyter
==============  ==================================  ================================================

A feature asks :func:`require` before it starts; a missing extra is one line naming the feature and the
install command (:class:`MissingExtra`, a :class:`~meeplelab.sim.core.errors.ConfigError`: the CLI prints it as
``error: ...`` and exits 2), never a traceback from deep inside the feature.
"""

from __future__ import annotations

import importlib.util

from .errors import ConfigError

#: extra -> the top-level modules it installs (all must be importable)
EXTRAS: dict[str, tuple[str, ...]] = {
    "openspiel": ("pyspiel", "open_spiel", "networkx"),
    "dask": ("dask", "distributed"),
    "rl": ("pettingzoo", "gymnasium"),
    "notebooks": ("jupyterlab", "ipykernel"),
}


class MissingExtra(ConfigError):
    """A feature needs an extra that is not installed; the message says which and how to install it."""


def installed(extra: str) -> bool:
    """Whether every module of ``extra`` can be imported (found on the path; nothing is imported).

    Raises:
        KeyError: ``extra`` is not one of :data:`EXTRAS`.
    """
    for mod in EXTRAS[extra]:
        try:
            if importlib.util.find_spec(mod) is None:
                return False
        except (ImportError, ValueError):  # a finder refused it, or a half-installed module without a spec
            return False
    return True


def message(extra: str, feature: str) -> str:
    """``"FEATURE needs the EXTRA extra: pip install 'meeplelab[EXTRA]'"``: the one line of a missing extra."""
    return f"{feature} needs the {extra} extra: pip install 'meeplelab[{extra}]'"


def require(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtra` unless ``extra`` is installed.

    Args:
        extra: a key of :data:`EXTRAS` (``"dask"``).
        feature: what needs it, as the user asked for it (``"--backend dask"``, ``"the metagame of a tournament
            report"``): the start of the message.

    Raises:
        MissingExtra: a module of ``extra`` cannot be found (:func:`message`).
    """
    if not installed(extra):
        raise MissingExtra(message(extra, feature))
