"""Between games and between moves (issue 25): a member's turns at a glance (:mod:`.turns`),
rematches (:mod:`bot.sessions.rematch`), the engine's review of a finished game
(:mod:`.review`) and the daily solitaire challenge (:mod:`.daily`). No discord here."""
