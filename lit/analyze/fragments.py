"""Candidate shortcut features of one analysed sentence, mined from the grammar's own analysis
rather than listed by hand (issue 30, docs/mining.md): fragments of its ERG derivation, of its
MRS, and — the baseline they are compared with — its word unigrams and bigrams.

Every fragment is a string whose prefix names its kind, so a feature name alone says which
family it belongs to (`family`) and which construction it is grouped under (`group`):

- derivation: ``rule:R`` (a syntactic or lexical rule), ``lex:E`` (a lexical entry),
  ``letype:T`` (a lexical type, when the derivation carries it: UDX ``entry@type``),
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
- n-grams: ``uni:W``, ``bi:W1 W2``.

Pair features put a side in front (``shared:``, ``prem-only:``, ``hyp-only:``; lit.analyze.mine).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from delphin import derivation, predicate, variable
from delphin.exceptions import PyDelphinException
from delphin.mrs import EP, MRS

from lit.ace.results import ParseResult
from lit.analyze.align import DETERMINERS, main_ep
from lit.phenomena import modal_ep
from lit.status import Status

#: Variable properties read off the main predication's event, and off its x-arguments.
EVENT_PROPERTIES = ("TENSE", "PROG", "PERF", "MOOD")
ENTITY_PROPERTIES = ("NUM", "PERS")
DERIVATION_KINDS = ("rule", "lex", "letype", "edge", "tree")
MRS_KINDS = ("ep", "arg", "argtype", "prop", "q", "hcons", "icons", "main", "index")
NGRAM_KINDS = ("uni", "bi")
SIDES = ("shared", "prem-only", "hyp-only")
_WORD = re.compile(r"\w+(?:'\w+)?")
_QUANTIFIER_CLASS = {pred: cls for cls, preds in DETERMINERS.items() for pred in preds}


def _pred(ep: EP) -> str:
    return ep.predicate.strip('"')


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


def derivation_fragments(d: derivation.UDFNode) -> set[str]:
    """Rules, lexical entries and types, rule-daughter pairs and local trees of a derivation."""
    out: set[str] = set()
    stack = [d]
    while stack:
        node = stack.pop()
        if _is_lexical(node):
            out.add(f"lex:{node.entity}")
            if node.type:
                out.add(f"letype:{node.type}")
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
        pred = _pred(ep)
        out.add(f"ep:{pred}")
        if ep.is_quantifier():
            out.add(f"q:{_QUANTIFIER_CLASS.get(pred, pred)}")
            continue
        for role, v in _roles(ep):
            head = ix.head(v)
            out.add(f"arg:{pred}.{role}={_pred(head) if head else variable.type(v)}")
            out.add(f"argtype:{pos(pred)}.{role}={variable.type(v)}")
    for v, props in m.variables.items():
        if variable.type(v) == "x" and v in ix.by_iv and pos(_pred(ix.by_iv[v])) == "n":
            num = props.get("NUM")
            if num:
                out.add(f"prop:n.NUM={num}")
    sf = m.variables.get(m.index or "", {}).get("SF")
    if sf:
        out.add(f"prop:index.SF={sf}")
    if m.index and m.index not in ix.by_iv:
        out.add("index:none")
    main = main_ep(m)
    out |= _main_fragments(m, main)
    out |= _hcons_fragments(m, ix, main)
    out |= _icons_fragments(m, ix, main)
    return out


def _main_fragments(m: MRS, main: EP | None) -> set[str]:
    """The main predication (lit.analyze.align.main_ep): its predicate, its event's
    properties and its arguments' properties and quantifier classes."""
    if main is None:
        return set()
    out = {f"main:{_pred(main)}"}
    props = m.variables.get(main.iv, {})
    out.update(f"prop:main.{k}={props[k]}" for k in EVENT_PROPERTIES if props.get(k))
    quantifiers = {ep.iv: ep for ep in m.rels if ep.is_quantifier()}
    for role, v in _roles(main):
        if variable.type(v) != "x":
            continue
        xprops = m.variables.get(v, {})
        out.update(f"prop:main.{role}.{k}={xprops[k]}" for k in ENTITY_PROPERTIES
                   if xprops.get(k))
        q = quantifiers.get(v)
        if q is not None:
            out.add(f"q:main.{role}={_QUANTIFIER_CLASS.get(_pred(q), _pred(q))}")
    return out


def _hcons_fragments(m: MRS, ix: _Index, main: EP | None) -> set[str]:
    """``hcons:REL:P.ROLE>L``, and ``>main`` too when L is the main predication or its modal
    (``neg`` or a scopal adverb over the main clause, as lit.phenomena reads negation)."""
    targets = {e.label for e in (main, modal_ep(m)) if e is not None}
    slots = {v: (_pred(ep), role) for ep in m.rels if not ep.is_quantifier()
             for role, v in _roles(ep) if variable.type(v) == "h"}
    out = set()
    for hc in m.hcons:
        lo = ix.heads.get(hc.lo)
        if lo is None:
            continue
        hi = "top" if hc.hi == m.top else ".".join(slots[hc.hi]) if hc.hi in slots else None
        if hi is not None:
            out.add(f"hcons:{hc.relation}:{hi}>{_pred(lo)}")
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
        out.add(f"icons:{ic.relation}:{pos(_pred(ep))}.{role}")
        if ep is main:
            out.add(f"icons:{ic.relation}:main.{role}")
    return out


def ngrams(text: str) -> set[str]:
    """Lower-cased word unigrams and bigrams (punctuation left out)."""
    words = _WORD.findall(text.lower())
    return {f"uni:{w}" for w in words} | {f"bi:{a} {b}" for a, b in zip(words, words[1:])}


def sentence_fragments(m: MRS | None, d: derivation.UDFNode | None = None) -> set[str]:
    """Every derivation and MRS fragment of one analysis (either part may be missing)."""
    return (mrs_fragments(m) if m is not None else set()) | (
        derivation_fragments(d) if d is not None else set())


def _kind(feature: str) -> tuple[str, str]:
    """(kind, rest) of a fragment, its side prefix (``hyp-only:``) dropped."""
    head, _, rest = feature.partition(":")
    if head in SIDES:
        head, _, rest = rest.partition(":")
    return head, rest


def family(feature: str) -> str:
    """``derivation``, ``mrs``, ``ngram``, ``alignment`` (lit.analyze.mine) or ``handmade``
    (the hand-made features of docs/shortcuts.md, named as before)."""
    kind, _ = _kind(feature)
    if kind in DERIVATION_KINDS:
        return "derivation"
    if kind in MRS_KINDS:
        return "mrs"
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
    return fam
