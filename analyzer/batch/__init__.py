"""Batch runs: millions of simulated deals written to Parquet run folders with resume,
on joblib workers or a Dask cluster."""
