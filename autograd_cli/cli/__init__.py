"""The command line: the `agraph` entry point (main.py), the typer app (app.py) and the work
of each command (commands.py)."""
