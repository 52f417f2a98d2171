"""agraph's autograd core over numpy (see docs/architecture.md)."""

from engine.allocator import collect_less_often, keep_freed_memory

keep_freed_memory()
collect_less_often()
