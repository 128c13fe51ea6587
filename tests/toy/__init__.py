"""The toy press-your-luck engine: the worked example of ``docs/engine_guide.md``.

One module per job, as in the real engines: ``params.py`` (rule numbers), ``state.py`` (the state table),
``cols.py`` (its column constants, written out), ``logcols.py`` (log columns by name), ``rules.py``
(kernels: each decision's legality and application side by side), ``decisions.py`` (the decision
table) and ``dispatch.py`` (dispatchers written from it), ``engine.py`` (the ``Game`` class).
"""
