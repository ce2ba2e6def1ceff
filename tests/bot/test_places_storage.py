"""Storage of a table's places and of "the last game here" (issue 22), on both engines."""

from __future__ import annotations

from bot.storage import Storage
from tests.bot.test_storage import NOW, finish, new_game, storage  # noqa: F401 (the fixture)


async def test_the_last_game_here_prefers_the_askers_own_then_a_tables(storage: Storage) -> None:  # noqa: F811
    table = await new_game(storage, (1, 2), game="tiny")
    solo = await new_game(storage, (3,), game="solo")
    await finish(storage, table, (1, 2), (1, 2), game="tiny")
    await finish(storage, solo, (1,), (3,), game="solo")
    games = ("tiny", "solo")
    assert solo > table
    for asker, expected in ((1, table), (2, table), (3, solo), (9, table), (None, table)):
        found = await storage.last_finished(10, games, asker)
        assert found is not None and found.id == expected, (asker, found)
    later = await new_game(storage, (3,), game="solo")
    await finish(storage, later, (1,), (3,), game="solo", now=NOW + 61)
    found = await storage.last_finished(10, games, 1)
    assert found is not None and found.id == later, "the one that ended last, whoever asks"


async def test_a_tables_places_are_stored(storage: Storage) -> None:  # noqa: F811
    game_id = await new_game(storage)
    await storage.set_lobby_message(game_id, 500)
    await storage.set_room(game_id, 10)
    row = await storage.game(game_id)
    assert row is not None and (row.message_id, row.lobby_message_id, row.room_id) == (500, 500, 10)
    await storage.set_thread(game_id, 600)
    row = await storage.game(game_id)
    assert row is not None and (row.thread_id, row.room_id, row.lobby_message_id) == (600, None, 500)
    (active,) = await storage.active_games()
    assert active.lobby_message_id == 500
