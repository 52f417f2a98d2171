"""`python -m autograd_cli` is `agraph`."""

from autograd_cli.main import main

main()
