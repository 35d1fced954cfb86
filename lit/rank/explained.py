"""Which words a transformation may add to or drop from its source sentence, derived from the
rule and the grammar rather than from a hand list (docs/pipeline.md, "Unexplained words").

A realization may differ from its source by

* the **semantically empty words** the grammar's generator inserts for what the rule changed
  (``lit/rank/data/empty-words.tsv``, from the ERG's trigger rules): a changed TENSE brings
  *will*, *did*, *was*; a changed SF brings *do*; a new ICONS topic on a verb's event brings
  the passive's *by* (its trigger names the verb) and the verb's auxiliaries;
* the spellings of the **predicates the rule adds or removes** (their lemma, and what the
  lexicon spells them: ``predicate-forms.tsv``, *could* for ``_can_v_modal``, *not* for ``neg``);
* the words the applied modules' own **examples** add or drop (a cleft's *it* and *who*): the
  examples run as tests, so they stay in step with the rules;
* **inflection** of the source's own words (``irregular-forms.tsv`` from the ERG's irregs
  table, and the regular suffixes).

Any other added or dropped word is a defect, named in the record: *Of the N was outside.*
for *The N is outside.* under ``tense=past`` has the unexplained word *of*.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from delphin import predicate
from delphin.mrs import MRS

from lit.rank.closeness import tokens
from lit.rules.engine import IDENTITY

#: English spellings of contracted modals (*can't*, *won't*, *shan't*): the base before *n't*.
_CONTRACTED = {"ca": "can", "wo": "will", "sha": "shall"}


@dataclass(frozen=True)
class _Trigger:
    word: str
    properties: frozenset[str]
    predicates: tuple[str, ...]


def _rows(name: str) -> list[list[str]]:
    text = resources.files("lit.rank.data").joinpath(name).read_text("utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


@lru_cache(maxsize=1)
def _triggers() -> tuple[_Trigger, ...]:
    return tuple(_Trigger(w, frozenset(p for p in props.split(",") if p), tuple(preds.split()))
                 for w, props, preds, _ in _rows("empty-words.tsv"))


@lru_cache(maxsize=1)
def _forms() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """predicate -> its other spellings, and spelling -> the lemmas it spells."""
    by_pred: dict[str, set[str]] = {}
    lemmas: dict[str, set[str]] = {}
    for pred, word in _rows("predicate-forms.tsv"):
        by_pred.setdefault(predicate.normalize(pred), set()).add(word)
        lemmas.setdefault(word, set()).add(_lemma(pred))
    for form, stem in _rows("irregular-forms.tsv"):
        lemmas.setdefault(form, set()).add(stem)
    return by_pred, lemmas


def _lemma(pred: str) -> str:
    return predicate.normalize(pred).lstrip("_").split("_")[0].lower()


def words(sentence: str) -> list[str]:
    """The sentence's words, contractions split (*can't* -> *can not*, *woman's* -> *woman
    's*) and hyphenated ones too (a split or added hyphen is lit.rank.closeness's defect)."""
    out = []
    for t in (p for tok in tokens(sentence.replace("’", "'")) for p in tok.split("-") if p):
        if not t[0].isalnum():
            continue
        if t.endswith("n't"):
            out += [_CONTRACTED.get(t[:-3], t[:-3]), "not"]
        elif t == "cannot":
            out += ["can", "not"]
        elif "'" in t:
            head, tail = t.split("'", 1)
            out += [head, "'" + tail]
        else:
            out.append(t)
    return out


def stems(word: str) -> frozenset[str]:
    """The word and what it may be an inflection of (regular suffixes, the ERG's irregular
    forms, the lexicon's other spellings of one predicate: *an* ~ *a*)."""
    found = {word} | _forms()[1].get(word, set())
    for suffix, repl in (("ies", "y"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", ""),
                         ("ed", "e"), ("ing", ""), ("ing", "e"), ("er", ""), ("est", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            base = word[: len(word) - len(suffix)] + repl
            found.add(base)
            if len(base) > 2 and base[-1] == base[-2] and not repl:
                found.add(base[:-1])  # running -> run
    return frozenset(found)


def _matches(pattern: str, preds: Iterable[str]) -> bool:
    if pattern.startswith("~"):
        rx = re.compile(pattern[1:])
        return any(rx.search(p) or rx.search(p + "_rel") for p in preds)
    want = predicate.normalize(pattern)
    return any(predicate.normalize(p) == want for p in preds)


def _properties(m: MRS, var: str) -> dict[str, str]:
    return {k.upper(): str(v).lower() for k, v in m.variables.get(var, {}).items()}


#: The forms the ERG realizes a `pron` EP as, chosen by its PERS/NUM/GEND (a closed class the
#: grammar's lexicon spells out: a demographic or person change of a pronoun brings these).
PRONOUN_FORMS = frozenset(
    "i me my mine myself you your yours yourself yourselves he him his himself she her hers "
    "herself it its itself we us our ours ourselves they them their theirs themselves "
    "themself".split())


def _pronoun_changed(source: MRS, target: MRS, changed_vars: set[str]) -> bool:
    prons = {ep.iv for m in (source, target) for ep in m.rels
             if predicate.normalize(ep.predicate) == "pron"}
    counts = [sum(predicate.normalize(ep.predicate) == "pron" for ep in m.rels)
              for m in (source, target)]
    return bool(prons & changed_vars) or counts[0] != counts[1]


def relocates(source: MRS, target: MRS) -> bool:
    """Whether a predicate both MRSs have now belongs to another referent: *man* and *woman*
    swapped by gender=swap ('The man gave the woman his book.' -> 'The woman gave the man her
    book.'), so their words change places by the rule's doing, not the generator's."""
    def owners(m: MRS) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for ep in m.rels:
            if ep.iv and ep.iv.startswith("x") and not ep.is_quantifier():
                out.setdefault(predicate.normalize(ep.predicate), set()).add(ep.iv)
        return out
    before, after = owners(source), owners(target)
    return any(before[p] != after[p] for p in before.keys() & after.keys())


def brought(source: MRS, target: MRS, examples: Sequence[tuple[str, str]] = ()) -> frozenset[str]:
    """Words the change from *source* to *target* may add or drop: see the module docstring.
    *examples* are the applied modules' (source, target) example sentences."""
    changed: set[str] = set()
    changed_vars: set[str] = set()
    for var in target.variables:
        before, after = _properties(source, var), _properties(target, var)
        diff = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
        if var not in source.variables:
            diff |= set(after)
        if diff:
            changed_vars.add(var)
        changed |= diff
    icons = ({(i.left, i.relation, i.right) for i in target.icons}
             ^ {(i.left, i.relation, i.right) for i in source.icons})
    focused = {left for left, _, _ in icons}
    for var in focused:
        changed |= set(_properties(target, var))
    added = Counter(ep.predicate for ep in target.rels)
    removed = Counter(ep.predicate for ep in source.rels)
    new = set((added - removed) | (removed - added))
    touched = {ep.predicate for m in (source, target) for ep in m.rels if ep.iv in focused}
    found: set[str] = set()
    for t in _triggers():
        if t.properties & changed or any(_matches(p, new | touched) for p in t.predicates):
            found.update(t.word.split())
    if _pronoun_changed(source, target, changed_vars):
        found |= PRONOUN_FORMS
    by_pred = _forms()[0]
    for pred in new:
        found.add(_lemma(pred))
        found.update(by_pred.get(predicate.normalize(pred), ()))
    for before, after in examples:
        a, b = Counter(words(before)), Counter(words(after))
        found.update((a - b) | (b - a))
    return frozenset(found)


def unexplained(source: str, candidate: str, allowed: frozenset[str]) -> tuple[str, ...]:
    """Defects for the words *candidate* adds to or drops from *source* that neither inflect
    a word of the other sentence nor are among *allowed* (`brought`)."""
    allowed_stems = {s for w in allowed for s in stems(w)}
    src = [(w, stems(w)) for w in words(source)]
    out = []
    for w in words(candidate):
        s = stems(w)
        k = next((i for i, (_, t) in enumerate(src) if t & s), None)
        if k is not None:
            del src[k]
        elif not s & allowed_stems:
            out.append(f"unexplained word {w!r}")
    out += [f"dropped word {w!r}" for w, s in src if not s & allowed_stems]
    return tuple(out)


def implausible(sentence: str, reading: MRS) -> str | None:
    """Why *reading* is not a reading of *sentence* to transform, or None: it makes a name of
    a word the sentence writes in lower case (*on stone steps* read with a name *Stone*), so
    its realizations would capitalise it."""
    lower = {t for t in tokens(sentence) if t[0].isalpha()} & set(
        re.findall(r"\b[a-z][\w'-]*", sentence))
    for ep in reading.rels:
        name = ep.carg
        if ep.predicate == "named" and name and name[0].isupper() and name.lower() in lower \
                and name not in sentence:
            return f"it reads the lower-case {name.lower()!r} as a name {name!r}"
    return None


def examples(rules, spec) -> tuple[tuple[str, str], ...]:
    """The (source, target) example sentences of the modules *spec* applies (a RuleEngine
    and a spec): the words they add or drop are words the transformation explains."""
    steps = [st for st in rules.check(spec).steps if not (st.name == IDENTITY and st.value is None)]
    return tuple(dict.fromkeys((e.source, e.target) for st in steps
                               for e in rules.module(st.name).examples))
