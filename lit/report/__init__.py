"""A self-contained HTML report of a contrast set, its evaluation and its dataset analysis."""

from lit.report.build import ReportOptions, build_report, write_report

__all__ = ["ReportOptions", "build_report", "write_report"]
