"""Ludothèque's Discord side: the composition root (`bot.client`), services, cogs, game UIs.

The package itself imports nothing, so importing a low module (`bot.errors`, say) never
drags the composition root in.
"""
