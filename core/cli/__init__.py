"""The command line, ``python -m core`` (and ``combatdesk`` with a subcommand).

- :mod:`~core.cli.commands` — ``simulate``, ``summary`` and ``rules``: scenario files in,
  resolutions and printouts out, every bad input a one-line message.
- :mod:`~core.cli.access` — ``access``: who may use which campaign on a shared server.

May use every other part of the core; nothing in the core uses it.
"""
