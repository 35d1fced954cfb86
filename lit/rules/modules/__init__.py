"""The built-in rule modules (package data; ``rules/`` in the source tree points here)."""
