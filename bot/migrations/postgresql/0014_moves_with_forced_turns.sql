-- A move and the forced turns after it in one round trip (see ../0014_moves_with_forced_turns.sql):
-- one call of this function stores consecutive record lines from p_first_ply on, with the game's
-- snapshot and clock after the last, and, when the last line ends the game, its outcome, every
-- seat's result and the new ratings, all in the call's own transaction.
--
-- p_lines: a JSON array of lines (seat, notation, user_id), the first one at ply p_first_ply.
-- Every line but the last is stored here (the game's ply checked and moved on once); the last
-- goes through tilehost_record_move (migration 0009) in the same transaction, so the end of a
-- game is written in one place. Returns 'stored', or 'stale' (nothing written) when the game is
-- not at ply p_first_ply - 1 and playing; fails with serialization_failure as 0009's function
-- does when a player's rating moved on meanwhile (nothing written).
CREATE FUNCTION tilehost_record_moves(
    p_game_id     BIGINT,
    p_first_ply   INTEGER,
    p_lines       JSONB,
    p_snapshot    JSONB,
    p_deadline    DOUBLE PRECISION,
    p_reminder_at DOUBLE PRECISION,
    p_now         DOUBLE PRECISION,
    p_outcome     JSONB,
    p_results     JSONB,
    p_ratings     JSONB
) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
    v_count INTEGER := jsonb_array_length(p_lines);
    v_last  JSONB;
BEGIN
    IF v_count < 1 THEN
        RAISE EXCEPTION 'no record line to store for game %', p_game_id;
    END IF;
    v_last := p_lines -> (v_count - 1);
    IF v_count > 1 THEN
        UPDATE games SET ply = p_first_ply + v_count - 2
            WHERE id = p_game_id AND ply = p_first_ply - 1 AND status = 'playing';
        IF NOT FOUND THEN
            RETURN 'stale';
        END IF;
        INSERT INTO moves (game_id, ply, seat, notation, user_id, created_at)
            SELECT p_game_id, p_first_ply + (l.n - 1)::INTEGER, (l.v ->> 'seat')::INTEGER,
                   l.v ->> 'notation', (l.v ->> 'user_id')::BIGINT, p_now
            FROM jsonb_array_elements(p_lines) WITH ORDINALITY AS l(v, n)
            WHERE l.n < v_count;
    END IF;
    RETURN tilehost_record_move(
        p_game_id, p_first_ply + v_count - 1, (v_last ->> 'seat')::INTEGER, v_last ->> 'notation',
        (v_last ->> 'user_id')::BIGINT, p_snapshot, p_deadline, p_reminder_at, p_now, p_outcome,
        p_results, p_ratings
    );
END;
$$;
