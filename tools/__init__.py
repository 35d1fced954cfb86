"""Benchmarks and sweeps that print figures. Each runs from the repository root as
`python -m tools.NAME` (so `tools` and `tests` import as packages); tests import their
functions."""
