"""Shipped lexical data (see ../__init__.py and LICENSE-WordNet), and the compact ERG 2025 SEM-I
table (see lit.lexicon.semi), extracted from the English Resource Grammar 2025 `etc/*.smi`
(MIT licence, as the ERG)."""
