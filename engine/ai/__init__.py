"""Computer play on top of the rules: nothing here is a rule of the game.

Strategies (``strategies``) choose an action from a ``PlayerView`` only; the
strong player reads the others' play (``inference``; ``likelihood`` weighs
hands by it), deals the cards it can not see consistently with it
(``worlds``) and plays each world out quickly
(``rollout``). The coach (``coach``) and the look back at a finished round
(``review``) ask the same search. Everything here reads the rules through
``engine``'s public modules; no rule module imports from here.
"""
