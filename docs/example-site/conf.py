# A small Sphinx site that draws agraph pictures at build time (see docs/docs-builds.md).
project = "agraph example"
extensions = ["autograd_cli.sphinx"]
exclude_patterns = ["_build", "Makefile"]
html_theme = "basic"
