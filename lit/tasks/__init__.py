"""Tasks as data: profiles (lit.tasks.profile; NLI is the built-in `nli`), the one item of every
task (lit.tasks.item) and the one reader of its inputs (lit.tasks.reader; docs/tasks.md)."""

from lit.tasks.item import TaskItem
from lit.tasks.profile import NLI_TASK, TaskProfile, builtin_tasks, load_task

__all__ = ["NLI_TASK", "TaskItem", "TaskProfile", "builtin_tasks", "load_task"]
