"""A self-contained HTML report of a contrast set, its evaluation and its dataset analysis."""

from lit.report.build import build_report, write_report

__all__ = ["build_report", "write_report"]
