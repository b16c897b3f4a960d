"""Hostile replies for a ruleset's own reading code: values a player could send, grown by seeded
mutation from the replies its shim makes (`Ruleset.sample_replies`, `loose_replies`) or sampled
from the reply shapes it declares, handed to what the grader runs on a well-shaped reply (the
engine's `parse_move` and the probes' checks). Only the rules' refusal (IllegalMove, a Mismatch)
may come out. Shared by `grader selftest` and tests/grader/test_hostile_replies.py."""
from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from typing import Any

from rulesets import replies as R
from rulesets.base import IllegalMove, Mismatch, Ruleset
from rulesets.replies import COMMON, problem
from rulesets.values import short_repr

from .match import _Game

SCALARS = [None, True, False, 0, 1, -1, 2, 3, 7, 2 ** 31, -2 ** 31 - 1, 2 ** 62, -2 ** 62, 0.5, -3.0, 1e300,
           "", "a", "red", "blue", "pit", "PIT 0 3", "SKIP 1", "0 5 A 2", "F 2 F 3 3 A 2", "\x1b[31m", "=1+1",
           "x" * 5000, "\n", "invalid", "type", "answers", "pos", "edges", "[[1]]", "-1", "None"]
INTS = [0, 1, 2, 3, 5, 8, 11, 12, -1, -7, 99, 10 ** 9, 2 ** 31, -2 ** 31, 2 ** 62, -2 ** 63 + 1, 2 ** 63 - 1]
TEXTS = ["", " ", "red", "RED ", "blue", "green", "pit", "PIT 0 3", "PIT 1 3", "PIT 0 99", "PIT 0 " + "9" * 150,
         "SKIP 0", "SKIP 9", "skip", "0 5 A 2", "0 1 A 1", "9 5 A 2", "0 5 Z 2", "0 5 A 99999", "0 5 A " + "9" * 150,
         "F 2 F 3 3 A 2", "F 2 F 3 3", "0 0 0 0 0 0 0", "red 2", "2 red", "blue " + "9" * 150, "\x00", "é"]
ROUNDS = 300

Reader = Callable[[Any], Any]


class Raised(AssertionError):
    """A well-shaped reply made the ruleset's own code raise or answer nonsense: one sentence."""


def random_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 4 or roll < 0.45:
        return rng.choice(SCALARS)
    if roll < 0.75:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    keys = ["type", "pos", "edges", "invalid", "answers", "pile", "count", "move_type", "pit", "player_id", "x"]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def mutate(rng: random.Random, value: Any, depth: int = 0) -> Any:
    """`value` with one random change somewhere inside: a part replaced, dropped, doubled or wrapped."""
    roll = rng.random()
    if isinstance(value, list) and value and roll < 0.6:
        out = list(value)
        k = rng.randrange(len(out))
        action = rng.randrange(4)
        if action == 0:
            out[k] = mutate(rng, out[k], depth + 1)
        elif action == 1:
            del out[k]
        elif action == 2:
            out.insert(k, rng.choice(out + [random_value(rng)]))
        else:
            out[k] = [out[k]]
        return out
    if isinstance(value, dict) and value and roll < 0.6:
        out_d = dict(value)
        key = rng.choice(list(out_d))
        if rng.random() < 0.2:
            del out_d[key]
        else:
            out_d[key] = mutate(rng, out_d[key], depth + 1)
        return out_d
    if isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int) and roll < 0.9:
        return rng.choice(INTS)
    elif isinstance(value, str) and roll < 0.9:
        return rng.choice(TEXTS)
    if roll < 0.8:
        return random_value(rng, depth)
    return [value] if rng.random() < 0.5 else {"invalid": value}


def hostile_values(seeds: list, n: int = ROUNDS, seed: int = 16) -> Iterator[Any]:
    rng = random.Random(seed)
    for _ in range(n):
        value = rng.choice(seeds)
        for _ in range(rng.randrange(1, 4)):
            value = mutate(rng, value)
            if rng.random() < 0.3:
                break
        yield value
    for _ in range(n // 3):
        yield random_value(rng)


def sample(shape: R.Shape, rng: random.Random) -> Any:
    """A random value of exactly this shape, from adversarial pools (edge numbers, odd texts)."""
    if isinstance(shape, R.OneOf):
        return sample(rng.choice(shape.shapes), rng)
    if isinstance(shape, R.Seq):
        return [sample(item, rng) for item in shape.items]
    if isinstance(shape, R.ListOf):
        return [sample(shape.item, rng) for _ in range(rng.choice([0, 1, 2, 3, 8]))]
    if isinstance(shape, R.Obj):
        out = {k: sample(v, rng) for k, v in shape.required.items()}
        out.update({k: sample(v, rng) for k, v in shape.optional.items() if rng.random() < 0.5})
        return out
    if isinstance(shape, R.Const):
        return shape.value
    if isinstance(shape, R.Int):
        return rng.choice([v for v in INTS if shape.lo <= v <= shape.hi])
    if isinstance(shape, R.Str):
        return rng.choice([t for t in TEXTS + SCALARS if isinstance(t, str) and len(t) <= shape.max_len])
    if isinstance(shape, R.Null):
        return None
    raise TypeError(f"no sampler for the reply shape {shape!r}")


def seeds(rs: Ruleset, method: str) -> list:
    """The replies the fuzzing starts from: the record's samples of this RPC."""
    values = [*rs.sample_replies.get(method, ()), *rs.loose_replies.get(method, ())]
    if not values:
        raise Raised(f"{rs.name}: RULESET.sample_replies has no reply of {method}() to fuzz from; "
                     f"add a few replies the shim makes.")
    return values


def readers(rs: Ruleset) -> list[tuple[str, Reader]]:
    """(method, reader) pairs: the ruleset code the grader runs on a reply of that RPC."""
    game = rs.game()
    start = game.new_state(1)
    later = start.copy()
    rng = random.Random(5)
    for _ in range(3):
        if not later.is_over:
            later.play(later.random_move(rng))
    out: list[tuple[str, Reader]] = [("move", functools.partial(_Game.legal, s)) for s in (start, later)
                                     if not s.is_over]
    for probe in rs.probes(game) if rs.probes else []:
        cases = probe.cases(game, 1)
        for case in cases[:2] + cases[-2:]:
            out.append((case.method, case.check))
    undeclared = sorted({m for m, _ in out} - set(rs.replies) - set(COMMON))
    if undeclared:
        raise Raised(f"{rs.name}: RULESET.replies declares no shape for the reply to {undeclared[0]}(), "
                     f"which the probes ask for.")
    return out


def read(rs: Ruleset, method: str, reader: Reader, value: Any) -> None:
    """Hand a well-shaped `value` to `reader`; Raised with a sentence if anything but a refusal comes out."""
    try:
        result = reader(value)
    except IllegalMove:
        return
    except Exception as exc:
        raise Raised(f"{rs.name}: the reply {short_repr(value)} to {method}() fits the declared shape, yet the "
                     f"ruleset's code raised {type(exc).__name__}: {short_repr(str(exc), 200)}") from exc
    if not (result is None or isinstance(result, (Mismatch, tuple, str, int))):      # a Mismatch or a move
        raise Raised(f"{rs.name}: reading the reply {short_repr(value)} to {method}() gave "
                     f"{short_repr(result)}, neither a move nor a Mismatch.")


def fuzz_from_samples(rs: Ruleset) -> int:
    """Mutations of the shim's own replies: each is refused by its shape with a sentence, or read
    without an exception. Returns how many were read."""
    count = 0
    for method, reader in readers(rs):
        for value in hostile_values(seeds(rs, method)):
            why = problem(rs.replies, method, value)
            if why is not None:
                if not (isinstance(why, str) and why.endswith(".")):
                    raise Raised(f"{rs.name}: the shape check of {method}() answered {short_repr(why)}, not a sentence.")
                continue
            read(rs, method, reader, value)
            count += 1
    return count


def fuzz_from_shapes(rs: Ruleset, rounds: int = ROUNDS) -> int:
    """Values sampled from the declared shapes themselves, so every branch of every shape reaches
    the ruleset's code. Returns how many were read."""
    rng = random.Random(424)
    count = 0
    for method, reader in readers(rs):
        shape = rs.replies.get(method) or COMMON[method]
        for _ in range(rounds):
            value = sample(shape, rng)
            if problem(rs.replies, method, value) is not None:
                raise Raised(f"{rs.name}: {short_repr(value)} was drawn from the shape of {method}() yet "
                             f"the shape refuses it.")
            read(rs, method, reader, value)
            count += 1
    return count


def own_replies_fit(rs: Ruleset) -> None:
    """The shapes are the shim's language: every sample reply, and every engine move as the shim
    sends it, fits its shape, and a sent engine move is read back as itself."""
    if not rs.sample_replies:
        raise Raised(f"{rs.name}: RULESET.sample_replies is empty; give a few replies the shim makes, per RPC.")
    for method, values in rs.sample_replies.items():
        for value in values:
            why = problem(rs.replies, method, value)
            if why is not None:
                raise Raised(f"{rs.name}: the sample reply {short_repr(value)} to {method}() is refused by the "
                             f"declared shape ({why.rstrip('.')}), so the shim and RULESET.replies disagree.")
    state = rs.game().new_state(2)
    sent = rs.move_reply or state.move_to_json
    for move in state.legal_moves()[:50]:
        why = problem(rs.replies, "move", sent(move))
        if why is not None:
            raise Raised(f"{rs.name}: the engine's move {state.move_text(move)} as the shim sends it is refused "
                         f"by the declared shape of move() ({why.rstrip('.')}).")
        if state.parse_move(sent(move)) != move:
            raise Raised(f"{rs.name}: the engine's move {state.move_text(move)}, sent as {short_repr(sent(move))}, "
                         f"is read back as another move.")
