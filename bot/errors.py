"""Refusals: what a user may not do now, answered privately by the one error handler."""

from __future__ import annotations


class Refusal(Exception):
    """Something a user may not do now; the message says why, in plain words."""


class NotAPlayer(Refusal):
    """The user has no seat in this game."""


class NotYourTurn(Refusal):
    """The user plays in this game, but someone else must act now."""


class GameOver(Refusal):
    """The game has ended."""


class StaleBoard(Refusal):
    """The component belongs to a board that a later move replaced."""


class NoGameHere(Refusal):
    """A game command was used where no game runs."""


class UnknownAction(Refusal):
    """A component whose action this version of the bot does not know (an old message)."""
