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

from delphin import predicate
from delphin.mrs import MRS

from lit.mrs import properties
from lit.rank.closeness import tokens
from lit.rank.forms import PRONOUN_FORMS, forms, lemma, other_form, rows, stems
from lit.rules.engine import IDENTITY

#: English spellings of contracted modals (*can't*, *won't*, *shan't*): the base before *n't*.
_CONTRACTED = {"ca": "can", "wo": "will", "sha": "shall"}


@dataclass(frozen=True)
class _Trigger:
    word: str
    properties: frozenset[str]
    predicates: tuple[str, ...]


@lru_cache(maxsize=1)
def _triggers() -> tuple[_Trigger, ...]:
    return tuple(_Trigger(w, frozenset(p for p in props.split(",") if p), tuple(preds.split()))
                 for w, props, preds, _ in rows("empty-words.tsv"))


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


def _matches(pattern: str, preds: Iterable[str]) -> bool:
    if pattern.startswith("~"):
        rx = re.compile(pattern[1:])
        return any(rx.search(p) or rx.search(p + "_rel") for p in preds)
    want = predicate.normalize(pattern)
    return any(predicate.normalize(p) == want for p in preds)


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


def _icons(m: MRS) -> set[tuple[str, str, str]]:
    return {(i.left, i.relation, i.right) for i in m.icons}


def restructures(source: MRS, target: MRS) -> bool:
    """Whether the change gives the clause another shape: a new ICONS relation (passive,
    cleft) or another sentence force (question), so the rule's words go among the source's
    and words move across them."""
    if _icons(source) != _icons(target):
        return True
    if properties(source, source.index).get("SF") != properties(target, target.index).get("SF"):
        return True
    return any(properties(source, v).get("SF") != properties(target, v).get("SF")
               for v in target.variables if v.startswith("e") and v in source.variables)


def moved_arguments(source: MRS, target: MRS) -> frozenset[str]:
    """The noun phrases the change from *source* to *target* moves (their variables): a new
    ICONS topic or focus (passive, cleft) and the arguments a predication exchanges (swap)."""
    moved = {right for _, _, right in _icons(target) - _icons(source)}
    after = {(ep.predicate, ep.iv): ep.args for ep in target.rels}
    for ep in source.rels:
        args = after.get((ep.predicate, ep.iv))
        if args is None:
            continue
        for role, value in ep.args.items():
            now = args.get(role)
            if value.startswith("x") and str(now).startswith("x") and now != value:  # not dropped
                moved |= {value, now}
    return frozenset(v for v in moved if v.startswith("x"))


#: Relative pronouns and complementizers: the trigger rules insert them for clauses that a
#: change of tense or force does not create (*Two people that wearing ... are about to get
#: into trained.* read *train* as the verb); a rule that makes a clause (a cleft) shows them
#: in its examples.
CLAUSE_WORDS = frozenset({"that", "who", "which", "whom"})


#: The aspect an auxiliary marks: the trigger rules insert it for a change of tense too (its
#: rows list TENSE), but a minimal pair writes it only where the aspect is new to the clause
#: (a passive restructures it; a change of tense alone keeps the source's aspect words:
#: *There is no dog staring.* -> not *There will be being no dog staring.*).
MARKS = {"being": frozenset({"PROG"}), "been": frozenset({"PERF"})}


def brought(source: MRS, target: MRS, examples: Sequence[tuple[str, str]] = ()) -> frozenset[str]:
    """Words the change from *source* to *target* may add or drop: see the module docstring.
    *examples* are the applied modules' (source, target) example sentences."""
    changed: set[str] = set()
    changed_vars: set[str] = set()
    for var in target.variables:
        before, after = properties(source, var), properties(target, var)
        diff = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
        if var not in source.variables:
            diff |= set(after)
        if diff:
            changed_vars.add(var)
        changed |= diff
    icons = _icons(target) ^ _icons(source)
    focused = {left for left, _, _ in icons}
    for var in focused:
        changed |= set(properties(target, var))
    added = Counter(ep.predicate for ep in target.rels)
    removed = Counter(ep.predicate for ep in source.rels)
    new = set((added - removed) | (removed - added))
    touched = {ep.predicate for m in (source, target) for ep in m.rels if ep.iv in focused}
    found: set[str] = set()
    for t in _triggers():
        if t.word in CLAUSE_WORDS:  # brought by a new clause, which only examples show
            continue
        if t.word in MARKS and not MARKS[t.word] & changed:  # an aspect word, no new aspect
            continue
        if t.properties & changed or any(_matches(p, new | touched) for p in t.predicates):
            found.update(t.word.split())
    if _pronoun_changed(source, target, changed_vars):
        found |= PRONOUN_FORMS
    by_pred = forms()[0]
    for pred in new:
        found.add(lemma(pred))
        found.update(by_pred.get(predicate.normalize(pred), ()))
    for before, after in examples:
        a, b = Counter(words(before)), Counter(words(after))
        found.update((a - b) | (b - a))
    return frozenset(found)


def touched(source: MRS, target: MRS) -> frozenset[str]:
    """Lemmas of the predications the change from *source* to *target* touches, whose words
    may change form (*sits* -> *sat*): those added or removed, those whose arguments differ,
    those a new scope takes (*did not praise* for *praised*), and those whose own variable or
    an argument's has other properties or a new ICONS relation. Every other word keeps the
    source's form (*woven* stays *woven*)."""
    changed = {v for v in target.variables if properties(source, v) != properties(target, v)}
    # a new ICONS relation touches its event, and its argument only where that is a pronoun,
    # whose case follows its new place (*him* -> *He was seen.*); a focused *somebody* stays
    # *somebody*
    prons = {ep.iv for ep in target.rels if predicate.normalize(ep.predicate) == "pron"}
    changed |= {v for left, _, right in _icons(target) ^ _icons(source)
                for v in (left, right) if v == left or v in prons}
    before = {(ep.predicate, ep.iv): dict(ep.args) for ep in source.rels}
    after = {(ep.predicate, ep.iv): dict(ep.args) for ep in target.rels}
    # a predication a scope takes or leaves (neg, a modal: *did not praise* for *praised*,
    # and back: *barked* for *did not bark*)
    scoped = {lo for _, lo in ({(h.hi, h.lo) for h in target.hcons}
                               ^ {(h.hi, h.lo) for h in source.hcons})}
    out = {lemma(ep.predicate) for m in (source, target) for ep in m.rels if ep.label in scoped}
    for key in before.keys() ^ after.keys():
        out.add(lemma(key[0]))
    for key, args in after.items():
        if key in before and (args != before[key] or changed & set(args.values())):
            out.add(lemma(key[0]))
    return frozenset(out)


def unexplained(source: str, candidate: str, allowed: frozenset[str],
                touched: frozenset[str] | None = None) -> tuple[str, ...]:
    """Defects for the words *candidate* adds to or drops from *source* that neither inflect
    a word of the other sentence nor are among *allowed* (`brought`); with *touched* (the
    lemmas the change touches, `touched`), also for a word of the source the candidate writes
    in another form although the change does not touch it (*weaved* for *woven*)."""
    allowed_stems = {s for w in allowed for s in stems(w)}
    src = [(w, stems(w)) for w in words(source)]
    cand = words(candidate)
    # the same word first, wherever it stands: *be* must not take the source's *being* from
    # the candidate's own *being* (*A car will be being driven.*)
    left = Counter(w for w, _ in src)
    same = Counter(cand) & left  # source words kept for the candidate's own copies
    out = []
    for w in cand:
        s = stems(w)
        k = next((i for i, (v, _) in enumerate(src) if v == w), None)
        if k is None:
            k = next((i for i, (v, t) in enumerate(src) if t & s and same[v] < left[v]), None)
        elif same[w]:
            same[w] -= 1
        if k is not None:
            was = src[k][0]
            if touched is not None and other_form(was, w, touched | allowed):
                out.append(f"changed form {was!r} ({w!r})")
            left[was] -= 1
            del src[k]
        elif not s & allowed_stems or (w in MARKS and w not in allowed):
            out.append(f"unexplained word {w!r}")  # an aspect word only as itself
    out += [f"dropped word {w!r}" for w, s in src if not s & allowed_stems]
    return tuple(out)


def implausible(sentence: str, reading: MRS) -> str | None:
    """Why *reading* is not a reading of *sentence* to transform, or None: it makes a name of
    a word the sentence writes in lower case (*on stone steps* read with a name *Stone*), so
    its realizations would capitalise it; also a lower-case part of a hyphenated word
    (*earth-moving* with a name *Earth*) or a name for the word's stem (*jeans* with *Jean*,
    *woods* with *Wood*)."""
    lower: set[str] = set()
    for token in re.findall(r"\b[a-z][\w'-]*", sentence):
        for part in (token, *token.split("-")):
            if part and part[0].isalpha():
                lower |= {part, *stems(part)} if part.islower() else {part}
    for ep in reading.rels:
        name = ep.carg
        if ep.predicate == "named" and name and name[0].isupper() and name.lower() in lower \
                and not re.search(rf"\b{re.escape(name)}\b", sentence):
            return f"it reads the lower-case {_written(sentence, ep, name)!r} as a name {name!r}"
    return None


def _written(sentence: str, ep, name: str) -> str:
    """The word of *sentence* under *ep*'s span (a name's own word), else the name lowered."""
    if ep.lnk is not None and 0 <= ep.cfrom < ep.cto <= len(sentence):
        return sentence[ep.cfrom:ep.cto].strip(" .,;:!?")
    return name.lower()


def examples(rules, spec) -> tuple[tuple[str, str], ...]:
    """The (source, target) example sentences of the modules *spec* applies (a RuleEngine
    and a spec): the words they add or drop are words the transformation explains."""
    steps = [st for st in rules.check(spec).steps if not (st.name == IDENTITY and st.value is None)]
    return tuple(dict.fromkeys((e.source, e.target) for st in steps
                               for e in rules.module(st.name).examples))
