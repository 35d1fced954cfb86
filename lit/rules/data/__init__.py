"""Data the rule engine ships: the compact ERG 2025 SEM-I table (see lit.rules.semi), extracted
from the English Resource Grammar 2025 `etc/*.smi` (MIT licence, as the ERG)."""
