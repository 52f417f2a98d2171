"""torch.topk's order of tied values: libstdc++'s nth_element, sort and partial_sort, step by step;
torch.kthvalue's: ATen's own quickselect (kth_position).

PyTorch's CPU topk puts (value, index) pairs through `std::partial_sort` (when k * 64 <= n) or
`std::nth_element` followed, for sorted=True, by `std::sort` of the first k - 1; the comparator
looks at values only (NaN the largest), so which of several equal values comes first is decided
by the exact moves of those algorithms. They are reproduced here on a list of positions (the
keys are compared, the positions moved), as in GCC's bits/stl_algo.h and bits/stl_heap.h.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import budget

_THRESHOLD = 16  # libstdc++'s _S_threshold
# what one number of a row costs while its order is worked out: the Python number and the
# list's pointer to it, a copy of the pointer (the keys), its position (an int and a pointer)
ROW_BYTES = 80


def row_list(row: np.ndarray, what: str) -> list[Any]:
    """`row.tolist()` for topk or kthvalue (WHAT), once the lists they work on fit the memory
    limit: one C call makes the numbers, and `torch.kthvalue` of 10**8 took 4 GB."""
    if row.size > 4096:
        budget.check_bytes(row.size * ROW_BYTES, f"{what} of a row of {row.size} numbers")
    return row.tolist()  # type: ignore[no-any-return]

Compare = Callable[[int, int], bool]


def topk_order(values: list[Any], k: int, largest: bool, sorted_: bool) -> list[int]:
    """The positions torch.topk returns for one row of `values` (python numbers)."""
    n = len(values)
    if k == 0:
        return []
    keys: list[Any] = values
    if any(isinstance(v, float) and math.isnan(v) for v in values):
        keys = [(1, 0.0) if isinstance(v, float) and math.isnan(v) else (0, v) for v in values]
    before = operator.gt if largest else operator.lt

    def comp(a: int, b: int) -> bool:
        return before(keys[a], keys[b])  # type: ignore[no-any-return]

    order = list(range(n))
    if k * 64 <= n:
        _partial_sort(order, 0, k, n, comp)
    else:
        _nth_element(order, 0, k - 1, n, comp)
        if sorted_:
            _sort(order, 0, k - 1, comp)
    return order[:k]


def _push_heap(q: list[int], first: int, hole: int, top: int, value: int,
               comp: Compare) -> None:
    parent = (hole - 1) // 2
    while hole > top and comp(q[first + parent], value):
        q[first + hole] = q[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    q[first + hole] = value


def _adjust_heap(q: list[int], first: int, hole: int, length: int, value: int,
                 comp: Compare) -> None:
    top = second = hole
    while second < (length - 1) // 2:
        second = 2 * (second + 1)
        if comp(q[first + second], q[first + second - 1]):
            second -= 1
        q[first + hole] = q[first + second]
        hole = second
    if length & 1 == 0 and second == (length - 2) // 2:
        second = 2 * (second + 1)
        q[first + hole] = q[first + second - 1]
        hole = second - 1
    _push_heap(q, first, hole, top, value, comp)


def _make_heap(q: list[int], first: int, last: int, comp: Compare) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(q, first, parent, length, q[first + parent], comp)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(q: list[int], first: int, last: int, result: int, comp: Compare) -> None:
    value = q[result]
    q[result] = q[first]
    _adjust_heap(q, first, 0, last - first, value, comp)


def _heap_select(q: list[int], first: int, middle: int, last: int, comp: Compare) -> None:
    _make_heap(q, first, middle, comp)
    for i in range(middle, last):
        if comp(q[i], q[first]):
            _pop_heap(q, first, middle, i, comp)


def _partial_sort(q: list[int], first: int, middle: int, last: int, comp: Compare) -> None:
    _heap_select(q, first, middle, last, comp)
    while middle - first > 1:  # sort_heap
        middle -= 1
        _pop_heap(q, first, middle, middle, comp)


def _swap(q: list[int], i: int, j: int) -> None:
    q[i], q[j] = q[j], q[i]


def _move_median_to_first(q: list[int], result: int, a: int, b: int, c: int,
                          comp: Compare) -> None:
    """The median of q[a], q[b], q[c] swapped to RESULT, by libstdc++'s comparisons in its order
    (q[a] against q[b] first, then the larger of the two against q[c], then the smaller)."""
    low, high = (a, b) if comp(q[a], q[b]) else (b, a)
    if comp(q[high], q[c]):
        median = high
    elif comp(q[low], q[c]):
        median = c
    else:
        median = low
    _swap(q, result, median)


def _partition_pivot(q: list[int], first: int, last: int, comp: Compare) -> int:
    _move_median_to_first(q, first, first + 1, first + (last - first) // 2, last - 1, comp)
    pivot, low, high = first, first + 1, last
    while True:
        while comp(q[low], q[pivot]):
            low += 1
        high -= 1
        while comp(q[pivot], q[high]):
            high -= 1
        if not low < high:
            return low
        _swap(q, low, high)
        low += 1


def _linear_insert(q: list[int], last: int, comp: Compare) -> None:
    value = q[last]
    previous = last - 1
    while comp(value, q[previous]):
        q[last] = q[previous]
        last = previous
        previous -= 1
    q[last] = value


def _insertion_sort(q: list[int], first: int, last: int, comp: Compare) -> None:
    for i in range(first + 1, last):
        if comp(q[i], q[first]):
            value = q[i]
            q[first + 1:i + 1] = q[first:i]
            q[first] = value
        else:
            _linear_insert(q, i, comp)


def _introsort_loop(q: list[int], first: int, last: int, depth: int, comp: Compare) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _partial_sort(q, first, last, last, comp)
            return
        depth -= 1
        cut = _partition_pivot(q, first, last, comp)
        _introsort_loop(q, cut, last, depth, comp)
        last = cut


def _sort(q: list[int], first: int, last: int, comp: Compare) -> None:
    if first == last:
        return
    _introsort_loop(q, first, last, ((last - first).bit_length() - 1) * 2, comp)
    if last - first > _THRESHOLD:
        _insertion_sort(q, first, first + _THRESHOLD, comp)
        for i in range(first + _THRESHOLD, last):
            _linear_insert(q, i, comp)
    else:
        _insertion_sort(q, first, last, comp)


def _nth_element(q: list[int], first: int, nth: int, last: int, comp: Compare) -> None:
    if first == last or nth == last:
        return
    depth = ((last - first).bit_length() - 1) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(q, first, nth + 1, last, comp)
            _swap(q, first, nth)
            return
        depth -= 1
        cut = _partition_pivot(q, first, last, comp)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(q, first, last, comp)


def kth_position(values: list[Any], k: int) -> int:
    """The position torch.kthvalue returns for one row: ATen's quick_select_template (median
    of three, then Hoare partitions) moving (value, position) pairs until the k-th smallest
    (0-based) sits at k; NaN compares as the largest."""
    def greater(x: Any, y: Any) -> bool:  # gt_or_nan
        x_nan, y_nan = x != x, y != y
        return (x_nan and not y_nan) or (not x_nan and not y_nan and x > y)

    keys, positions = list(values), list(range(len(values)))

    def swap(a: int, b: int) -> None:
        keys[a], keys[b] = keys[b], keys[a]
        positions[a], positions[b] = positions[b], positions[a]

    low, high = 0, len(keys) - 1
    while high > low:
        if high == low + 1:
            if greater(keys[low], keys[high]):
                swap(low, high)
            break
        swap(low + (high - low) // 2, low + 1)
        if greater(keys[low + 1], keys[high]):
            swap(low + 1, high)
        if greater(keys[low], keys[high]):
            swap(low, high)
        if greater(keys[low + 1], keys[low]):
            swap(low + 1, low)
        i, j, pivot = low + 1, high, keys[low]
        while True:
            i += 1
            while greater(pivot, keys[i]):
                i += 1
            j -= 1
            while greater(keys[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)
        if j <= k:
            low = i
        if j >= k:
            high = j - 1
    return positions[k]
