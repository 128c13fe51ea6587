"""The tuned heuristic presets (data only: ``<game>-heuristic-tuned.toml``), installed as ``meeplelab/presets`` so an
installed copy finds them (:data:`meeplelab.strategies.fields.PRESETS`)."""
