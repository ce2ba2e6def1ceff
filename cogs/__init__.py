"""Discord cogs: one thin GroupCog per game, plus the lobby (and, later, leaderboards)."""
