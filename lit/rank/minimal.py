"""The minimal-pair contract: a transformed sentence is its source with exactly the rule's edit
(docs/pipeline.md, "Minimal pairs").

`Edit.of` reads off the source reading and the transformed MRS what the rule may change of the
source sentence, and `Edit.defects` names every difference of a candidate that the rule does
not explain:

* **words** the change neither brings nor inflects (lit.rank.explained: *unexplained word*,
  *dropped word*, *changed form*);
* **where they go**: a rule that changes words in place (tense, modality, negation, a
  lexical substitution: word order STRICT) edits the words of the predications it touches
  (a verb with its auxiliaries), so a word it adds or drops anywhere else is an *unexplained insertion* or *unexplained deletion*, named with
  its place (*A man may operate a piece of earth-moving equipment to be near a waterway.*:
  *to be* before *near*);
* **whole phrases**: a rule that moves arguments (passive, cleft, swap) moves each noun phrase
  of the chosen reading whole, its words in their order (*A concrete long rail is being
  grinded down by a snowboarder.* splits *a long concrete rail*: *phrase not kept whole*);
* **agreement**: a rule that keeps the subject (not a passive, not a swap) keeps the number
  the source's verb agrees in (*A group of young men are raking* -> *It was a group of young
  men who was raking*: *changed agreement*).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from delphin.mrs import MRS

from lit.mrs.graph import is_verb, span
from lit.rank.explained import brought, moved_arguments, touched, unexplained
from lit.rank.forms import PRONOUN_FORMS, lemma, stems
from lit.rank.surface import AUXILIARIES, WordAlignment, WordOrder, align_words, tokenize

#: Finite forms that show the number their subject agrees in (a third-person subject).
AGREEMENT = {"is": "sg", "was": "sg", "has": "sg", "does": "sg", "isn't": "sg",
             "wasn't": "sg", "hasn't": "sg", "doesn't": "sg",
             "are": "pl", "were": "pl", "have": "pl", "do": "pl", "aren't": "pl",
             "weren't": "pl", "haven't": "pl", "don't": "pl"}
_ARTICLES = frozenset({"a", "an"})
#: Words a verb group holds besides its verb: auxiliaries and negation.
_GROUP = AUXILIARIES | {"not", "n't", "being", "been", "to"}
#: How defects of the contract begin, by the refusal kind `lit nli`'s summary counts.
KINDS = {"unexplained insertion": "unexplained edit", "unexplained deletion": "unexplained edit",
         "unexplained word": "unexplained edit", "dropped word": "unexplained edit",
         "phrase not kept whole": "unexplained edit",
         "changed form": "property changed", "changed agreement": "property changed"}


@dataclass(frozen=True)
class Edit:
    """What a transformation may change of its source sentence: the words it explains
    (`brought`), the lemmas whose form it touches, what it does to word order, the source's
    verb groups it edits in place (word spans, STRICT only) and whether it keeps the subject
    whose agreement the source shows."""

    explains: frozenset[str] | None  # None: words are not checked (no source reading)
    touched: frozenset[str] | None  # None: forms are not checked
    word_order: WordOrder
    groups: tuple[tuple[int, int], ...] = ()  # (first, last) source word index, inclusive
    keeps_subject: bool = True
    phrases: tuple[str, ...] = ()  # the source's noun phrases the rule moves, as written

    @classmethod
    def of(cls, sentence: str, source: MRS, target: MRS, word_order: WordOrder,
           examples: Sequence[tuple[str, str]] = ()) -> Edit:
        """The edit from *source* (a reading of *sentence*) to *target*."""
        lemmas = touched(source, target)
        groups = (verb_groups(sentence, source, target, lemmas)
                  if word_order == WordOrder.STRICT else ())
        moved = moved_arguments(source, target)
        return cls(brought(source, target, examples), lemmas, word_order, groups,
                   word_order != WordOrder.FREE and not moved - _focused(source, target),
                   moved_phrases(sentence, source, target, moved) if moved else ())

    def defects(self, source: str, candidate: str) -> tuple[str, ...]:
        """What *candidate* changes of *source* that this edit does not explain."""
        out = ([] if self.explains is None else
               list(unexplained(source, candidate, self.explains, self.touched)))
        if self.groups:
            out += confined(align_words(source, candidate, self.word_order, self.touched),
                            self.groups)
        if self.keeps_subject:
            out += agreement(source, candidate)
        out += [f"phrase not kept whole {p!r}" for p in self.phrases if not _kept(p, candidate)]
        return tuple(out)


def _focused(source: MRS, target: MRS) -> frozenset[str]:
    """A cleft's focus: it moves its noun phrase but keeps the clause's subject."""
    return frozenset(i.right for i in target.icons if i.relation == "focus") - frozenset(
        i.right for i in source.icons if i.relation == "focus")


def moved_phrases(sentence: str, source: MRS, target: MRS, moved: frozenset[str]
                  ) -> tuple[str, ...]:
    """The noun phrases of *source* (a reading of *sentence*) that the change to *target*
    moves, as *sentence* writes them: *moved* (`moved_arguments`) and every other
    noun-phrase argument of a predication whose event gains an ICONS relation (a passive's
    agent goes into its *by* phrase)."""
    clause = {i.left for i in target.icons} - {i.left for i in source.icons}
    heads = set(moved)
    for ep in source.rels:
        if ep.iv in clause:
            heads |= {v for v in ep.args.values() if v.startswith("x")}
    clause |= {source.index}
    out = []
    for x in sorted(heads):
        span = phrase_span(source, x, clause)
        if span is not None:
            out.append(" ".join(sentence[span[0]:span[1]].split()).strip(" ,;:.!?"))
    return tuple(p for p in out if p)


def phrase_span(m: MRS, head: str, clause: set[str]) -> tuple[int, int] | None:
    """The characters of the noun phrase *head* heads in *m*: its quantifier, its noun, what
    modifies it, and the phrases those take as arguments, not the clause's own predications
    (*clause*: their events)."""
    heads, eps = {head}, []
    grew = True
    while grew:
        grew = False
        for ep in m.rels:
            if ep in eps or ep.iv in clause or not (
                    ep.iv in heads or ep.args.get("ARG1") in heads):
                continue
            eps.append(ep)
            heads |= {v for v in ep.args.values() if v.startswith("x")}
            grew = True
    noun = next((span(ep) for ep in eps if ep.iv == head and not ep.is_quantifier()), None)
    verbs = [s for ep in m.rels if ep.iv in clause and (s := span(ep))]
    # a phrase does not reach across its clause's verb (a depictive: *standing still*)
    spans = [s for ep in eps if (s := span(ep)) and (noun is None or not any(
        min(s[0], noun[0]) < v[0] and v[1] <= max(s[1], noun[1]) for v in verbs))]
    return (min(a for a, _ in spans), max(b for _, b in spans)) if spans else None


def _kept(phrase: str, candidate: str) -> bool:
    """Whether *candidate* writes *phrase*'s words together and in order: each the same word,
    another form of it (*an* for *a*), or a pronoun's other case (*he* for *him*)."""
    want = [t.key for t in tokenize(phrase) if t.word]
    have = [t.key for t in tokenize(candidate) if t.word]

    def same(a: str, b: str) -> bool:
        return a == b or bool(stems(a) & stems(b)) or (a in PRONOUN_FORMS and b in PRONOUN_FORMS)
    return any(all(same(a, b) for a, b in zip(want, have[k:k + len(want)]))
               for k in range(len(have) - len(want) + 1))


def verb_groups(sentence: str, source: MRS, target: MRS, lemmas: frozenset[str]
                ) -> tuple[tuple[int, int], ...]:
    """The places of the source the change edits: the words of each predication whose lemma
    it touches (a noun a lexical rule replaces, a pronoun, a quantifier), of the index EP and
    of what a predication the change adds is about (its arguments' own EPs);
    a verb's with the auxiliaries and negation right before it and the words of modifiers of
    its event between them (*quickly*), as word indices of `tokenize(sentence)` (punctuation
    left out)."""
    toks = [t for t in tokenize(sentence) if t.word]
    out = []
    # a predication the change adds goes beside what it predicates of (*small* before *dog*)
    kept = {(ep.predicate, ep.iv) for ep in source.rels}
    hosts = {v for ep in target.rels if (ep.predicate, ep.iv) not in kept
             for v in ep.args.values()}
    for ep in source.rels:
        if span(ep) is None or (
                ep.iv != source.index and lemma(ep.predicate) not in lemmas
                and ep.iv not in hosts):
            continue
        words = [k for k, t in enumerate(toks) if t.start < ep.cto and t.end > ep.cfrom]
        if not words:
            continue
        first = words[0]
        if ep.iv == source.index or is_verb(ep):  # its auxiliaries, not, adverbs before it
            modifiers = [s for m in source.rels if m.args.get("ARG1") == ep.iv and (s := span(m))]
            while first > 0 and (toks[first - 1].key in _GROUP or any(
                    a <= toks[first - 1].start and toks[first - 1].end <= b
                    for a, b in modifiers)):
                first -= 1
        out.append((first, words[-1]))
    return tuple(sorted(set(out)))


def confined(a: WordAlignment, groups: Sequence[tuple[int, int]]) -> list[str]:
    """The candidate's added words (`WordAlignment.slots`) and the source's dropped ones that lie
    outside every verb group of *groups* (word indices of the source's words), each named
    with its place; an added word may stand right before or after a group."""
    words = [i for i, t in enumerate(a.source) if t.word]
    position = {i: k for k, i in enumerate(words)}  # source token -> word index
    def inside(k: float) -> bool:
        return any(first - 0.5 <= k <= last + 0.5 for first, last in groups)

    out = []
    linked, moved = a.linked("source"), a.linked("candidate")
    added = {j: _word_slot(slot, position, len(words)) for j, slot in a.slots.items()
             if j not in moved and a.candidate[j].word}
    # *a* for *an* where the next word changed is the article agreeing, not an edit
    articles = {k for k in added.values()} & {position[i] - 0.5 for i in words
                                              if i not in linked and a.source[i].key in _ARTICLES}
    for i in words:
        if i not in linked and not inside(position[i]) and not (
                a.source[i].key in _ARTICLES and position[i] - 0.5 in articles):
            out.append(f"unexplained deletion {a.source[i].text!r}")
    inserted: dict[float, list[str]] = {}
    for j, k in sorted(added.items()):
        if not inside(k) and not (a.candidate[j].key in _ARTICLES and k in articles):
            inserted.setdefault(k, []).append(a.candidate[j].text)
    for k, texts in inserted.items():
        after = next((a.source[i].text for i in words if position[i] > k), None)
        place = f"before {after!r}" if after else "at the end"
        out.append(f"unexplained insertion {' '.join(texts)!r} {place}")
    return out


def _word_slot(slot: float, position: dict[int, int], n: int) -> float:
    """A slot (a source token index - 0.5) as a word index - 0.5."""
    after = min((i for i in position if i > slot), default=None)
    return position[after] - 0.5 if after is not None else n - 0.5


def agreement(source: str, candidate: str) -> list[str]:
    """A changed agreement: the candidate writes finite forms of one number (AGREEMENT) more
    often, and of the other less often, than the source does (*are* -> *was*). Not counted:
    a cleft's copula, which agrees with *it* (*It was …*, *Was it …*), and a form after a
    modal or *to*, which is not finite (*will have*)."""
    (was, src_words), (now, cand_words) = _numbers(source), _numbers(candidate)
    for gained, lost in (("sg", "pl"), ("pl", "sg")):
        if now[gained] > was[gained] and now[lost] < was[lost]:
            return [f"changed agreement {src_words[lost]!r} ({cand_words[gained]!r})"]
    return []


#: Words after which a form of *be*, *have* or *do* is not finite.
NONFINITE = frozenset({"will", "would", "may", "might", "must", "can", "could", "shall",
                       "should", "to"})


def _numbers(sentence: str) -> tuple[Counter[str], dict[str, str]]:
    """How many finite forms of each number *sentence* writes (see `agreement`), and the
    first form of each."""
    keys = [t.key for t in tokenize(sentence) if t.word]
    found: Counter[str] = Counter()
    first: dict[str, str] = {}
    for k, w in enumerate(keys):
        before = [b for b in keys[:k] if b not in ("not", "n't")][-1:]
        after = keys[k + 1:k + 2]
        if w not in AGREEMENT or before == ["it"] or after == ["it"] or (
                before and before[0] in NONFINITE):
            continue
        found[AGREEMENT[w]] += 1
        first.setdefault(AGREEMENT[w], w)
    return found, first


#: The refusal kinds `refusals` tells apart, in the order the summary lists them.
REFUSAL_KINDS = ("unexplained edit", "property changed", "moved phrase", "reading doubted",
                 "other defect")


def refusals(status: str, reason: str | None) -> list[str]:
    """The kinds of refusal (REFUSAL_KINDS) a failed transform's *status* and *reason* show:
    a not_fluent side by the kinds of its best candidate's defects (KINDS; *other defect*
    for the surface's own, a moved comma or a non-word), an untrusted_reading side by
    whether the reading moves a phrase the verb owns; [] for other failures."""
    if status == "untrusted_reading":
        return ["moved phrase" if "moved phrase:" in (reason or "") else "reading doubted"]
    if status != "not_fluent":
        return []
    defects = (reason or "").split(", has: ", 1)[-1].split("; ")
    kinds = {kind for d in defects for prefix, kind in KINDS.items() if d.startswith(prefix)}
    return [k for k in REFUSAL_KINDS if k in kinds] or ["other defect"]
