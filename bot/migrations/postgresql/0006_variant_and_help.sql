-- The standings' variant of each game and the flag of a win with help (see
-- ../0006_variant_and_help.sql).
ALTER TABLE games ADD COLUMN variant TEXT;
UPDATE games SET variant = COALESCE(options ->> 'target', '6x10') WHERE game = 'puzzosolo';

ALTER TABLE results ADD COLUMN helped INTEGER NOT NULL DEFAULT 0;
UPDATE results SET helped = 1
    WHERE game = 'puzzosolo' AND won = 1 AND game_id IN (
        SELECT id FROM games
        WHERE game = 'puzzosolo' AND outcome ->> 'reason' LIKE 'solved % with % hint%'
    );

DROP INDEX results_leaderboard_guild;
DROP INDEX results_leaderboard_global;
CREATE INDEX results_leaderboard_guild ON results (game, guild_id, user_id, won, helped);
CREATE INDEX results_leaderboard_global ON results (game, user_id, won, helped);
