-- What standings group a game's results by besides the game (Game.variant: the solitaire's
-- target), written when the game is created. Stored solitaire games get their target (the
-- named targets are their own canonical names; the default target when none is stored).
ALTER TABLE games ADD COLUMN variant TEXT;
UPDATE games SET variant = COALESCE(json_extract(options, '$.target'), '6x10') WHERE game = 'puzzosolo';

-- A win with help (a solitaire solved with hints): standings count it apart, never as a win.
-- Stored solves with hints say so in their outcome's reason ("solved 6x10 with 2 hints").
ALTER TABLE results ADD COLUMN helped INTEGER NOT NULL DEFAULT 0;
UPDATE results SET helped = 1
    WHERE game = 'puzzosolo' AND won = 1 AND game_id IN (
        SELECT id FROM games
        WHERE game = 'puzzosolo' AND json_extract(outcome, '$.reason') LIKE 'solved % with % hint%'
    );

-- The leaderboards count wins without help: their covering indexes hold the flag.
DROP INDEX results_leaderboard_guild;
DROP INDEX results_leaderboard_global;
CREATE INDEX results_leaderboard_guild ON results (game, guild_id, user_id, won, helped);
CREATE INDEX results_leaderboard_global ON results (game, user_id, won, helped);
