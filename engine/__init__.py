"""agraph's autograd core over numpy (see docs/architecture.md)."""

from engine.allocator import keep_freed_memory

keep_freed_memory()
