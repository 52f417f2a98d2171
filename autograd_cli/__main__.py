"""`python -m autograd_cli` is `agraph`."""

from autograd_cli.cli.main import main

main()
