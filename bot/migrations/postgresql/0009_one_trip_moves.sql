-- A move in one round trip (see ../0009_one_trip_moves.sql): one call of this function stores
-- record line p_ply with the game's snapshot and clock, and, when the move ends the game, its
-- outcome, every seat's result and the new ratings, all in the call's own transaction.
--
-- Returns 'stored', or 'stale' (nothing written) when the game is not at ply p_ply - 1 and
-- playing: the conditional UPDATE waits for a competing transaction and then sees its result.
-- p_results: a JSON array of results (seat, user_id, ai_level, rank, score, forfeited, won,
-- draw, helped). p_ratings: a JSON array of the new ratings (scope_id, user_id, mu, sigma,
-- display) each with "seen", the rated_games the caller computed it from; if any player's row
-- has moved on since (another process rated them meanwhile), the call fails with
-- serialization_failure (40001) and nothing is written: the caller reads the ratings again.
CREATE FUNCTION tilehost_record_move(
    p_game_id     BIGINT,
    p_ply         INTEGER,
    p_seat        INTEGER,
    p_notation    TEXT,
    p_user_id     BIGINT,
    p_snapshot    JSONB,
    p_deadline    DOUBLE PRECISION,
    p_reminder_at DOUBLE PRECISION,
    p_now         DOUBLE PRECISION,
    p_outcome     JSONB,
    p_results     JSONB,
    p_ratings     JSONB
) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
    v_game   TEXT;
    v_guild  BIGINT;
    v_rated  INTEGER;
BEGIN
    UPDATE games SET ply = p_ply, snapshot = p_snapshot, deadline = p_deadline,
                     reminder_at = p_reminder_at, updated_at = p_now
        WHERE id = p_game_id AND ply = p_ply - 1 AND status = 'playing'
        RETURNING game, guild_id INTO v_game, v_guild;
    IF NOT FOUND THEN
        RETURN 'stale';
    END IF;
    INSERT INTO moves (game_id, ply, seat, notation, user_id, created_at)
        VALUES (p_game_id, p_ply, p_seat, p_notation, p_user_id, p_now);
    IF p_outcome IS NULL THEN
        RETURN 'stored';
    END IF;

    UPDATE games SET status = 'finished', outcome = p_outcome, deadline = NULL, reminder_at = NULL,
                     finished_at = p_now
        WHERE id = p_game_id;
    INSERT INTO results (game_id, seat, user_id, ai_level, game, guild_id, rank, score, forfeited,
                         won, draw, helped, finished_at)
        SELECT p_game_id, r.seat, r.user_id, r.ai_level, v_game, v_guild, r.rank, r.score,
               r.forfeited, r.won, r.draw, r.helped, p_now
        FROM jsonb_to_recordset(p_results) AS r(seat INTEGER, user_id BIGINT, ai_level TEXT,
             rank INTEGER, score INTEGER, forfeited INTEGER, won INTEGER, draw INTEGER,
             helped INTEGER);
    IF p_ratings IS NULL OR jsonb_array_length(p_ratings) = 0 THEN
        RETURN 'stored';
    END IF;

    -- Newcomers get their row; a row is changed only where it still is what the caller saw.
    -- Rows are taken in one order (scope, user) so that two finishing games cannot deadlock.
    INSERT INTO ratings AS old (scope_id, game, user_id, mu, sigma, display, rated_games, updated_at)
        SELECT n.scope_id, v_game, n.user_id, n.mu, n.sigma, n.display, n.seen + 1, p_now
        FROM jsonb_to_recordset(p_ratings) AS n(scope_id BIGINT, user_id BIGINT,
             mu DOUBLE PRECISION, sigma DOUBLE PRECISION, display DOUBLE PRECISION, seen INTEGER)
        WHERE n.seen = 0 OR EXISTS (
            SELECT 1 FROM ratings c
            WHERE c.scope_id = n.scope_id AND c.game = v_game AND c.user_id = n.user_id
        )
        ORDER BY n.scope_id, n.user_id
        ON CONFLICT (scope_id, game, user_id) DO UPDATE
            SET mu = excluded.mu, sigma = excluded.sigma, display = excluded.display,
                rated_games = old.rated_games + 1, updated_at = excluded.updated_at
            WHERE old.rated_games + 1 = excluded.rated_games;
    GET DIAGNOSTICS v_rated = ROW_COUNT;
    IF v_rated <> jsonb_array_length(p_ratings) THEN
        RAISE EXCEPTION 'ratings of game % changed while it finished', p_game_id
            USING ERRCODE = 'serialization_failure';
    END IF;
    RETURN 'stored';
END;
$$;
