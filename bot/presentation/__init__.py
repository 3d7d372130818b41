"""What players read and see, free of Discord, in the reader's language.

A table, a lobby, a hand, a refusal, a rules page, the coach's words, a round's picture and
its replay link.

Each module turns data (a ``Table``, a stored round, an error's code) and a ``Texts`` into plain
screen models — text blocks, card faces, pictures, a colour as 0xRRGGBB — that a front end
draws: ``cogs/flipflop`` as Discord messages, ``bot/live`` as the live table page. Members and
commands are named through ``bot.i18n.mentions`` in the front end's form; nothing here imports
discord (``tests/test_structure.py``).
"""
