"""A table's data (``model``), how it is saved (``repository``) and what may happen to it (``transitions``).

The runtime (``bot.runtime``) is the one owner that drives tables: it takes a
table's lock, runs a transition, saves the change with its chips in one
transaction and says what happened.
"""
