"""Tasks beyond three-way NLI: profiles as data (lit.tasks.profile) and the contrast sets of
any sentence or sentence-pair task (`lit contrast`; docs/tasks.md)."""

from lit.tasks.profile import NLI_TASK, TaskProfile, builtin_tasks, load_task

__all__ = ["NLI_TASK", "TaskProfile", "builtin_tasks", "load_task"]
