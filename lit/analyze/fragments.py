"""Candidate shortcut features of one analysed sentence, mined from the grammar's own analysis
rather than listed by hand (issue 30, docs/mining.md): fragments of its ERG derivation, of its
MRS, and — the baseline they are compared with — its word unigrams and bigrams.

Every fragment is a string whose prefix names its kind, so a feature name alone says which
family it belongs to (`family`) and which construction it is grouped under (`group`):

- derivation: ``rule:R`` (a syntactic or lexical rule), ``lex:E`` (a lexical entry),
  ``letype:T`` (its lexical type, from ACE's UDX derivations: ``sleep_v1@v_-_le``; the type's
  name class: ``letype:v_-_*``, a verb without complements; and each supertype of the type
  in the ERG's hierarchy: ``letype:v_-_lexent``), ``synsem:T`` (the type's valence types:
  ``synsem:onearg_verb``, intransitive; lit.analyze.letypes),
  ``edge:R>D`` (a rule and one daughter), ``tree:R(D1 D2)`` (a rule with all its daughters,
  two or more: subtrees of height 2, the largest size mined);
- MRS: ``ep:P``, ``arg:P.ROLE=A`` (the argument's predicate, or its variable type when no EP
  introduces it), ``argtype:POS.ROLE=T``, ``prop:main.F=V`` / ``prop:main.ROLE.F=V`` /
  ``prop:index.SF=V`` / ``prop:n.NUM=V`` (variable properties), ``q:CLASS`` and
  ``q:main.ROLE=CLASS`` (quantifier classes), ``hcons:REL:P.ROLE>L`` (a handle constraint
  from an argument slot to the head of the label it constrains; ``>main`` when that is the
  main predication: sentential negation is ``hcons:qeq:neg.ARG1>main``), ``icons:REL``,
  ``icons:REL:POS.ROLE`` and ``icons:REL:main.ROLE`` (information structure: passive topic,
  cleft focus), ``main:P`` and ``index:none`` (an INDEX no EP carries: an ERG 2025 cleft);
- the main predication's frame: ``frame:main=ARG1,ARG2`` (the roles it has an argument for:
  an EP introduces it, or it is a handle), ``frame:main=ARG1:x,ARG2:i`` (every role with its
  variable's type: an unexpressed object is ``i``), both also with the predication's part of
  speech (``frame:main.v=ARG1``), and ``frame:main.letype=T`` and ``frame:main.synsem=T`` (the
  lexical and valence types of the word that introduces it; need the derivation);
- n-grams: ``uni:W``, ``bi:W1 W2``.

Pair features put a side in front (``shared:``, ``prem-only:``, ``hyp-only:``; a frame also
``prem:`` and ``hyp:``, that side whatever the other has; lit.analyze.mine).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from delphin import derivation, predicate, variable
from delphin.exceptions import PyDelphinException
from delphin.mrs import EP, MRS

from lit.ace.results import ParseResult
from lit.analyze.aligned import DETERMINERS
from lit.analyze.letypes import TypeTable, name_class
from lit.mrs import Reach, index_ep, predicate_name, properties
from lit.phenomena import modal_ep
from lit.status import Status

#: Variable properties read off the main predication's event, and off its x-arguments.
EVENT_PROPERTIES = ("TENSE", "PROG", "PERF", "MOOD")
ENTITY_PROPERTIES = ("NUM", "PERS")
DERIVATION_KINDS = ("rule", "lex", "letype", "synsem", "edge", "tree")
MRS_KINDS = ("ep", "arg", "argtype", "prop", "q", "hcons", "icons", "main", "index")
FRAME_KINDS = ("frame",)
NGRAM_KINDS = ("uni", "bi")
SIDES = ("shared", "prem-only", "hyp-only", "prem", "hyp")
#: Kinds that name a word (or a predicate, a word's meaning), less general than a lexical type,
#: which is less general than a construction (`generality`).
LEXICAL_KINDS = ("lex", "ep", "main", "arg", "link")
#: A token's character span in ACE's token feature structure (``+FROM \"4\" +TO \"7\"``).
_TOKEN_SPAN = re.compile(r'\+FROM \\?"(\d+)\\?" \+TO \\?"(\d+)\\?"')
_WORD = re.compile(r"\w+(?:'\w+)?")
_QUANTIFIER_CLASS = {pred: cls for cls, preds in DETERMINERS.items() for pred in preds}


def pos(pred: str) -> str:
    """A predicate's part of speech (``_dog_n_1`` > ``n``); an abstract predicate (``neg``,
    ``compound``) is its own class."""
    if not predicate.is_surface(pred):
        return pred
    return predicate.split(pred)[1] or "u"


def top_derivation(result: ParseResult | None) -> derivation.Derivation | None:
    """The best reading's derivation, or None (no parse, none recorded, or unreadable)."""
    if result is None or result.status != Status.OK or not result.readings:
        return None
    text = result.readings[0].derivation
    if not text:
        return None
    try:
        return derivation.from_string(text)
    except (PyDelphinException, ValueError):
        return None


def derivation_fragments(d: derivation.UDFNode, types: TypeTable | None = None) -> set[str]:
    """Rules, lexical entries, their lexical and valence *types*, rule-daughter pairs and
    local trees of a derivation."""
    out: set[str] = set()
    stack = [d]
    while stack:
        node = stack.pop()
        if _is_lexical(node):
            out.add(f"lex:{node.entity}")
            out.update(f"letype:{t}" for t in lexical_types(node, types))
            out.update(f"synsem:{t}" for t in valence_types(node, types))
            continue
        kids = [k for k in node.daughters if isinstance(k, derivation.UDFNode)]
        out.add(f"rule:{node.entity}")
        labels = [_label(k) for k in kids]
        out.update(f"edge:{node.entity}>{x}" for x in labels)
        if len(labels) > 1:  # a unary tree is its edge
            out.add(f"tree:{node.entity}({' '.join(labels)})")
        stack.extend(kids)
    return out


def _is_lexical(node: derivation.UDFNode) -> bool:
    return any(isinstance(k, derivation.UDFTerminal) for k in node.daughters)


def lexical_types(node: derivation.UDFNode, types: TypeTable | None = None) -> tuple[str, ...]:
    """A lexical node's type (UDX), that type's name class (lit.analyze.letypes) and its
    supertypes; none when ACE gave no type."""
    if not node.type:
        return ()
    named = name_class(node.type)
    supers = types.supertypes.get(node.type, ()) if types else ()
    return (node.type, *((named,) if named else ()), *supers)


def valence_types(node: derivation.UDFNode, types: TypeTable | None = None) -> tuple[str, ...]:
    """A lexical node's valence types (its lexical type's SYNSEM types and their ancestors)."""
    return types.synsem.get(node.type, ()) if types and node.type else ()


def lexical_node(d: derivation.UDFNode, start: int, end: int) -> derivation.UDFNode | None:
    """The lexical node of *d* whose tokens cover characters *start*..*end* (an EP's span)
    best: the one starting there, else the one overlapping it most; None when no token
    carries a span (a derivation without token feature structures)."""
    best, key = None, (False, 0)
    for node in _lexical_nodes(d):
        spans = [(int(a), int(b)) for t in node.daughters
                 if isinstance(t, derivation.UDFTerminal) for tok in t.tokens
                 for a, b in _TOKEN_SPAN.findall(tok.tfs)]
        if not spans:
            continue
        lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
        overlap = min(hi, end) - max(lo, start)
        if overlap > 0 and (lo == start, overlap) > key:
            best, key = node, (lo == start, overlap)
    return best


def _lexical_nodes(d: derivation.UDFNode) -> Iterator[derivation.UDFNode]:
    stack = [d]
    while stack:
        node = stack.pop()
        if _is_lexical(node):
            yield node
        else:
            stack.extend(k for k in node.daughters if isinstance(k, derivation.UDFNode))


def _label(node: derivation.UDFNode) -> str:
    """A daughter's name in an edge or a tree: a lexical node by its type when known."""
    return (node.type or node.entity) if _is_lexical(node) else node.entity


class _Index:
    """What fragment extraction looks up in one MRS: who introduces each variable, the head
    of each label and the qeq targets."""

    def __init__(self, m: MRS) -> None:
        self.m = m
        self.by_iv: dict[str, EP] = {}
        by_label: dict[str, list[EP]] = {}
        for ep in m.rels:
            if not ep.is_quantifier():
                self.by_iv.setdefault(ep.iv, ep)
                by_label.setdefault(ep.label, []).append(ep)
        self.heads = {label: _label_head(eps) for label, eps in by_label.items()}
        self.qeq = {hc.hi: hc.lo for hc in m.hcons}

    def head(self, v: str) -> EP | None:
        """The EP a variable stands for: its introducer, or the head of the label a handle is
        (or is qeq to)."""
        if variable.type(v) == "h":
            return self.heads.get(self.qeq.get(v, v))
        return self.by_iv.get(v)


def _label_head(eps: list[EP]) -> EP:
    """Of the EPs sharing a label, the one no other takes as an argument (the noun under
    its adjectives, the verb under its adverbs)."""
    used = {v for e in eps for r, v in e.args.items() if r != "ARG0"}
    return next((e for e in eps if e.iv not in used), eps[0])


def _roles(ep: EP) -> Iterator[tuple[str, str]]:
    return ((r, v) for r, v in ep.args.items() if r not in ("ARG0", "CARG") and v)


def mrs_fragments(m: MRS) -> set[str]:
    """Predicates, predicate-role-argument triples, argument types, variable properties,
    quantifier classes, HCONS and ICONS relations of one MRS."""
    ix = _Index(m)
    out: set[str] = set()
    for ep in m.rels:
        pred = predicate_name(ep)
        out.add(f"ep:{pred}")
        if ep.is_quantifier():
            out.add(f"q:{_QUANTIFIER_CLASS.get(pred, pred)}")
            continue
        for role, v in _roles(ep):
            head = ix.head(v)
            out.add(f"arg:{pred}.{role}={predicate_name(head) if head else variable.type(v)}")
            out.add(f"argtype:{pos(pred)}.{role}={variable.type(v)}")
    for v in m.variables:
        if variable.type(v) == "x" and v in ix.by_iv and pos(predicate_name(ix.by_iv[v])) == "n":
            num = properties(m, v).get("NUM")
            if num:
                out.add(f"prop:n.NUM={num}")
    sf = properties(m, m.index).get("SF")
    if sf:
        out.add(f"prop:index.SF={sf}")
    if m.index and m.index not in ix.by_iv:
        out.add("index:none")
    main = index_ep(m, Reach.CLAUSE)
    out |= _main_fragments(m, main)
    out |= _frame_fragments(ix, main)
    out |= _hcons_fragments(m, ix, main)
    out |= _icons_fragments(m, ix, main)
    return out


def _main_fragments(m: MRS, main: EP | None) -> set[str]:
    """The main predication (lit.mrs.index_ep, `Reach.CLAUSE`): its predicate, its event's
    properties and its arguments' properties and quantifier classes."""
    if main is None:
        return set()
    out = {f"main:{predicate_name(main)}"}
    props = properties(m, main.iv)
    out.update(f"prop:main.{k}={props[k]}" for k in EVENT_PROPERTIES if props.get(k))
    quantifiers = {ep.iv: ep for ep in m.rels if ep.is_quantifier()}
    for role, v in _roles(main):
        if variable.type(v) != "x":
            continue
        xprops = properties(m, v)
        out.update(f"prop:main.{role}.{k}={xprops[k]}" for k in ENTITY_PROPERTIES
                   if xprops.get(k))
        q = quantifiers.get(v)
        if q is not None:
            out.add(f"q:main.{role}={_QUANTIFIER_CLASS.get(predicate_name(q), predicate_name(q))}")
    return out


def _frame_fragments(ix: _Index, main: EP | None) -> set[str]:
    """The main predication's frame: the roles it has an argument for, and every role with
    its variable's type (``-`` for none: *it rained*); each also with its part of speech
    (``frame:main.v=ARG1``: a verb's, not an adjective's)."""
    if main is None:
        return set()
    roles = sorted(_roles(main))
    filled = ",".join(r for r, v in roles if variable.type(v) == "h" or v in ix.by_iv) or "-"
    typed = ",".join(f"{r}:{variable.type(v)}" for r, v in roles) or "-"
    where = ("main", f"main.{pos(predicate_name(main))}")
    return {f"frame:{w}={frame}" for w in where for frame in (filled, typed)}


def main_type_fragments(m: MRS, d: derivation.UDFNode, types: TypeTable | None = None
                        ) -> set[str]:
    """``frame:main.letype=T`` and ``frame:main.synsem=T``: the lexical and valence types of
    the word whose span the main predication has; none when the main predication is not a
    word's (``unknown``, ``compound``: their span is a phrase's)."""
    main = index_ep(m, Reach.CLAUSE)
    surface = main is not None and predicate.is_surface(predicate_name(main))
    node = lexical_node(d, main.cfrom, main.cto) if surface else None
    if node is None:
        return set()
    return ({f"frame:main.letype={t}" for t in lexical_types(node, types)}
            | {f"frame:main.synsem={t}" for t in valence_types(node, types)})


def _hcons_fragments(m: MRS, ix: _Index, main: EP | None) -> set[str]:
    """``hcons:REL:P.ROLE>L``, and ``>main`` too when L is the main predication or its modal
    (``neg`` or a scopal adverb over the main clause, as lit.phenomena reads negation)."""
    targets = {e.label for e in (main, modal_ep(m)) if e is not None}
    slots = {v: (predicate_name(ep), role) for ep in m.rels if not ep.is_quantifier()
             for role, v in _roles(ep) if variable.type(v) == "h"}
    out = set()
    for hc in m.hcons:
        lo = ix.heads.get(hc.lo)
        if lo is None:
            continue
        hi = "top" if hc.hi == m.top else ".".join(slots[hc.hi]) if hc.hi in slots else None
        if hi is not None:
            out.add(f"hcons:{hc.relation}:{hi}>{predicate_name(lo)}")
            if hc.lo in targets and hi != "top":
                out.add(f"hcons:{hc.relation}:{hi}>main")
    return out


def _icons_fragments(m: MRS, ix: _Index, main: EP | None) -> set[str]:
    out = set()
    for ic in m.icons:
        out.add(f"icons:{ic.relation}")
        ep = ix.by_iv.get(ic.left)
        role = next((r for r, v in _roles(ep) if v == ic.right), None) if ep else None
        if role is None:
            continue
        out.add(f"icons:{ic.relation}:{pos(predicate_name(ep))}.{role}")
        if ep is main:
            out.add(f"icons:{ic.relation}:main.{role}")
    return out


def ngrams(text: str) -> set[str]:
    """Lower-cased word unigrams and bigrams (punctuation left out)."""
    words = _WORD.findall(text.lower())
    return {f"uni:{w}" for w in words} | {f"bi:{a} {b}" for a, b in zip(words, words[1:])}


def sentence_fragments(m: MRS | None, d: derivation.UDFNode | None = None,
                       types: TypeTable | None = None) -> set[str]:
    """Every derivation, MRS and frame fragment of one analysis (either part may be missing);
    *types*: the grammar's lexical types (lit.analyze.letypes)."""
    out = mrs_fragments(m) if m is not None else set()
    if d is not None:
        out |= derivation_fragments(d, types)
        if m is not None:
            out |= main_type_fragments(m, d, types)
    return out


def _kind(feature: str) -> tuple[str, str]:
    """(kind, rest) of a fragment, its side prefix (``hyp-only:``) dropped."""
    head, _, rest = feature.partition(":")
    if head in SIDES:
        head, _, rest = rest.partition(":")
    return head, rest


def family(feature: str) -> str:
    """``derivation``, ``mrs``, ``frame``, ``ngram``, ``alignment`` (lit.analyze.mine) or ``handmade``
    (the hand-made features of docs/shortcuts.md, named as before)."""
    kind, _ = _kind(feature)
    if kind in DERIVATION_KINDS:
        return "derivation"
    if kind in MRS_KINDS:
        return "mrs"
    if kind in FRAME_KINDS:
        return "frame"
    if kind in NGRAM_KINDS:
        return "ngram"
    if kind in ("link", "and"):
        return "alignment"
    return "handmade"


def group(feature: str) -> str:
    """The construction a feature is shown under: a derivation fragment's rule (the
    lexicon for lexical fragments), an MRS fragment's predicate (or its kind when it has
    none); the alignment's role; one group each for the hand-made features and n-grams."""
    kind, rest = _kind(feature)
    fam = family(feature)
    if fam == "derivation":
        if kind == "synsem":
            return "valence"
        return "lexicon" if kind in ("lex", "letype") else re.split(r"[>(]", rest, maxsplit=1)[0]
    if fam == "mrs":
        if kind in ("ep", "main"):
            return rest
        if kind in ("arg",):
            return rest.split(".", 1)[0]
        if kind == "hcons":  # the slot's predicate; under `top`, the predicate constrained
            hi, _, lo = rest.split(":", 1)[1].partition(">")
            return lo if hi == "top" else hi.split(".", 1)[0]
        return {"argtype": "argument types", "prop": "properties", "q": "quantifiers",
                "icons": "icons", "index": "index"}[kind]
    if fam == "alignment":
        return f"link {rest.split('=', 1)[0]}" if kind == "link" else "conjunctions"
    if fam == "frame":
        return "main type" if rest.startswith(("main.letype=", "main.synsem=")) else "main frame"
    return fam


def from_derivation(feature: str) -> bool:
    """Whether a feature is read off a derivation (a derivation fragment, or the main
    predication's lexical type), which a transformed pair does not have."""
    return family(feature) == "derivation" or _kind(feature)[1].startswith(
        ("main.letype=", "main.synsem="))


def generality(feature: str) -> int:
    """How general a feature is: 0 a word or its predicate, 1 a lexical type, 2 a supertype,
    a valence type, a frame or any other construction. Of features that select the same items the miner shows
    the most general (lit.analyze.mine)."""
    kind, rest = _kind(feature)
    if kind in LEXICAL_KINDS:
        return 0
    if kind == "letype" or rest.startswith("main.letype="):
        return 1 if rest.endswith("_le") else 2
    return 2
