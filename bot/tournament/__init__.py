"""Sit-and-go tournaments, without Discord and without words.

``model``: the tournament as data; ``seating``: tables of 3 to 5 and their
rebalancing; ``payouts``: prizes; ``store``: its row and its server chips; ``ref``: the
reference a table dealt for it carries (``TableRef``).
"""
