"""Benchmarks: games per second, batch-size scaling, parallel speed-up, peak memory, Parquet size."""
