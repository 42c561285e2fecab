"""Slash-command choices shared by the cogs, built from the game registry."""

from __future__ import annotations

from discord import app_commands

from bot.games import GAME_UIS

GAME_CHOICES = [app_commands.Choice(name=ui.name, value=game_id)
                for game_id, ui in GAME_UIS.items()]
"""One choice per playable game, in the registry's order."""
