"""Studies: searches over runs that read their analysis (tune, robustness, balance).

The top floor below the command line: studies import running games and analysis, never the reverse."""
