"""The command line: the `agraph` entry point (main.py), the table of every command's options
(options.py), the typer app built from it (app.py), and one module per command family (run.py,
render.py, explain.py, debug.py, lint.py) over what they share (common.py)."""
