"""The strong player's search: sampled worlds, every candidate played out in each, the best kept.

``search`` plays each candidate action in the same sampled worlds (common random
numbers) until the time budget is spent, cutting actions clearly worse than the
best (successive halving). ``ranked`` orders the estimates for the coach and the
review; ``keep_basic`` is the computer player's own choice: the basic policy's
move unless another action beats it by more than the play-outs' sampling error.

The budget is wall time, and a busy machine stretches it: the clock is read after
every play-out, a world not finished in time is dropped, and no new world is
started that the time left (``aim`` of the budget) can not hold at the pace seen so far.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.cards import Card

World = tuple[dict[str, list[Card]], list[Card]]
"""One sampled world: every hand, and the stock (top card last)."""


@dataclass(frozen=True)
class Scored:
    """One candidate action and its average chip result over the ``samples`` worlds it was played in."""

    action: Action
    mean: float
    samples: int


@dataclass(frozen=True)
class Limits:
    """How long a search may run and how it narrows the field."""

    budget: float
    """Seconds of wall time from ``start``."""
    max_samples: int = 2000
    first_cut: int = 32
    """Worlds sampled before the first cut of clearly worse actions (then at 2x, 4x, …)."""
    cut_z: float = 3.0
    aim: float = 1.0
    """The share of ``budget`` a search plans to use: a new world starts only if, at the pace seen so far,
    it ends within it (a computer player's move aims below its budget, so a busy machine rarely passes it)."""


@dataclass
class Results:
    """Each action's chip result in each world it was played in, and the actions not cut."""

    results: list[list[float]]
    active: list[int]


def search(
    count: int,
    sample: Callable[[random.Random], World],
    play: Callable[[dict[str, list[Card]], list[Card], int], float],
    rng: random.Random,
    clock: Callable[[], float],
    start: float,
    limits: Limits,
    settle: bool = False,
) -> Results:
    """Play ``count`` actions (``play(hands, stock, i)``) in sampled worlds until the budget is spent.

    At least two worlds are played (a spread needs two); with ``settle`` the search ends as soon as one
    action is left. A world is all or nothing: if the budget runs out in the middle of one, it is dropped.
    """
    out = Results([[] for _ in range(count)], list(range(count)))
    samples = 0
    check = limits.first_cut
    deadline = start + limits.budget
    planned = start + limits.budget * limits.aim
    while samples < limits.max_samples:
        began = clock()
        if samples >= 2 and began + (began - start) / samples > planned:
            break  # at the pace so far, this world would not end in the time planned
        hands, stock = sample(rng)
        row = []
        for i in out.active:  # every action in the same world (common random numbers)
            row.append(play(hands, stock, i))
            if samples >= 2 and clock() > deadline:
                return out  # out of time in the middle of a world: it is dropped
        for i, r in zip(out.active, row, strict=True):
            out.results[i].append(r)
        samples += 1
        if samples == check and len(out.active) > 1:
            out.active = cut(out.results, out.active, limits.cut_z)
            check *= 2
            if settle and len(out.active) == 1:  # the others are clearly worse: decided, no more worlds
                break
    return out


def ranked(actions: Sequence[Action], found: Results) -> list[Scored]:
    """Each action's estimate, best first: those sampled to the end by mean, then those cut early."""
    scored = [
        Scored(a, statistics.fmean(found.results[i]) if found.results[i] else 0.0, len(found.results[i]))
        for i, a in enumerate(actions)
    ]
    kept = set(found.active)
    order = sorted(range(len(actions)), key=lambda i: (i not in kept, -scored[i].mean, i))
    return [scored[i] for i in order]


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a - b`` over the worlds both were played in, and its standard error (inf if < 2)."""
    diffs = [x - y for x, y in zip(a, b, strict=False)]
    if len(diffs) < 2:
        return (math.fsum(diffs) / len(diffs) if diffs else 0.0), math.inf
    mean = math.fsum(diffs) / len(diffs)
    return mean, math.sqrt(math.fsum([(d - mean) ** 2 for d in diffs])) / len(diffs)


def cut(results: list[list[float]], active: list[int], cut_z: float) -> list[int]:
    """Successive halving: stop sampling actions clearly worse than the best so far.

    An action stays while its paired difference with the best action (same
    worlds) is within ``cut_z`` standard errors of zero or above it.
    """
    best = max(active, key=lambda i: statistics.fmean(results[i]))
    keep = []
    for i in active:
        if i != best:
            mean, error = paired(results[i], results[best])
            if mean + cut_z * error < 0:
                continue
        keep.append(i)
    return keep


def keep_basic(found: Results, basic: int | None, keep_z: float) -> int:
    """The action a computer player plays: the best estimate, unless it is the basic move's by a hair.

    The basic policy's move (index ``basic``) stays unless the best action's paired advantage over it is
    more than ``keep_z`` standard errors: the search moves away from sound play only on clear evidence,
    not on the noise of a few worlds. A basic move cut early was clearly worse and is not kept.
    """
    best = max(found.active, key=lambda i: statistics.fmean(found.results[i]) if found.results[i] else 0.0)
    if basic is None or basic == best or basic not in found.active or keep_z <= 0:
        return best
    mean, error = paired(found.results[best], found.results[basic])
    return best if mean > keep_z * error else basic


__all__ = ["Limits", "Results", "Scored", "World", "cut", "keep_basic", "paired", "ranked", "search"]
