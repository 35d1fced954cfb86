"""How many realizations the realizer asks ACE for a route's twin: the routes' ``candidates``
times --max-candidates, else ROUTE_CANDIDATE_FACTOR times (its -n, so ACE unpacks no more)."""

from __future__ import annotations

import pytest
from delphin.codecs import simplemrs

from lit.ace.service import GenerateResult, ParseResult, Reading
from lit.config import RunConfig
from lit.pipeline.realize import ROUTE_CANDIDATE_FACTOR, Job, Realizer
from lit.rank import AceOrderScorer
from lit.rules.engine import Routed
from lit.rules.syntax import Route
from tests.standin_ace import StandInAce

TARGET = ("[ TOP: h0 INDEX: e2 [ e SF: prop TENSE: pres MOOD: indicative PROG: - PERF: - ]"
          " RELS: < [ proper_q LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg IND: + ] RSTR: h5 BODY: h6 ]"
          " [ named LBL: h7 ARG0: x3 CARG: \"Kim\" ] [ _arrive_v_1 LBL: h1 ARG0: e2 ARG1: x3 ] >"
          " HCONS: < h0 qeq h1 h5 qeq h7 > ]")
TWIN = TARGET.replace("_arrive_v_1", "_come_v_1")


class Grammar(StandInAce):
    """Realizes every MRS as "Kim arrived." (which re-parses to the target) and keeps the
    limit each generation asked for."""

    def __init__(self):
        self.limits: list[int | None] = []

    def generate(self, mrss, limit=None):
        for m in mrss:
            self.limits.append(limit)
            yield GenerateResult(simplemrs.encode(m), "ok", None, ("Kim arrived.",), 0, 0)

    def parse(self, sentences, n=1):
        for s in sentences:
            yield ParseResult(s, "ok", None, (Reading(TARGET),), 0, 0)


def route(candidates: int | None) -> Route:
    return Route("twin", (), (), "<test>", 1, candidates=candidates)


@pytest.mark.parametrize("routes, asked", [
    ((), 3),  # no route: the plain MRS, --max-candidates
    ((route(None),), 3 * ROUTE_CANDIDATE_FACTOR),
    ((route(2),), 6),
    ((route(None), route(2)), 6),
])
def test_a_twin_is_asked_for_its_routes_candidates(routes, asked):
    grammar = Grammar()
    job = Job(simplemrs.decode(TARGET), "Kim arrived.",
              routed=Routed(simplemrs.decode(TWIN), routes) if routes else None)
    (r,) = Realizer(grammar, AceOrderScorer(), options=RunConfig(max_candidates=3)).realize([job])
    assert r.verified and grammar.limits == [asked]
