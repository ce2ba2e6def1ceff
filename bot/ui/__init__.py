"""What Tilehost shows in Discord: board and hand files, replies, persistent buttons, and the
table announcer that posts, edits and pings after every change of a game.

This package and :mod:`bot.client` are the only parts of ``bot/`` that import discord. Rendering
never runs on the event loop: it runs in the worker processes of :mod:`bot.workers`.
"""
