"""The debugging tools that options of `run` and `render` install, run together.

    inspection = Inspection(stderr, trace=True, detect_anomaly=True, watch="loss")
    result, recorder = rendering.record_program(text, limits, observers=inspection.observers())
    inspection.finish(result, text)        # flush the trace, place an anomaly, lint
    inspection.report("file.expr", text, stderr)   # anomaly note, watch series, lint notes

Where the output goes: everything these tools add is written to stderr (the trace while the
program runs, the rest after it), so stdout keeps exactly what the program printed (and
`--json` one JSON object). The lint notes are printed only when there is one: a program with
no gradient-flow problem adds nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:  # each tool is imported when it is asked for: a plain `run` loads none
    from autograd_cli.graph.provenance import Provenance
    from autograd_cli.tools.anomaly import Anomaly, AnomalyDetector
    from autograd_cli.tools.lint import Finding, GradientLinter
    from autograd_cli.tools.trace import Tracer
    from autograd_cli.tools.watch import Watcher


class Inspection:
    def __init__(self, stream: TextIO, *, trace: bool = False, detect_anomaly: bool = False,
                 watch: str | None = None, lint: bool = False,
                 max_trace_bytes: int = 10_000_000) -> None:
        self.provenance: Provenance | None = None
        self.tracer: Tracer | None = None
        self.detector: AnomalyDetector | None = None
        self.watcher: Watcher | None = None
        self.linter: GradientLinter | None = None
        self.findings: list[Finding] = []
        if not (trace or detect_anomaly or watch is not None or lint):
            return
        # lazy: startup time (loaded only when used)
        from autograd_cli.graph.provenance import Provenance

        provenance = self.provenance = Provenance(origins=trace or detect_anomaly)
        if trace:
            # lazy: startup time (loaded only when used)
            from autograd_cli.tools.trace import Tracer

            self.tracer = Tracer(provenance, stream, max_trace_bytes)
        if detect_anomaly:
            # lazy: startup time (loaded only when used)
            from autograd_cli.tools.anomaly import AnomalyDetector

            self.detector = AnomalyDetector(provenance)
        if watch is not None:
            # lazy: startup time (loaded only when used)
            from autograd_cli.tools.watch import Watcher

            self.watcher = Watcher(watch)
        if lint:
            # lazy: startup time (loaded only when used)
            from autograd_cli.tools.lint import GradientLinter

            self.linter = GradientLinter(provenance)

    def observers(self) -> list[Any]:
        """What to install (none if no tool is on); the detector raises, so it comes last."""
        tools = [tool for tool in (self.tracer, self.watcher, self.linter, self.detector)
                 if tool is not None]
        return [self.provenance, *tools] if self.provenance is not None else []

    @property
    def anomaly(self) -> Anomaly | None:
        return self.detector.found if self.detector is not None else None

    def finish(self, result: Any, text: str, lint: bool = True) -> None:
        """After the run: the trace's last lines, a backward anomaly placed at the forward op
        that made its node, the lint findings (unless `lint` is False: a run cut short)."""
        if self.tracer is not None:
            self.tracer.flush()
        anomaly = self.anomaly
        if anomaly is not None and result.error is not None:
            # lazy: startup time (loaded only when used)
            from autograd_cli.tools.anomaly import located_error

            result.error = located_error(anomaly, result.error)
        if self.linter is not None and lint:
            # lazy: startup time (loaded only when used)
            from autograd_cli.tools.lint import ERROR_KINDS

            self.findings = self.linter.findings(result, text)
            if result.error is not None:  # a run cut short: only what explains its error
                self.findings = [f for f in self.findings if f.kind in ERROR_KINDS]

    def report(self, filename: str, text: str, stream: TextIO, *, quiet: bool = False,
               warnings_shown: Any = ()) -> None:
        """The anomaly's note, the watch series, then the lint notes: none under `quiet`,
        and none that says again what a warning in `warnings_shown` said."""
        anomaly = self.anomaly
        if anomaly is not None:
            # lazy: startup time (loaded only when used)
            from autograd_cli.tools.anomaly import backward_note

            stream.write(backward_note(anomaly, filename, text))
        if self.watcher is not None:
            stream.write(self.watcher.report(unicode=_can_write(stream, "▁█")))
        if quiet:
            return
        for finding in self.findings:
            if not finding.restates(warnings_shown):
                stream.write(finding.format(filename))


def _can_write(stream: TextIO, sample: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
