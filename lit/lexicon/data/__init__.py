"""Shipped lexical data (see ../__init__.py and LICENSE-WordNet)."""
