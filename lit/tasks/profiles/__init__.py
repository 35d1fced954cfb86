"""The built-in task profiles (TOML) and their label-rule files: data, not code (docs/tasks.md)."""
