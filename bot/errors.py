"""Refusals shown privately to the user who tried something."""

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
