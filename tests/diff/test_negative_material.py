"""lit.diff: material that brings in a downward word (no, not, never) is named, but with no
relation: "The guy has no source of light." says nothing more specific than "The guy has a
light." (Kaushik et al.'s train row 1268 got N from the silent-premise rule before)."""

from __future__ import annotations

from delphin.codecs import simplemrs

from lit.diff import diff_mrs
from lit.logic.polarity import downward

DOG = ("[ TOP: h0 INDEX: e2 RELS: < [ _a_q LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ]"
       " [ _dog_n_1 LBL: h7 ARG0: x3 ]{with} [ _bark_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] >"
       " HCONS: < h0 qeq h1 h5 qeq h7{hcons} > ]")
WITH = (" [ _with_p LBL: h7 ARG0: e8 ARG1: x3 ARG2: x9 ]"
        " [ {q} LBL: h10 ARG0: x9 RSTR: h11 BODY: h12 ] [ _tail_n_1 LBL: h13 ARG0: x9 ]")


def _dog(q: str | None = None):
    text = DOG.format(**{"with": WITH.format(q=q) if q else "",
                         "hcons": " h11 qeq h13" if q else ""})
    return simplemrs.decode(text)


def test_downward_words():
    assert downward("_no_q") and downward("_every_q") and downward("neg")
    assert not downward("_a_q") and not downward("_the_q") and not downward("_tail_n_1")


def test_an_added_modifier_with_no_has_no_relation():
    tail = diff_mrs(_dog(), _dog("_a_q"))
    assert [(e.kind, e.relation) for e in tail.edits] == [("modifier_added", "hyponym")]
    no_tail = diff_mrs(_dog(), _dog("_no_q"))
    [edit] = no_tail.edits
    assert (edit.kind, edit.relation, edit.polarity) == ("modifier_added", None, None)
    assert "a negative word: no relation" in edit.detail
