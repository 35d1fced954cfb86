"""ERG 2025 round trips on gold analyses: take a gold MRS that shows a phenomenon, build its
plain version here (drop the focus and make the verb's event INDEX; drop the topic; remove neg
or the modal; make SF prop or TENSE pres), and check the module turns the plain version back
into an MRS equivalent to the gold one."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import pytest
from delphin import predicate
from delphin.codecs import simplemrs
from delphin.mrs import EP, MRS, ICons

from lit.equivalence import equivalent
from lit.mrs import MODAL_RE, index_ep
from lit.rules.engine import RuleEngine
from lit.status import Status
from tests.conftest import DATA, read_jsonl


def _pred(ep: EP) -> str:
    return predicate.normalize(ep.predicate)


#: Index predicates of coordinations, subordinations and "won't" (INDEX on neg's event): the
#: modules treat them as not applicable, so they have no plain version to test with.
NOT_A_SIMPLE_CLAUSE = re.compile(r"(^|_)(c|x|x_[a-z]+|implicit_conj|neg)$")


def _simple_clause(main: EP | None) -> bool:
    return main is not None and not NOT_A_SIMPLE_CLAUSE.search(_pred(main))


def _with(m: MRS, **changes) -> MRS:
    fields = dict(top=m.top, index=m.index, rels=m.rels, hcons=m.hcons, icons=m.icons,
                  variables={v: dict(p) for v, p in m.variables.items()})
    fields.update(changes)
    return MRS(**fields)


def _role_of(ep: EP, var: str) -> str | None:
    return next((r for r, v in ep.args.items() if v == var and r != "ARG0"), None)


def _unwrap(m: MRS, wrapper: EP) -> MRS | None:
    """Remove a scopal wrapper (neg, a modal) whose ARG1 is qeq a label L: the EPs labelled L
    take the wrapper's label, and the qeq goes."""
    qeq = next((hc for hc in m.hcons if hc.hi == wrapper.args.get("ARG1")), None)
    if qeq is None:
        return None
    rels = [EP(ep.predicate, wrapper.label if ep.label == qeq.lo else ep.label, ep.args,
               ep.lnk, ep.surface, ep.base) for ep in m.rels if ep is not wrapper]
    return _with(m, rels=rels, hcons=[hc for hc in m.hcons if hc is not qeq])


def plain_cleft(m: MRS) -> tuple[MRS, str] | None:
    """A 2025 cleft: ICONS focus on a verb's x-argument and an INDEX no EP carries (nor takes
    as an argument: a fronted adjunct on the cleft's INDEX, "In Norway it is birch that
    grows ...", has no plain version that says the adjunct is sentence-level)."""
    if any(m.index == ep.iv or m.index in ep.args.values() for ep in m.rels):
        return None
    for ic in m.icons:
        verb = next((ep for ep in m.rels if ep.iv == ic.left), None)
        if ic.relation == "focus" and verb is not None and _role_of(verb, ic.right):
            variables = {v: dict(p) for v, p in m.variables.items() if v != m.index}
            variables[verb.iv]["SF"] = m.variables.get(m.index, {}).get("SF", "prop")
            plain = _with(m, index=verb.iv, icons=[i for i in m.icons if i is not ic],
                          variables=variables)
            return plain, f"cleft={_role_of(verb, ic.right)}"
    return None


def plain_passive(m: MRS) -> tuple[MRS, str] | None:
    """A passive with a by-phrase: ICONS topic from the index EP's event to its ARG2 (or
    ARG3), and an x-type ARG1."""
    main = index_ep(m)
    if main is None or not main.args.get("ARG1", "").startswith("x"):
        return None
    for ic in m.icons:
        role = _role_of(main, ic.right)
        if ic.relation == "topic" and ic.left == main.iv and role in ("ARG2", "ARG3"):
            spec = "pass" if role == "ARG2" else "pass=ARG3"
            return _with(m, icons=[i for i in m.icons if i is not ic]), spec
    return None


def plain_negation(m: MRS) -> tuple[MRS, str] | None:
    """Sentential negation: a neg EP scoping over the index EP or its modal."""
    main = index_ep(m)
    if not _simple_clause(main):
        return None
    targets = {main.label} | {ep.label for ep in m.rels
                              if ep.iv == m.index and MODAL_RE.match(_pred(ep))}
    for ep in m.rels:
        qeq = next((hc for hc in m.hcons if hc.hi == ep.args.get("ARG1")), None)
        if _pred(ep) == "neg" and qeq is not None and qeq.lo in targets:
            plain = _unwrap(m, ep)
            return (plain, "neg") if plain is not None else None
    return None


#: The TENSE the modal module gives each modal (modal.lit's value table).
MODAL_TENSE = {"may": "pres", "might": "pres", "must": "pres", "can": "pres", "could": "tensed",
               "should": "pres", "would": "tensed"}


def plain_modal(m: MRS) -> tuple[MRS, str] | None:
    """A modal whose event is INDEX, over the main verb: remove it and give the verb the
    modal's tense, mood, aspect and force."""
    modal = next((ep for ep in m.rels if ep.iv == m.index and MODAL_RE.match(_pred(ep))), None)
    main = index_ep(m)
    if modal is None or not _simple_clause(main) or main is modal:
        return None
    plain = _unwrap(m, modal)
    if plain is None or not any(ep.label == modal.label and ep.iv == main.iv
                                for ep in plain.rels):
        return None  # something (e.g. neg) sits between the modal and the verb
    name = MODAL_RE.match(_pred(modal)).group(1)
    if m.variables.get(modal.iv, {}).get("TENSE") != MODAL_TENSE.get(name):
        return None  # a past modal ("could" as _can_v_modal past): no plain present source
    variables = {v: dict(p) for v, p in plain.variables.items() if v != modal.iv}
    variables[main.iv] = dict(m.variables.get(modal.iv, {}), TENSE="pres")
    icons = [ICons(main.iv if ic.left == modal.iv else ic.left, ic.relation, ic.right)
             for ic in plain.icons]
    plain = _with(plain, index=main.iv, icons=icons, variables=variables)
    return plain, f"modal={name}"


def _set_index_prop(m: MRS, prop: str, value: str) -> MRS:
    variables = {v: dict(p) for v, p in m.variables.items()}
    variables[m.index][prop] = value
    return _with(m, variables=variables)


def plain_question(m: MRS) -> tuple[MRS, str] | None:
    if m.variables.get(m.index, {}).get("SF") == "ques":
        return _set_index_prop(m, "SF", "prop"), "ques"
    return None


def plain_future(m: MRS) -> tuple[MRS, str] | None:
    main = index_ep(m)
    tense = m.variables.get(m.index or "", {}).get("TENSE")
    if _simple_clause(main) and main.iv == m.index and tense == "fut":
        return _set_index_prop(m, "TENSE", "pres"), "tense=fut"
    return None


#: phenomenon -> (cheap text filter, plain-version builder, asserted threshold)
PHENOMENA: dict[str, tuple[str, Callable, float]] = {
    "cleft": ("focus", plain_cleft, 0.95),
    "passive": ("topic", plain_passive, 0.98),
    "neg": ("neg", plain_negation, 0.80),
    "modal": ("_v_modal", plain_modal, 0.95),
    "ques": ("SF: ques", plain_question, 0.99),
    "fut": ("TENSE: fut", plain_future, 0.99),
}


@lru_cache(maxsize=1)
def _gold() -> list[tuple[str, str]]:
    return [(r["sentence"], r["mrs"]) for r in read_jsonl(DATA / "erg-gold-2025.jsonl.gz")]


def round_trips(name: str) -> tuple[int, list[str]]:
    """(cases found, misses with reasons) for one phenomenon."""
    needle, builder, _ = PHENOMENA[name]
    engine = RuleEngine.load("2025")
    found, misses = 0, []
    for sentence, text in _gold():
        if needle not in text:
            continue
        gold = simplemrs.decode(text)
        built = builder(gold)
        if built is None:
            continue
        plain, spec = built
        found += 1
        outcome = engine.apply(plain, spec)
        if outcome.status is not Status.OK:
            misses.append(f"{sentence} [{spec}]: {outcome.reason}")
        elif not equivalent(outcome.mrs, gold):
            misses.append(f"{sentence} [{spec}]: result not equivalent to the gold MRS")
    return found, misses


@pytest.mark.parametrize("name", list(PHENOMENA))
def test_round_trip_on_gold(name):
    found, misses = round_trips(name)
    threshold = PHENOMENA[name][2]
    assert found >= 15, f"only {found} gold analyses show {name}"
    rate = 1 - len(misses) / found
    assert rate >= threshold, f"{name}: {rate:.1%} of {found}\n" + "\n".join(misses)
