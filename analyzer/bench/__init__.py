"""Benchmarks behind ``binokel bench``: the workload registry (:mod:`.registry`) and one
module of workloads per topic (every other module here is imported on discovery)."""
