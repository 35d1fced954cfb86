"""The WordNet 3.0 -> ERG mapping shipped with LIT, and how two predicates stand in it.

Read from ``data/wordnet-erg.json.gz`` (built by tools/build_wordnet.py): each predicate's
synset, the hypernym graph above those synsets and the antonym pairs between predicates.
``relation`` says how one predicate stands to another, ``candidates`` lists substitutes.
"""

from __future__ import annotations

import gzip
import json
from collections import deque
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from typing import Literal

from lit.lexicon import semi
from lit.lexicon.roles import fits_roles
from lit.lexicon.words import lemma, pos, sense_rank, zipf

Relation = Literal["same", "hypernym", "hyponym", "sibling", "antonym", "unrelated"]
RELATIONS: tuple[str, ...] = ("same", "hypernym", "hyponym", "sibling", "antonym", "unrelated")
#: Relations a substitution module can ask candidates for.
EDIT_RELATIONS: tuple[str, ...] = ("hypernym", "hyponym", "sibling", "antonym")

DATA = "wordnet-erg.json.gz"
#: Zipf frequency (wordfreq, English) a candidate's lemma needs by default: *dog* 5.1,
#: *animal* 4.8, *puppy* 4.0 pass; *canine* 3.3, *mammal* 3.3 do not.
DEFAULT_MIN_ZIPF = 4.0
#: Noun synsets this close to WordNet's root (entity 0, physical entity 1, object 2, whole 3,
#: longest path) are too abstract to be offered as replacements.
MIN_NOUN_DEPTH = 4
#: Co-hyponyms: both synsets reach a shared hypernym within this many steps (dog and cat meet
#: at carnivore, two steps up from each).
SIBLING_REACH = 2
#: How far down hyponym candidates are looked for.
HYPONYM_REACH = 3
#: person.n.01: WordNet's co-hyponyms below it are mostly compatible roles (a woman can be a
#: national, a leader, a friend), so no sibling is offered for a person noun; the exclusive
#: pairs (man/woman, boy/girl) are antonyms.
PERSON = "n00007846"
#: object.n.01 (physical object: a thing, a living thing, a place; not matter, not a body of
#: water, which WordNet files under thing.n.12): two kinds of whole object neither of which
#: WordNet puts below the other are different things (a bench is not a plane;
#: lit.lexicon.shipped.disjoint).
OBJECT = "n00002684"
#: human.n.01 (homo): WordNet's other synset for people, below hominid, not person.n.01;
#: "Some humans" and "Some teachers" may be the same people.
HUMAN = "n02472293"
#: Co-hyponyms must meet at a hypernym at least this deep (*carnivore* for dog and cat is 11;
#: *happening*, where fire meets case, death and victory, is 4).
MIN_SIBLING_DEPTH = 5


@dataclass(frozen=True)
class Lexicon:
    """The shipped mapping: predicate -> synset, synset -> hypernyms, predicate -> antonyms."""

    preds: dict[str, str]
    hypernyms: dict[str, list[str]]
    antonyms: dict[str, list[str]]
    meta: dict[str, str]
    #: register variants (guy, cop): WordNet hyponyms that are synonyms in use, never offered
    informal: frozenset[str] = frozenset()
    #: predicate -> the WordNet sense it is mapped to, by name ("fire.n.01")
    senses: dict[str, str] | None = None
    #: predicates whose lemma's first WordNet sense is not clearly its commonest: no
    #: substitutes are offered for such a noun
    ambiguous: frozenset[str] = frozenset()

    @classmethod
    @lru_cache(maxsize=1)
    def load(cls) -> Lexicon:
        """The mapping shipped with LIT (read once)."""
        raw = resources.files("lit.lexicon").joinpath("data", DATA).read_bytes()
        data = json.loads(gzip.decompress(raw))
        return cls(data["preds"], data["hypernyms"], data["antonyms"], data["meta"],
                   frozenset(data.get("informal", ())), data.get("senses", {}),
                   frozenset(data.get("ambiguous", ())))

    @cached_property
    def by_synset(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for pred, sid in sorted(self.preds.items()):
            out.setdefault(sid, []).append(pred)
        return out

    @cached_property
    def hyponyms(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for sid, ups in self.hypernyms.items():
            for up in ups:
                out.setdefault(up, []).append(sid)
        return out

    @cached_property
    def adjective_lemmas(self) -> frozenset[str]:
        """Lemmas the SEM-I also has as adjectives."""
        return frozenset(lemma(p) for p in semi.table() if pos(p) == "a")

    def _adjectival_person(self, pred: str) -> bool:
        """A person noun that is also an adjective (*national*, *modern*, *senior*), not offered
        as a hyponym: its word frequency mostly counts the adjective, so the Zipf filter cannot
        vouch for the noun ("A national rides ..." for "A person rides ..."). Hypernyms keep
        theirs (*adult*, *professional* read well)."""
        sid = self.preds.get(pred)
        return (pos(pred) == "n" and lemma(pred) in self.adjective_lemmas
                and sid is not None and PERSON in self.ancestors(sid))

    def ancestors(self, sid: str) -> dict[str, int]:
        """Every hypernym of *sid* with its shortest distance (sid itself at 0)."""
        return _reach(sid, self.hypernyms)

    def descendants(self, sid: str, limit: int) -> dict[str, int]:
        return _reach(sid, self.hyponyms, limit)

    @cached_property
    def _depths(self) -> dict[str, int]:
        return {}

    def depth(self, sid: str) -> int:
        """Longest distance from *sid* up to a root of the hierarchy (*person* is 6 steps
        below *entity* through *organism*, though only 3 through *causal agent*)."""
        memo = self._depths
        if sid not in memo:
            memo[sid] = 1 + max((self.depth(h) for h in self.hypernyms.get(sid, ())),
                                default=-1)
        return memo[sid]

    def relation(self, a: str, b: str) -> Relation:
        """How predicate *b* stands to predicate *a* (b is a "hypernym": more general than a).
        Predicates without a synset are "same" only when equal, else "unrelated"."""
        if a == b:
            return "same"
        sa, sb = self.preds.get(a), self.preds.get(b)
        if sa is None or sb is None:
            return "unrelated"
        if sa == sb:
            return "same"
        if sb in self.ancestors(sa):
            return "hypernym"
        if sa in self.ancestors(sb):
            return "hyponym"
        if b in self.antonyms.get(a, ()) or a in self.antonyms.get(b, ()):  # either way round
            return "antonym"
        if self._meet(sa, sb):
            return "sibling"
        return "unrelated"

    def primary(self, sid: str) -> list[str]:
        """*sid*'s first hypernyms (WordNet's first-listed, its main line) up to
        SIBLING_REACH steps, nearest first, as deep as MIN_SIBLING_DEPTH at least: where
        siblings may meet."""
        line: list[str] = []
        while len(line) < SIBLING_REACH and self.hypernyms.get(sid):
            sid = self.hypernyms[sid][0]
            line.append(sid)
        return [s for s in line if self.depth(s) >= MIN_SIBLING_DEPTH]

    def _meet(self, sa: str, sb: str) -> bool:
        return bool(set(self.primary(sa)) & set(self.primary(sb)))

    def _related_synsets(self, sid: str, rel: str) -> dict[str, int]:
        """Synsets in *rel* to *sid*, with a distance used for ordering."""
        if rel == "hypernym":
            return {s: d for s, d in self.ancestors(sid).items() if d > 0}
        if rel == "hyponym":
            return {s: d for s, d in self.descendants(sid, HYPONYM_REACH).items() if d > 0}
        if rel == "sibling":
            ups = self.ancestors(sid)
            if PERSON in ups:
                return {}
            out: dict[str, int] = {}
            for up in self.primary(sid):
                d = ups[up]
                for s, e in self.descendants(up, SIBLING_REACH).items():
                    if (e > 0 and s not in ups and sid not in self.ancestors(s)
                            and up in self.primary(s)):
                        out[s] = min(out.get(s, 99), d + e)
            return out
        raise ValueError(f"not a substitution relation: {rel!r} (use {', '.join(EDIT_RELATIONS)})")

    def candidates(self, pred: str, rel: str, *, min_zipf: float = DEFAULT_MIN_ZIPF,
                   max_candidates: int | None = None) -> list[str]:
        """SEM-I predicates in relation *rel* to *pred* (hypernym: more general ones), nearest
        first and then most frequent; rare lemmas (below *min_zipf*), abstract nouns near the
        root, register variants (*guy*, *cop*), person nouns that are also adjectives as hyponyms
        (*national*) and
        predicates that cannot fill *pred*'s roles are left out."""
        sid = self.preds.get(pred)
        if sid is None or (pos(pred) == "n" and pred in self.ambiguous):
            return []
        if rel == "antonym":
            found = {c: 1 for c in self.antonyms.get(pred, ())}
        else:
            found = {c: d for s, d in self._related_synsets(sid, rel).items()
                     if not (s.startswith("n") and self.depth(s) < MIN_NOUN_DEPTH)
                     and s not in self.informal
                     for c in self.by_synset.get(s, ())}
        ranked: list[tuple[int, float, str]] = []
        seen: set[str | None] = {lemma(pred)}
        for cand, d in sorted(found.items(), key=lambda kv: (kv[1], sense_rank(kv[0]))):
            z = zipf(cand)
            if (lemma(cand) not in seen and pos(cand) == pos(pred) and z >= min_zipf
                    and not (rel == "hyponym" and self._adjectival_person(cand))
                    and fits_roles(pred, cand)):
                seen.add(lemma(cand))
                ranked.append((d, -z, cand))
        out = [c for _, _, c in sorted(ranked)]
        return out[:max_candidates] if max_candidates is not None else out


def _reach(start: str, graph: dict[str, list[str]], limit: int | None = None) -> dict[str, int]:
    """Every node *graph* leads to from *start* (within *limit* steps), with its distance."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if limit is not None and dist[s] >= limit:
            continue
        for t in graph.get(s, ()):
            if t not in dist:
                dist[t] = dist[s] + 1
                todo.append(t)
    return dist
