"""The debugging tools, each an observer of a run: trace, watch, anomaly detection, explain,
gradient lint, the debugger."""
