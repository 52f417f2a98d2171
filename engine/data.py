"""`torch.utils.data`: Dataset, TensorDataset, Subset, ConcatDataset, the samplers, DataLoader
and random_split.

A DataLoader here is PyTorch's single-process loader (num_workers=0): `iter(loader)` first
draws the workers' base seed from the loader's generator (or the default one), then the
sampler draws its order lazily, when the first batch is asked for (RandomSampler: with no
generator, a new Generator seeded from a draw of the default one, then `randperm(n)`; and once
more when the sampler is exhausted, as PyTorch's generator does). engine/random.py reproduces
those draws; so `shuffle=True` orders batches as PyTorch does for the same seed. Batches are
collated as PyTorch's `default_collate` does: tensors stacked, numbers made tensors, tuples
and lists collated per position (a list), dicts per key.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from engine import creation, dtypes, functional, random
from engine.addresses import address_of
from engine.generator import Generator
from engine.tensor import Tensor


class Dataset:
    """The base class of map-style datasets (`__getitem__` and `__len__`)."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Samples are the rows of tensors of the same first size."""

    PUBLIC_ATTRS = frozenset({"tensors"})
    __slots__ = ("tensors",)

    def __init__(self, *tensors: Any) -> None:
        for tensor in tensors:
            if not isinstance(tensor, Tensor):
                raise TypeError(f"TensorDataset expects tensors, got {type(tensor).__name__}")
        if any(tensors[0].shape_tuple[:1] != tensor.shape_tuple[:1] for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tuple(tensors)

    def __getitem__(self, index: Any) -> tuple[Any, ...]:
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape_tuple[0] if self.tensors else 0


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    PUBLIC_ATTRS = frozenset({"dataset", "indices"})
    __slots__ = ("dataset", "indices")

    def __init__(self, dataset: Any, indices: Any) -> None:
        self.dataset = dataset
        self.indices = list(indices)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, list):
            return [self.dataset[self.indices[i]] for i in index]
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several datasets one after the other."""

    PUBLIC_ATTRS = frozenset({"datasets", "cumulative_sizes"})
    __slots__ = ("datasets", "cumulative_sizes")

    def __init__(self, datasets: Any) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes, total = [], 0
        for dataset in self.datasets:
            total += len(dataset)
            self.cumulative_sizes.append(total)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        part = next((i for i, end in enumerate(self.cumulative_sizes) if index < end), None)
        if part is None:
            raise IndexError("list index out of range")
        start = self.cumulative_sizes[part - 1] if part else 0
        return self.datasets[part][index - start]


class Sampler:
    """The base of the index samplers a DataLoader iterates (`sampler=`)."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    PUBLIC_ATTRS = frozenset({"data_source"})

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """PyTorch's: a generator seeded from the default one (unless given), one randperm per
    pass, and one more (cut to the remainder) at the end."""

    PUBLIC_ATTRS = frozenset({"data_source", "replacement", "num_samples", "generator"})

    def __init__(self, data_source: Any, replacement: bool = False,
                 num_samples: int | None = None, generator: Any = None) -> None:
        self.data_source, self.replacement, self.generator = data_source, replacement, generator
        self.num_samples = len(data_source) if num_samples is None else num_samples
        if self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    def __iter__(self) -> Iterator[int]:
        size = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = Generator().manual_seed(random.loader_base_seed())
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from random.randint(0, size, (32,), generator=generator).tolist()
            yield from random.randint(0, size, (self.num_samples % 32,),
                                      generator=generator).tolist()
            return
        for _ in range(self.num_samples // size):
            yield from random.randperm(size, generator=generator).tolist()
        yield from random.randperm(size, generator=generator).tolist()[:self.num_samples % size]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    PUBLIC_ATTRS = frozenset({"indices", "generator"})

    def __init__(self, indices: Any, generator: Any = None) -> None:
        self.indices, self.generator = list(indices), generator

    def __iter__(self) -> Iterator[Any]:
        for position in random.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[position]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    PUBLIC_ATTRS = frozenset({"weights", "num_samples", "replacement", "generator"})

    def __init__(self, weights: Any, num_samples: int, replacement: bool = True,
                 generator: Any = None) -> None:
        self.weights = creation.as_tensor(weights, dtype=dtypes.float64)
        self.num_samples, self.replacement, self.generator = num_samples, replacement, generator

    def __iter__(self) -> Iterator[int]:
        drawn = random.multinomial(self.weights, self.num_samples, self.replacement,
                                   generator=self.generator)
        return iter(drawn.tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    PUBLIC_ATTRS = frozenset({"sampler", "batch_size", "drop_last"})

    def __init__(self, sampler: Any, batch_size: int, drop_last: bool) -> None:
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self) -> Iterator[list[Any]]:
        batch: list[Any] = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        size = len(self.sampler)
        return size // self.batch_size if self.drop_last else -(-size // self.batch_size)


def random_split(dataset: Any, lengths: Any, generator: Any = None) -> list[Subset]:
    """Split into non-overlapping subsets of `lengths` (counts, or fractions that sum to 1)."""
    lengths = list(lengths)
    total = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = [int(math.floor(total * fraction)) for fraction in lengths]
        for position in range(total - sum(counts)):
            counts[position % len(counts)] += 1
        lengths = counts
    if sum(lengths) != total:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = random.randperm(sum(lengths), generator=generator).tolist()
    subsets, offset = [], 0
    for length in lengths:
        subsets.append(Subset(dataset, order[offset:offset + length]))
        offset += length
    return subsets


def default_collate(batch: list[Any]) -> Any:
    """PyTorch's default_collate for what tutorials batch."""
    first = batch[0]
    if isinstance(first, Tensor):
        return functional.stack(batch, 0)
    if isinstance(first, bool):
        return functional.stack([_scalar_tensor(item) for item in batch], 0)
    if isinstance(first, (int, float)):
        return creation.tensor(batch, dtype=None if isinstance(first, int) else
                               _float64())
    if isinstance(first, str):
        return list(batch)
    if isinstance(first, dict):
        return {key: default_collate([item[key] for item in batch]) for key in first}
    if isinstance(first, (tuple, list)):
        if any(len(item) != len(first) for item in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(samples)) for samples in zip(*batch, strict=True)]
    raise TypeError(f"default_collate: batch must contain tensors, numbers, dicts or lists; "
                    f"found {type(first).__name__}")


def _scalar_tensor(value: Any) -> Tensor:
    return creation.tensor(value)


def _float64() -> Any:
    return dtypes.float64


class DataLoader:
    """Batches of a dataset: `for x, y in DataLoader(ds, batch_size=4, shuffle=True)`."""

    PUBLIC_ATTRS = frozenset({"dataset", "batch_size", "drop_last", "generator",
                              "num_workers"})
    __slots__ = ("dataset", "batch_size", "shuffle", "drop_last", "generator", "collate_fn",
                 "num_workers", "sampler", "batch_sampler")

    def __init__(self, dataset: Any, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0,
                 collate_fn: Any = None, pin_memory: bool = False, drop_last: bool = False,
                 timeout: float = 0, worker_init_fn: Any = None, generator: Any = None,
                 **_options: Any) -> None:
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size = None
        if generator is not None and not isinstance(generator, Generator):
            raise TypeError("generator must be a torch.Generator")
        if shuffle and len(dataset) <= 0:  # PyTorch's RandomSampler refuses an empty dataset
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={len(dataset)}")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.drop_last = drop_last
        self.generator = generator
        self.collate_fn = collate_fn
        self.num_workers = num_workers  # one process here, as with num_workers=0
        self.sampler, self.batch_sampler = sampler, batch_sampler

    def __len__(self) -> int:
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        size = len(self.sampler) if self.sampler is not None else len(self.dataset)
        if self.batch_size is None:
            return size
        return size // self.batch_size if self.drop_last else -(-size // self.batch_size)

    def _order(self, size: int) -> Iterator[int]:
        if self.sampler is not None:
            yield from self.sampler
            return
        if not self.shuffle:
            yield from range(size)
            return
        yield from random.sampler_permutation(size, self.generator)
        if self.generator is not None and size:  # PyTorch's sampler draws once more at its end
            random.randperm(size, generator=self.generator)

    def __iter__(self) -> Iterator[Any]:
        random.loader_base_seed(self.generator)
        return self._batches()

    def _batches(self) -> Iterator[Any]:
        collate = self.collate_fn or default_collate
        if self.batch_sampler is not None:
            for indices in self.batch_sampler:
                yield collate([self.dataset[index] for index in indices])
            return
        size = len(self.dataset)
        if self.batch_size is None:
            for index in self._order(size):
                yield self.dataset[index] if self.collate_fn is None else collate(
                    self.dataset[index])
            return
        batch: list[Any] = []
        for index in self._order(size):
            batch.append(self.dataset[index])
            if len(batch) == self.batch_size:
                yield collate(batch)
                batch = []
        if batch and not self.drop_last:
            yield collate(batch)

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataloader.DataLoader object at {address_of(self)}>"


DATA: dict[str, Any] = {
    "Dataset": Dataset, "TensorDataset": TensorDataset, "Subset": Subset,
    "ConcatDataset": ConcatDataset, "Sampler": Sampler, "SequentialSampler": SequentialSampler,
    "RandomSampler": RandomSampler, "SubsetRandomSampler": SubsetRandomSampler,
    "WeightedRandomSampler": WeightedRandomSampler, "BatchSampler": BatchSampler,
    "DataLoader": DataLoader, "random_split": random_split, "default_collate": default_collate,
}
