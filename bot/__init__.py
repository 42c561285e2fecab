"""Ludothèque's Discord side: commands, game sessions and components."""

from __future__ import annotations

from bot.client import Ludotheque, create_bot

__all__ = ["Ludotheque", "create_bot"]
