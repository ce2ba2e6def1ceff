"""Pillow renderers: a game view -> image -> PNG bytes. Never imports discord, bot or cogs."""
