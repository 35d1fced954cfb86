"""Failure reasons in plain words: the raw reasons (and the ACE messages inside them) stay in
the records; the report shows a reader what they mean, with the raw text beside it."""

from __future__ import annotations

import re

#: (pattern in a raw reason, what it means), first match wins; {0}.. are the pattern's groups.
_WORDING: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.I), w) for p, w in (
        (r"EP '?\"?([\w\-+.]+)'?\"? is not covered|input EP not in index",
         "the generator does not know a predicate of the new meaning (e.g. a word missing "
         "from the grammar's lexicon), so no sentence could be produced"),
        (r"ACE (?:generated nothing|produced no realization)",
         "the grammar produced no sentence for the transformed meaning"),
        (r"ACE found no (?:parse|analysis)|no_parse",
         "the grammar found no analysis of the sentence"),
        (r"no candidate re-parses|not_verified|did not verify",
         "no generated sentence, parsed again, carries the intended change"),
        (r"every verified candidate has a defect|not_fluent",
         "every generated sentence that carries the change has something a person would not "
         "write (a word the change does not explain, a non-word, an added comma, no "
         "question inversion); `lit nli --allow-defects` would output the best of them"),
        (r"untrusted_reading|no reading .* is trusted",
         "every analysis the grammar gave of the sentence looked like a misreading (a "
         "fragment read as a clause, a word read as a name, ...), so nothing was transformed"),
        (r"timed? ?out|timeout", "ACE ran out of time on this item"),
        (r"no label rule covers", "no label rule says what the new pair's label is"),
        (r"precondition .* does not hold", "a label rule's precondition does not hold"),
        (r"already (?:passive|modal|negated|a question)",
         "the sentence already has this property"),
        (r"not (?:JSON|UTF-8)|no sentence in field", "the input record cannot be read"),
    )
)


def human_reason(reason: str | None) -> str | None:
    """What a failure reason means in plain words, or None if it has no known wording."""
    for pattern, wording in _WORDING:
        if reason and pattern.search(reason):
            return wording
    return None
