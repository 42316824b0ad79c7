"""The encounter workspace: start an encounter, step through its procedure, declare, resolve."""
