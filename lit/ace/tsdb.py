"""A fast reader for ACE's ``--tsdb-stdout`` answers, giving what PyDelphin's reader gives.

PyDelphin reads string literals one character at a time in Python; ACE's answers carry long
strings (token lattices, derivations with token feature structures), so that reader costs
about a millisecond per item — more than LIT's whole budget per item. This one skips strings
with a regular expression and unescapes them with ``str`` methods. The result is the same
``Response`` PyDelphin builds (tests compare the two on every recorded transcript).
"""

from __future__ import annotations

import re
from typing import Any

from delphin.interface import Response

#: The ``error`` of a response whose answer was cut off (as PyDelphin words it).
INCOMPLETE = "incomplete output from ACE"
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|([()])|([^\s()"]+)', re.S)
_NUMBER = re.compile(r"-?\d+(\.\d*)?([eE][+-]?\d+)?")
_SYMBOL_ESCAPE = re.compile(r"\\([\"\s()\[\]{}\\;])")


def _unescape(s: str) -> str:
    """PyDelphin's string unescaping (only ``\\"`` and ``\\\\``), done left to right."""
    if "\\" not in s:
        return s
    return "\\".join(part.replace('\\"', '"') for part in s.split("\\\\"))


def _atom(symbol: str) -> Any:
    m = _NUMBER.fullmatch(symbol)
    if m:
        return float(symbol) if (m.group(1) is not None or m.group(2)) else int(symbol)
    return _SYMBOL_ESCAPE.sub(r"\1", symbol) if "\\" in symbol else symbol


def read_sexprs(text: str) -> tuple[list[Any], bool]:
    """The top-level s-expressions in *text* and whether the text was complete."""
    stack: list[list[Any]] = []
    values: list[Any] = []
    for m in _TOKEN.finditer(text):
        string, paren, symbol = m.groups()
        if string is not None:
            values.append(_unescape(string))
        elif paren == "(":
            stack.append(values)
            values = []
        elif paren == ")":
            if not stack:
                return values, False
            data = (values[0], values[2]) if len(values) == 3 and values[1] == "." else values
            values = stack.pop()
            values.append(data)
        else:
            values.append(_atom(symbol))
    if stack:  # cut off mid-answer: keep what was complete
        return stack[0], False
    return values, True


def read_response(response: Response, line: str) -> Response:
    """Fill *response* from one tsdb answer line, as ``delphin.ace._tsdb_response`` does."""
    data, complete = read_sexprs(line)
    for pair in data:
        if not isinstance(pair, tuple) or not isinstance(pair[0], str):
            continue
        key, val = pair
        if key == ":p-input":
            response.setdefault("tokens", {})["initial"] = val.strip()
        elif key == ":p-tokens":
            response.setdefault("tokens", {})["internal"] = val.strip()
        elif key == ":results":
            for result in val:
                res: dict[str, Any] = {}
                for reskey, resval in result:
                    if isinstance(resval, str):
                        res[reskey[1:]] = resval.strip()
                    else:
                        res[reskey[1:]] = resval
                response["results"].append(res)
        elif key == ":chart":
            response["chart"] = [{k[1:]: v for k, v in edge} for edge in val]
        elif isinstance(val, str):
            response[key[1:]] = val.strip()
        else:
            response[key[1:]] = val
    if not complete:
        response["error"] = INCOMPLETE
    return response
