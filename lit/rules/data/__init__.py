"""Data the rule engine ships: the compact ERG 2025 SEM-I table (see lit.rules.semi)."""
