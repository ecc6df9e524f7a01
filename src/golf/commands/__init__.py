"""Subcommands of the ``golf`` command-line tool, one module each."""
