"""The rule author's workbench behind ``lit rules try``: run a rule module over a treebank,
count where it applies and why it refuses, show what it does to each MRS (as edits in the rule
language, and as DMRS graphs), and compare two versions of a module (docs/rules-tutorial.md).
"""
