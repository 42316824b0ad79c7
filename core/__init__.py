"""Combat Desk's pure-Python core: domain values, dice, rules, encounter log and store."""

__version__ = "0.1.0"
