"""A plain recursive Algorithm X with secondary items and colors, sharing
nothing with the engine: the tests' own reference."""

from __future__ import annotations

from typing import Dict, FrozenSet, Hashable, Iterable, List, Mapping, Optional, Set


def solutions(
    options: Mapping[Hashable, Iterable[Hashable]],
    secondary: Iterable[Hashable] = (),
    colors: Optional[Mapping[Hashable, Mapping[Hashable, Hashable]]] = None,
) -> Set[FrozenSet[Hashable]]:
    """Every solution, as a frozenset of labels.

    Primary items (those not in ``secondary``) are covered exactly once;
    a secondary item is covered at most once, or by any number of options
    that give it the same color. Options without a primary item are
    dropped, as Knuth's programs do.
    """
    colors = colors or {}
    secondary = set(secondary)
    opts: Dict[Hashable, List[Hashable]] = {}
    for label, items in options.items():
        items = list(items)
        if any(i not in secondary for i in items):
            opts[label] = items
    primary = {i for items in opts.values() for i in items if i not in secondary}
    found: Set[FrozenSet[Hashable]] = set()
    # state of a secondary item: absent, EXCLUSIVE, or a color
    EXCLUSIVE = object()
    state: Dict[Hashable, object] = {}
    chosen: List[Hashable] = []

    def fits(label: Hashable, covered: Set[Hashable]) -> bool:
        for item in opts[label]:
            if item in secondary:
                color = colors.get(label, {}).get(item)
                now = state.get(item)
                if now is None:
                    continue
                if color is None or now is EXCLUSIVE or now != color:
                    return False
            elif item in covered:
                return False
        return True

    def search(covered: Set[Hashable]) -> None:
        left = primary - covered
        if not left:
            found.add(frozenset(chosen))
            return
        item = min(left, key=repr)
        for label, items in opts.items():
            if item not in items or not fits(label, covered):
                continue
            saved = {i: state.get(i) for i in items if i in secondary}
            for i in items:
                if i in secondary:
                    color = colors.get(label, {}).get(i)
                    state[i] = EXCLUSIVE if color is None else color
            chosen.append(label)
            search(covered | {i for i in items if i not in secondary})
            chosen.pop()
            for i, s in saved.items():
                if s is None:
                    state.pop(i, None)
                else:
                    state[i] = s

    search(set())
    return found
