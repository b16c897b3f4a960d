"""Shapes of the replies to the shims' RPCs, checked before any ruleset code reads a reply.

A player can write any JSON value to its reply pipe itself, bypassing the shim, so the value a
ruleset's `parse_move` or a probe's `check` receives is only as safe as its shape. Each ruleset
declares the shape of every RPC it answers (`Ruleset.replies`, next to its shim); the grader
checks a reply against it (`problem`) and turns a wrong shape into the player's protocol
verdict. Shapes describe exactly what the shims send: a move, or `{"invalid": sentence}`.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

WORD = 2 ** 63 - 1          # what the wire lets through; the rules refuse what is off the board


class Shape:
    """One shape: `why_not(value)` is None when `value` fits, else a short phrase saying where not."""

    text = "a value"

    def why_not(self, value: Any) -> str | None:
        raise NotImplementedError


class AnyValue(Shape):
    text = "any value"

    def why_not(self, value):
        return None


class Null(Shape):
    text = "null"

    def why_not(self, value):
        return None if value is None else f"{short(value)} is not null"


class Str(Shape):
    def __init__(self, max_len: int = 4000) -> None:
        self.max_len = max_len
        self.text = "text"

    def why_not(self, value):
        if not isinstance(value, str):
            return f"{short(value)} is not text"
        if len(value) > self.max_len:
            return f"the text is longer than {self.max_len} characters"
        return None


class Int(Shape):
    def __init__(self, lo: int = -WORD, hi: int = WORD) -> None:
        self.lo, self.hi = lo, hi
        self.text = "a whole number"

    def why_not(self, value):
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{short(value)} is not a whole number"
        if not self.lo <= value <= self.hi:
            return f"{value} is outside {self.lo}..{self.hi}"
        return None


class Const(Shape):
    def __init__(self, value: Any) -> None:
        self.value = value
        self.text = json.dumps(value)

    def why_not(self, value):
        same = value == self.value and type(value) is type(self.value)
        return None if same else f"{short(value)} is not {self.text}"


class ListOf(Shape):
    def __init__(self, item: Shape, max_len: int = 10000) -> None:
        self.item, self.max_len = item, max_len
        self.text = f"a list of {item.text}"

    def why_not(self, value):
        if not isinstance(value, list):
            return f"{short(value)} is not a list"
        if len(value) > self.max_len:
            return f"the list has more than {self.max_len} items"
        for k, v in enumerate(value, 1):
            why = self.item.why_not(v)
            if why:
                return f"item {k}: {why}"
        return None


class Seq(Shape):
    """A list of exactly these items, e.g. Seq(Int(), Int()) for [x, y]."""

    def __init__(self, *items: Shape) -> None:
        self.items = items
        self.text = "[" + ", ".join(i.text for i in items) + "]"

    def why_not(self, value):
        if not isinstance(value, list) or len(value) != len(self.items):
            return f"{short(value)} is not a list of {len(self.items)}"
        for k, (shape, v) in enumerate(zip(self.items, value), 1):
            why = shape.why_not(v)
            if why:
                return f"item {k}: {why}"
        return None


class Obj(Shape):
    """An object with these keys (and optionally those; no others)."""

    def __init__(self, required: Mapping[str, Shape], optional: Mapping[str, Shape] | None = None) -> None:
        self.required, self.optional = dict(required), dict(optional or {})
        self.text = "{" + ", ".join(f'"{k}": {s.text}' for k, s in self.required.items()) + "}"

    def why_not(self, value):
        if not isinstance(value, dict):
            return f"{short(value)} is not an object"
        for key, shape in self.required.items():
            if key not in value:
                return f'the key "{key}" is missing'
            why = shape.why_not(value[key])
            if why:
                return f'"{key}": {why}'
        for key, v in value.items():
            shape = self.optional.get(key)
            if key in self.required:
                continue
            if shape is None:
                return f"the key {short(key)} is not expected"
            why = shape.why_not(v)
            if why:
                return f'"{key}": {why}'
        return None


class OneOf(Shape):
    def __init__(self, *shapes: Shape, text: str | None = None) -> None:
        self.shapes = shapes
        self.text = text or " or ".join(s.text for s in shapes)

    def why_not(self, value):
        whys = [s.why_not(value) for s in self.shapes]
        if None in whys:
            return None
        deepest = max(whys, key=lambda why: why.count(": "))    # the alternative that matched furthest
        return deepest if ": " in deepest else f"{short(value)} is not {self.text}"


INVALID = Obj({"invalid": Str()}, {"returned": Str(max_len=10)})   # the shim's sentence about a bad return
                                                                    # value ("returned": "none" for a None)
COMMON: dict[str, Shape] = {
    "interface": ListOf(Str(), max_len=100),
    "setup": Null(),
}


def short(value: Any, limit: int = 60) -> str:
    """A value as compact JSON, cut to `limit` characters (for sentences)."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"


def problem(replies: Mapping[str, Shape], method: str, value: Any) -> str | None:
    """None when `value` has the shape declared for `method` (COMMON, then the ruleset's), else a sentence."""
    shape = replies.get(method) or COMMON.get(method)
    if shape is None:
        return f"the grader declares no reply for {method}(), so the reply cannot be read."
    why = shape.why_not(value)
    if why is None:
        return None
    if why.startswith(f"{short(value)} is not"):            # wrong as a whole: say what it is
        return f"the reply to {method}() is {short(value)}, not {shape.text}."
    return f"the reply to {method}() is not {shape.text} ({why})."
