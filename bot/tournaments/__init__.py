"""Tournaments: Swiss and round robin events of any game, paired, clocked and ranked by the bot."""
