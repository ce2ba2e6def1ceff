-- Tile Up!'s safety end changed (issue 13): a run of full rounds without a placement now ends
-- the game after ten rounds instead of three. Games stored before the change keep the old rule
-- (option idle_rounds = 3), so that their records replay to the same end. Lobbies have no moves
-- yet and start under the new rule.
UPDATE games SET options = json_set(options, '$.idle_rounds', 3)
WHERE game = 'tileup' AND status <> 'lobby' AND json_extract(options, '$.idle_rounds') IS NULL;
