"""`threading`: threads as the autograd notes drive training with them, run one at a time.

A program never starts a host thread. `Thread(target=f).start()` runs `f` to its end, there
and then, in the program's own thread and under its limits; `join()` finds it finished. A
run is then the same on every run (real threads interleave as the machine schedules them),
and a program whose threads only compute and join gets what Python gives. An error in a
target stops the program at its line (Python would print it on stderr and go on).
`Lock`/`RLock` are always free and `Event.wait` never blocks: one thread runs at a time.
"""

from __future__ import annotations

from typing import Any

from autograd_cli.language.objects import Namespace


class Thread:
    """`threading.Thread(target=None, name=None, args=(), kwargs=None, daemon=None)`."""

    PUBLIC_ATTRS = frozenset({"start", "join", "is_alive", "name", "daemon", "run"})
    SETTABLE_ATTRS = frozenset({"name", "daemon"})
    __slots__ = ("target", "args", "kwargs", "name", "daemon", "state")

    def __init__(self, count: int, group: Any = None, target: Any = None, name: Any = None,
                 args: Any = (), kwargs: Any = None, *, daemon: Any = None) -> None:
        if group is not None:
            raise AssertionError("group argument must be None for now")
        if name is None:
            name = f"Thread-{count}"
            target_name = getattr(target, "name", None) or getattr(target, "__name__", None)
            if target_name is not None:
                name += f" ({target_name})"
        self.target, self.args, self.kwargs = target, tuple(args), dict(kwargs or {})
        self.name, self.daemon, self.state = str(name), bool(daemon), "initial"

    def start(self) -> None:
        if self.state != "initial":
            raise RuntimeError("threads can only be started once")
        self.state = "started"
        _CURRENT.append(self)
        try:
            self.run()
        finally:
            _CURRENT.pop()
            self.state = "stopped"

    def run(self) -> None:
        if self.target is not None:
            self.target(*self.args, **self.kwargs)

    def join(self, timeout: Any = None) -> None:
        if self.state == "initial":
            raise RuntimeError("cannot join thread before it is started")
        if self is current_thread():
            raise RuntimeError("cannot join current thread")

    def is_alive(self) -> bool:
        return self.state == "started"

    def __repr__(self) -> str:
        state = "daemon " if self.daemon and self.state != "initial" else ""
        return f"<Thread({self.name}, {self.state if not state else state + self.state})>"


class MainThread:
    PUBLIC_ATTRS = frozenset({"name", "daemon", "is_alive"})
    __slots__ = ()
    name = "MainThread"
    daemon = False

    def is_alive(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "<_MainThread(MainThread, started)>"


_MAIN = MainThread()
_CURRENT: list[Any] = []  # the threads running now, innermost last (a thread may start one)


def current_thread() -> Any:
    return _CURRENT[-1] if _CURRENT else _MAIN


class Lock:
    """`threading.Lock()` / `RLock()`: always free, since one thread runs at a time."""

    PUBLIC_ATTRS = frozenset({"acquire", "release", "locked"})
    __slots__ = ("held", "reentrant")

    def __init__(self, reentrant: bool = False) -> None:
        self.held = 0
        self.reentrant = reentrant

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if self.held and not self.reentrant:
            if blocking and timeout < 0:  # Python would wait here forever
                raise RuntimeError("acquire() of a Lock this thread already holds would wait "
                                   "forever (agraph runs threads one at a time)")
            return False
        self.held += 1
        return True

    def release(self) -> None:
        if not self.held:
            raise RuntimeError("release unlocked lock" if not self.reentrant
                               else "cannot release un-acquired lock")
        self.held -= 1

    def locked(self) -> bool:
        return bool(self.held)

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()

    def __repr__(self) -> str:
        kind = "_thread.RLock" if self.reentrant else "_thread.lock"
        return f"<{'locked' if self.held else 'unlocked'} {kind} object>"


class Event:
    PUBLIC_ATTRS = frozenset({"set", "clear", "is_set", "wait"})
    __slots__ = ("flag",)

    def __init__(self) -> None:
        self.flag = False

    def set(self) -> None:
        self.flag = True

    def clear(self) -> None:
        self.flag = False

    def is_set(self) -> bool:
        return self.flag

    def wait(self, timeout: Any = None) -> bool:
        return self.flag


def namespace(runtime: Any, name: str) -> Namespace:
    _CURRENT.clear()
    made = [0]  # Python numbers the threads it names: Thread-1, Thread-2, ...

    def Thread_(*args: Any, **kwargs: Any) -> Thread:  # noqa: N802 - the class's name
        made[0] += 1
        return Thread(made[0], *args, **kwargs)

    def RLock() -> Lock:  # noqa: N802 - the class's name
        return Lock(reentrant=True)

    def main_thread() -> MainThread:
        return _MAIN

    def active_count() -> int:
        return 1 + len(_CURRENT)

    Thread_.__name__ = Thread_.__qualname__ = "Thread"
    return Namespace(name, {
        "Thread": Thread_, "Lock": Lock, "RLock": RLock, "Event": Event,
        "current_thread": current_thread, "main_thread": main_thread,
        "active_count": active_count,
    })
