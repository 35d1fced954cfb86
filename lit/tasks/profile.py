"""Task profiles as data: which fields hold a task's text or two texts, its labels and their
spellings, and which label-rule file labels its contrast pairs (docs/tasks.md).

A profile is a small TOML file: the built-in ones are in lit/tasks/profiles (``nli``, ``sst2``,
``qqp``, ``mrpc``, ``rte``); a user's is any ``.toml`` path. Every mistake in one is an
InputError naming the file and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10: the same parser as a package (pyproject's tomli)
    import tomli as tomllib  # type: ignore[no-redef]

from lit.errors import InputError
from lit.labels.names import LabelSet
from lit.labels.ruleset import DEFAULT_RULES

PROFILE_DIR = Path(__file__).with_name("profiles")
#: LIT's own NLI label rules (the nli profile's), which run metadata names lit/labels/...
_SHIPPED_RULES = (Path(__file__).parents[1] / "labels" / DEFAULT_RULES).resolve()
PROFILE_SUFFIX = ".toml"
#: The default task: three-way NLI, whose records are `lit nli`'s (docs/tasks.md).
NLI_TASK = "nli"
#: What a profile's `records` key may say: the pipeline's pair records, each text run whole
#: (`lit nli`'s, docs/pipeline.md), or contrast records, each text cut into sentences.
PAIR_RECORDS, CONTRAST_RECORDS = "pairs", "contrast"
#: The keys of a profile and of its [fields] and [labels] tables; anything else is a typo.
_KEYS = {"name", "description", "sides", "label_rules", "specs", "fields", "labels", "records"}
_LABEL_KEYS = {"names", "codes", "spellings", "no_consensus"}
#: The [fields] roles besides the sides.
LABEL_ROLE, ID_ROLE = "label", "id"
#: Side names a record's transforms cannot use (they are the transform's own keys).
_TAKEN = frozenset({"spec", "status", "reason", "label", "label_rule", "label_rationale", "id"})


@dataclass(frozen=True, eq=False)
class TaskProfile:
    """A task: `sides` names its one text or two texts (a record's keys for them), `fields`
    gives per role (each side, `label`, `id`) the input fields to try, first present first;
    `labels` its label set; `label_rules` its label-rule file; `specs` the specs a run
    tries when none are given (single specs for a single-text task, pair specs "a;b" for a
    pair task); `records` the shape of its records (PAIR_RECORDS or CONTRAST_RECORDS)."""

    name: str
    description: str
    sides: tuple[str, ...]
    fields: Mapping[str, tuple[str, ...]]
    labels: LabelSet
    label_rules: Path
    specs: tuple[str, ...]
    source: str
    records: str = CONTRAST_RECORDS

    @property
    def is_pair(self) -> bool:
        """True for a sentence-pair task (two texts), False for a single-text one."""
        return len(self.sides) == 2

    @property
    def pair_records(self) -> bool:
        """True if its records are the pipeline's pair records (texts run whole, as `lit nli`
        writes them), False if they are contrast records (texts cut into sentences)."""
        return self.records == PAIR_RECORDS

    def load_label_rules(self, path: str | Path | None = None):
        """The task's label rules (lit.labels.LabelRules), from *path* if given (a user's
        `--label-rules`), else from the profile's file; a label not in the task's set is a
        RuleError naming the file, line and column."""
        from lit.labels import LabelRules

        if path is None and self.label_rules == _SHIPPED_RULES:
            return LabelRules.load(labels=self.labels)  # read as package data, named so
        return LabelRules.load(path or self.label_rules, labels=self.labels)


def builtin_tasks() -> tuple[str, ...]:
    """The names of the profiles shipped with LIT, sorted."""
    return tuple(sorted(p.stem for p in PROFILE_DIR.glob(f"*{PROFILE_SUFFIX}")))


def load_task(task: str | Path | TaskProfile) -> TaskProfile:
    """A profile by built-in name (``sst2``) or path (``my-task.toml``); a TaskProfile is
    returned as it is. InputError names an unknown task or the file and key at fault."""
    if isinstance(task, TaskProfile):
        return task
    text = str(task)
    path = Path(text)
    if text.endswith(PROFILE_SUFFIX) or path.is_file():
        profile = _read(path)
        if profile.name in builtin_tasks():
            raise _error(str(path), "name", f"{profile.name!r} is the built-in task of "
                         f"lit/tasks/profiles/{profile.name}.toml; name your task otherwise")
        return profile
    if (PROFILE_DIR / f"{text}{PROFILE_SUFFIX}").is_file():
        return _read(PROFILE_DIR / f"{text}{PROFILE_SUFFIX}", f"lit/tasks/profiles/{text}.toml")
    raise InputError(f"unknown task {text!r}: the built-in tasks are "
                     f"{', '.join(builtin_tasks())}; or give a profile file (.toml, "
                     "docs/tasks.md)")


def _read(path: Path, shown: str | None = None) -> TaskProfile:
    where = shown or str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{where}: cannot read the task profile: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{where}: not a TOML task profile: {exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{where}: not UTF-8 text at byte {exc.start}") from None
    return _profile(data, path, where)


def _error(where: str, key: str, what: str) -> InputError:
    return InputError(f"{where}: {key}: {what} (docs/tasks.md)")


def _strings(value: object, where: str, key: str, allow_one: bool = True) -> tuple[str, ...]:
    """A non-empty list of non-empty strings (or one string, if *allow_one*)."""
    if allow_one and isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(
            isinstance(v, str) and v.strip() for v in value):
        raise _error(where, key, "expected a non-empty list of names"
                     + (" (or one name)" if allow_one else ""))
    return tuple(v.strip() for v in value)


def _profile(data: dict, path: Path, where: str) -> TaskProfile:
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise _error(where, unknown[0], f"unknown key (keys: {', '.join(sorted(_KEYS))})")
    for key in ("name", "sides", "fields", "labels", "label_rules"):
        if key not in data:
            raise _error(where, key, "missing")
    name = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise _error(where, "name", "expected the task's name")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise _error(where, "description", "expected a string")
    sides = _strings(data["sides"], where, "sides", allow_one=False)
    if len(sides) not in (1, 2) or len(set(sides)) != len(sides):
        raise _error(where, "sides", "expected one side (a single-text task) or two distinct "
                     "ones (a sentence-pair task)")
    taken = [s for s in sides if s in _TAKEN]
    if taken:
        raise _error(where, "sides", f"{taken[0]!r} is a record key; name the side otherwise")
    fields = data["fields"]
    if not isinstance(fields, dict):
        raise _error(where, "fields", "expected a table [fields]")
    extra = sorted(set(fields) - {*sides, LABEL_ROLE, ID_ROLE})
    if extra:
        raise _error(where, f"fields.{extra[0]}", "not a side, label or id")
    roles = {}
    for role in (*sides, LABEL_ROLE, ID_ROLE):
        if role in fields:
            roles[role] = _strings(fields[role], where, f"fields.{role}")
        elif role in sides:
            raise _error(where, f"fields.{role}", "missing: which input field holds this side?")
        else:
            roles[role] = ()
    return TaskProfile(name.strip(), description.strip(), sides, roles,
                       _labels(data["labels"], where, name.strip()),
                       _rules_path(data["label_rules"], path, where),
                       _strings(data["specs"], where, "specs", allow_one=False)
                       if "specs" in data else (), where, _records(data, sides, where))


def _records(data: dict, sides: tuple[str, ...], where: str) -> str:
    """The profile's record shape; pair records need two sides (the pipeline's pairs)."""
    records = data.get("records", CONTRAST_RECORDS)
    if records not in (PAIR_RECORDS, CONTRAST_RECORDS):
        raise _error(where, "records", f"expected {PAIR_RECORDS!r} or {CONTRAST_RECORDS!r}")
    if records == PAIR_RECORDS and len(sides) != 2:
        raise _error(where, "records", f"{PAIR_RECORDS!r} records need two sides")
    return records


def _labels(table: object, where: str, task: str) -> LabelSet:
    if not isinstance(table, dict):
        raise _error(where, "labels", "expected a table [labels] with names = [...]")
    unknown = sorted(set(table) - _LABEL_KEYS)
    if unknown:
        raise _error(where, f"labels.{unknown[0]}",
                     f"unknown key (keys: {', '.join(sorted(_LABEL_KEYS))})")
    names = _strings(table.get("names"), where, "labels.names", allow_one=False)
    codes = _strings(table["codes"], where, "labels.codes", allow_one=False) \
        if "codes" in table else None
    spellings = table.get("spellings", {})
    if not isinstance(spellings, dict):
        raise _error(where, "labels.spellings", "expected a table: label = [spellings]")
    spelled = {k: _strings(v, where, f"labels.spellings.{k}") for k, v in spellings.items()}
    no_consensus = table.get("no_consensus")
    if no_consensus is not None and not isinstance(no_consensus, str):
        raise _error(where, "labels.no_consensus", "expected a string such as \"-\"")
    try:
        return LabelSet.build(names, codes, spelled, what=f"a label of task {task}",
                              no_consensus=no_consensus)
    except ValueError as exc:
        raise _error(where, "labels", str(exc)) from None


def _rules_path(value: object, path: Path, where: str) -> Path:
    """The label-rule file, relative to the profile's folder (or absolute)."""
    if not isinstance(value, str) or not value.strip():
        raise _error(where, "label_rules", "expected a path to a .labels file")
    found = (path.parent / value).resolve()
    if not found.is_file():
        raise _error(where, "label_rules", f"no file {found}")
    return found
