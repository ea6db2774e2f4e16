"""Summaries of many games: mean with a 95 % t interval, shares with 95 % Wilson intervals."""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["mean_interval", "proportion_interval", "ColumnSummary", "Summary", "summarise"]


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its Student-t confidence interval
    (``low == high == mean`` with fewer than two values or no spread)."""
    v = np.asarray(values, dtype=float)
    mean = float(v.mean()) if len(v) else math.nan
    sd = float(v.std(ddof=1)) if len(v) > 1 else 0.0
    if len(v) > 1 and sd > 0:
        from scipy import stats  # imported when first needed: worker processes never summarise

        low, high = stats.t.interval(confidence, len(v) - 1, loc=mean, scale=sd / math.sqrt(len(v)))
        return mean, float(low), float(high)
    return mean, mean, mean


def proportion_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """``(share, low, high)``: the share and its Wilson score interval (scipy)."""
    if trials == 0:
        return math.nan, math.nan, math.nan
    from scipy import stats

    ci = stats.binomtest(int(successes), int(trials)).proportion_ci(confidence, method="wilson")
    return successes / trials, float(ci.low), float(ci.high)


@dataclass(frozen=True)
class ColumnSummary:
    """One result column: numbers get ``mean``/``low``/``high``/``sd``/``min``/``max``;
    categories (strings, booleans) get ``shares``: value -> (count, share, low, high)."""

    name: str
    mean: float | None = None
    low: float | None = None
    high: float | None = None
    sd: float | None = None
    min: float | None = None
    max: float | None = None
    shares: tuple[tuple[Any, int, float, float, float], ...] = ()

    def to_json(self) -> dict:
        if self.shares:
            return {"name": self.name, "shares": [{"value": v, "games": n, "share": p, "ci95": [lo, hi]}
                                                  for v, n, p, lo, hi in self.shares]}
        return {"name": self.name, "mean": self.mean, "ci95": [self.low, self.high], "sd": self.sd,
                "min": self.min, "max": self.max}


@dataclass(frozen=True)
class Summary:
    """A table of many games' results, column by column."""

    games: int
    label: str
    columns: tuple[ColumnSummary, ...]

    def column(self, name: str) -> ColumnSummary:
        return next(c for c in self.columns if c.name == name)

    def table(self) -> str:
        """The summary as text: one line per numeric column, one block per category."""
        lines = [f"{self.games} games, {self.label}"]
        for c in self.columns:
            if c.shares:
                lines.append(f"{c.name}:")
                for v, n, p, lo, hi in c.shares:
                    lines.append(f"  {str(v):<16} {n:>7} {p:>7.1%}  (95% CI {lo:.1%} to {hi:.1%})")
            else:
                lines.append(f"{c.name}: mean {c.mean:.2f} (95% CI {c.low:.2f} to {c.high:.2f}; "
                             f"sd {c.sd:.2f}; min {c.min:g}, max {c.max:g})")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"games": self.games, "label": self.label, "columns": [c.to_json() for c in self.columns]}


def summarise(rows: Iterable[Mapping[str, Any]], label: str, columns: Sequence[str] | None = None,
              categories: Mapping[str, Sequence[Any]] | None = None) -> Summary:
    """Summarise result rows. ``columns``: which to keep (default: all, in first-row
    order); a column of numbers (not booleans) is summarised by its mean, any other by
    the share of each value (``categories[name]`` fixes the values listed and their order,
    zeros included)."""
    rows = list(rows)
    names = list(columns) if columns is not None else (list(rows[0]) if rows else [])
    categories = dict(categories or {})
    out = []
    for name in names:
        values = [r[name] for r in rows]
        numeric = values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        if numeric and name not in categories:
            mean, low, high = mean_interval(values)
            sd = float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
            out.append(ColumnSummary(name, mean, low, high, sd, float(min(values)), float(max(values))))
            continue
        levels = list(categories.get(name, ()))
        for v in values:
            if v not in levels:
                levels.append(v)
        shares = tuple((v, n, *proportion_interval(n, len(values)))
                       for v in levels for n in [sum(1 for x in values if x == v)])
        out.append(ColumnSummary(name, shares=shares))
    return Summary(len(rows), label, tuple(out))
