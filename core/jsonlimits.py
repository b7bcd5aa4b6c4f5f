"""Strict JSON reading for untrusted input: a nesting limit checked before parsing, and only the
numbers JSON allows (no NaN, Infinity, or values that overflow a double or a 64-bit integer)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_JSON_DEPTH = 100  # objects and lists inside each other; real bundles and records use under 10
MAX_INT_DIGITS = 19  # a 64-bit integer; longer ones cannot round-trip through most JSON readers
# A JSON string (skipped whole, so brackets inside it do not count) or a bracket.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class JsonLimitError(ValueError):
    """JSON refused for a named reason: too deep, or a number JSON does not allow."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"line {line}: {reason}")
        self.reason = reason
        self.line = line


def check_depth(text: str, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Raise JsonLimitError when brackets nest deeper than `max_depth` (scanned, not parsed: a
    100,000-level file costs no recursion and no memory beyond the text)."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > max_depth:
                line = text.count("\n", 0, match.start()) + 1
                raise JsonLimitError(f"JSON nested more than {max_depth} levels deep", line)
        elif token in "]}":
            depth -= 1


def _refuse_constant(name: str) -> Any:
    raise JsonLimitError(f"{name} is not a JSON number (JSON allows only finite numbers)")


def _checked_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonLimitError(f"number {text[:40]} is out of range (it would become infinity)")
    return value


def _checked_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise JsonLimitError(f"integer with {digits} digits is too large (at most {MAX_INT_DIGITS} digits)")
    return int(text)


def loads(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads` for untrusted text: JsonLimitError for a named limit, JSONDecodeError as usual."""
    check_depth(text, max_depth)
    return json.loads(
        text, parse_constant=_refuse_constant, parse_float=_checked_float, parse_int=_checked_int
    )
