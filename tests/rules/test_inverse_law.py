"""Inverses as a law of the rule language (issue 27; docs/rules.md, "Inverses").

Forward: for every declared pair and every gold ERG 2025 MRS where the forward step applies,
the inverse gives back an MRS equivalent to the original (lit.equivalence). Backward: where
the inverse module applies (the sentence has the phenomenon), one of the forward steps
declared with it gives the original back. Both figures are printed (run with ``-s``): every
exception of a kind documented in EXCEPTIONS is counted under its reason, any other is listed
with its own and fails the test. The sweep covers all 10,472 gold MRSs, one test per declared
pair (lit.equivalence decides almost every comparison by lit.mrs.graph's canonical forms)."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from delphin.codecs import simplemrs

from lit.errors import InputError
from lit.mrs import index_ep
from lit.rules.engine import RuleEngine
from lit.rules.inverse import check_law, declared_inverses

#: Every declared pair (forward -> inverse) of the ERG 2025 modules.
PAIRS = {"neg=not -> aff", "pass=ARG2 -> act", "pass=ARG3 -> act", "ques -> decl",
         "cleft=ARG1 -> uncleft", "cleft=ARG2 -> uncleft", "cleft=ARG3 -> uncleft"}

def _negs(m):
    return [ep for ep in m.rels if ep.predicate == "neg"]


def _contracted(m) -> bool:
    """ERG 2025 n't: neg's event is INDEX (neg=not makes "not", with an event of its own)."""
    return any(ep.iv == m.index for ep in _negs(m))


def _tensed_neg_over_modal(m) -> bool:
    """Gold "Devito could not hire Abrams." gives neg over the modal TENSE past; neg=not gives
    it TENSE untensed, as gold "The dog couldn't bark." has it."""
    labels = {ep.label for ep in m.rels if ep.predicate.endswith("_v_modal")}
    lows = {hc.hi: hc.lo for hc in m.hcons}
    return any(lows.get(ep.args.get("ARG1")) in labels
               and m.variables.get(ep.iv, {}).get("TENSE") not in (None, "untensed")
               for ep in _negs(m))


def _neg_in_a_compound(m) -> bool:
    """Negation of a clause inside a sentence whose main predication neg=not refuses (a
    conjunction or subordinator: "Abrams hired a programmer. Browne didn't.")."""
    main = next((ep for ep in m.rels if ep.iv == m.index), None)
    return main is not None and main.predicate.endswith(("_c", "_x", "_x_then", "implicit_conj"))


def _neg_scope_differs(m) -> bool:
    """neg=not scopes over the clause's whole label, modal included; the treebank has neg
    under a modal ("You must not smoke.", "Devito could have not hired Browne."), beside a
    modifier at its own label ("Honesty is not always the best policy."), without a tense
    ("Abrams need not hire Browne."), or twice ("Abrams couldn't not hire Browne.")."""
    negs = _negs(m)
    lows = {hc.hi: hc.lo for hc in m.hcons}
    under_modal = {lows.get(ep.args.get("ARG1")) for ep in m.rels
                   if ep.predicate.endswith("_v_modal")}
    return (len(negs) > 1
            or any(ep.label in under_modal for ep in negs)
            or any(e.label == ep.label and e is not ep and not e.is_quantifier()
                   for ep in negs for e in m.rels)
            or any("TENSE" not in {k.upper() for k in m.variables.get(ep.iv, {})}
                   and ep.iv.startswith("e") for ep in negs))


def _focus(m):
    return [(ic.left, ic.right) for ic in m.icons if ic.relation == "focus"]


def _cleft_cleft_does_not_make(m) -> bool:
    """The treebank clefts what cleft does not: a PP or adverbial, a purpose clause, a
    possessor or an argument of an embedded verb (the focus is no ARG1-3 of the focused EP); a
    cleft with a fronted modifier on its bare INDEX; or a cleft leaving the verb's aspect
    unspecified that cleft specifies (only a clefted object of a bare past verb is left so)."""
    for left, right in _focus(m):
        ep = next((e for e in m.rels if e.iv == left), None)
        if ep is None or right not in [ep.args.get(r) for r in ("ARG1", "ARG2", "ARG3")]:
            return True
        if "PROG" not in {k.upper() for k in m.variables.get(left, {})}:
            return True
    return any(ep.args.get("ARG1") == m.index for ep in m.rels)


def _imperative(m) -> bool:
    """neg=not sets an imperative's TENSE to pres and aff back to tensed (gold "Hire a
    programmer!"); the treebank's imperatives also have it unset or pres."""
    return m.variables.get(m.index, {}).get("SF") == "comm"


def _which_q(m) -> bool:
    """A statement with a wh-word (a free relative "What she did was ...", an embedded
    infinitival question "John asked Bill what to do") made a question: decl reads any which_q
    outside an embedded question's clause as a wh-question and refuses it."""
    return any(ep.predicate == "which_q" for ep in m.rels)


def _unexpressed_agent(m) -> bool:
    """pass on a verb whose ARG1 is unexpressed ("Name an American war plane?") makes an
    agentless passive, which act refuses: it has no active form."""
    main = index_ep(m)
    return main is not None and main.args.get("ARG1", "x").startswith(("i", "u"))


def _tag_question(m) -> bool:
    """neg=not on a tag question's statement ("Sara slept, did she?"): aff refuses tag
    questions (their n't belongs to the tag)."""
    return any(ep.predicate in ("ne_x", "pos_x") for ep in m.rels)


def _unspecified_past_aspect(m) -> bool:
    """A past clause whose aspect the treebank leaves unspecified (no PROG): uncleft reads a
    cleft of it as cleft's bare-past object cleft and gives it PROG - PERF -."""
    main = index_ep(m)
    props = {k.upper() for k in m.variables.get(main.iv if main else m.index, {})}
    return "PROG" not in props


def _untensed_index(m) -> bool:
    """The treebank's INDEX is untensed (a participial main clause: "GCC and EGCS continued
    as parallel products—both drawing from ..."): cleft and uncleft give the clefted clause
    the tense of another event."""
    return m.variables.get(m.index, {}).get("TENSE") == "untensed"


#: (direction, first step) -> [(test on the original MRS, why)]: documented kinds of
#: exception. Every exception must be one of them, or the test fails.
EXCEPTIONS = {
    ("forward", "neg=not"): [(_imperative, _imperative.__doc__.split(";")[0]),
                             (_tag_question, "a tag question, which aff refuses")],
    **{("forward", f"cleft=ARG{n}"): [
        (_unspecified_past_aspect, "a past clause with unspecified aspect comes back with "
                                   "PROG - PERF -"),
        (_untensed_index, "the treebank's INDEX is untensed")]
       for n in (1, 2, 3)},
    ("forward", "ques"): [(_which_q, "a statement with a wh-word made a question, which decl "
                                     "refuses as a wh-question")],
    ("forward", "pass=ARG2"): [(_unexpressed_agent, "an agentless passive, which act refuses")],
    ("forward", "pass=ARG3"): [(_unexpressed_agent, "an agentless passive, which act refuses")],
    ("backward", "aff"): [
        (_contracted, "the treebank's n't comes back as neg=not's 'not': the same negation, "
                      "the other form (neg's own event, not INDEX)"),
        (_tensed_neg_over_modal, "the treebank's 'could not' has a past neg event; neg=not "
                                 "leaves it untensed (as 'couldn't')"),
        (_neg_in_a_compound, "aff removed the negation of a clause in a compound sentence, "
                             "which neg=not does not negate"),
        (_neg_scope_differs, "the treebank scopes neg differently from neg=not (under a "
                             "modal, beside a modifier, untensed, or twice)"),
    ],
    ("backward", "uncleft"): [
        (_cleft_cleft_does_not_make, "a cleft the treebank has that cleft does not make"),
    ],
}


@pytest.fixture(scope="module")
def engine() -> RuleEngine:
    return RuleEngine.load("2025")


@pytest.fixture(scope="module")
def gold(gold_2025) -> list[tuple[str, object]]:
    return [(r["sentence"], simplemrs.decode(r["mrs"])) for r in gold_2025]


def test_declared_pairs(engine):
    assert {str(p) for p in declared_inverses(engine)} == PAIRS


def test_an_unknown_inverse_names_the_declaring_file(tmp_path):
    (tmp_path / "undo.lit").write_text('module undo\ninverse "nosuch=x"\nrule r\n'
                                       '  context INDEX [ SF: ques ]\n  output\n'
                                       '    set INDEX [ SF: prop ]\n')
    engine = RuleEngine.load("2025", paths=[tmp_path])
    with pytest.raises(InputError, match=r"undo\.lit:2:9: inverse 'nosuch=x'"):
        declared_inverses(engine)


def _sweep(engine, gold, direction: str, laws) -> list[str]:
    """Run each (first step, steps back) over the gold MRSs; print the figures and every
    exception; return the exceptions no EXCEPTIONS entry explains."""
    figures, exceptions = Counter(), defaultdict(list)
    for first, back in laws:
        for sentence, m in gold:
            result = check_law(engine, first, back, m)
            if result.applied:
                figures[str(first), result.held] += 1
                if not result.held:
                    exceptions[str(first)].append((m, f"{sentence!r}: {result.reason}"))
    print(f"\n{direction} (ERG 2025 gold, {len(gold)} MRSs):")
    unexplained = []
    for first, back in laws:
        held, failed = figures[str(first), True], figures[str(first), False]
        print(f"  {first} then {' or '.join(map(str, back))}: {held} of {held + failed} "
              "give back the original")
        assert held + failed > 0, f"{first} never applies"
        kinds = Counter()
        for m, line in exceptions[str(first)]:
            why = next((w for test, w in EXCEPTIONS.get((direction, str(first)), ())
                        if test(m)), None)
            kinds[why] += 1
            if why is None:
                print(f"    exception: {line}")
                unexplained.append(f"{first}: {line}")
        for why, n in kinds.items():
            if why is not None:
                print(f"    {n} exception(s): {why}")
    return unexplained


@pytest.mark.slow
@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_forward_step_then_its_inverse(engine, gold, pair):
    laws = [(p.forward, (p.inverse,)) for p in declared_inverses(engine) if str(p) == pair]
    unexplained = _sweep(engine, gold, "forward", laws)
    assert not unexplained, "\n".join(unexplained[:20])


@pytest.mark.slow
def test_inverse_then_a_forward_step(engine, gold):
    forwards = defaultdict(list)
    for p in declared_inverses(engine):
        forwards[p.inverse].append(p.forward)
    laws = [(inverse, tuple(back)) for inverse, back in forwards.items()]
    unexplained = _sweep(engine, gold, "backward", laws)
    assert not unexplained, "\n".join(unexplained[:20])
