"""Data the shortcut miner ships: the ERG 2025 lexical types with their supertypes and valence
types (lit.analyze.letypes), built by tools/build_letype_table.py from the English Resource
Grammar 2025's letypes.tdl, lextypes.tdl, auxverbs.tdl and fundamentals.tdl (MIT licence, as
the ERG)."""
