"""Benchmarks and sweeps that print figures (run as scripts; tests import their functions)."""
