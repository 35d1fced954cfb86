"""The names of LIT's public API (docs/api.md), in one list: `import lit` offers them and loads
lit.api on first use, lit.api exports them. Kept apart from both so `import lit` can read the
list without loading lit.api (the pipeline, the rule engine)."""

API_NAMES = (
    "DEFAULTS", "GRAMMAR_VERSIONS", "PAPER_SPECS", "ConfigurationError", "Engine", "InputError",
    "LitError", "NliRecord", "PairTransform", "RuleEngine", "RuleError", "RunConfig",
    "RunOptions", "RunResult", "SideRecord", "Status", "StepOutcome", "TaskItem",
    "TransformOutcome", "TransformRecord", "as_item", "augment", "run", "run_contrast",
    "run_nli", "to_json",
    "MrsDiff", "NamedEdit", "Residue", "EditSize", "SentenceDiff", "diff_mrs", "diff_sentences",
)
