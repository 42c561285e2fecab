"""Slash commands, grouped as cogs: the lobby (games, rules, challenges) and play."""
