"""The standings picture: 1000 px wide, every text readable on a phone (400 px wide), long and
foreign names shortened rather than spilling over the numbers, the winners marked."""

from __future__ import annotations

from rendering.common import MIN_PHONE_TEXT, WIDTH, phone_px, recording_text
from rendering.tournament import ROW, standings_image, standings_png

HEADINGS = ["#", "Player", "Pts", "BH-C1", "BH", "SB", "Game pts", "Games", "Byes"]


def rows(count: int) -> list[list[str]]:
    names = ["Αλέξανδρος Παπαδόπουλος-Κωνσταντινίδης", "Дмитрий", "José", "Łukasz 🎲", "Ada (computer)"]
    return [
        [
            str(i + 1),
            names[i % len(names)] + (f" {i}" if i >= len(names) else ""),
            "12½",
            "30½",
            "35",
            "28¾",
            "1234",
            "11",
            "1",
        ]
        for i in range(count)
    ]


def test_every_text_reads_on_a_phone() -> None:
    with recording_text() as drawn:
        image = standings_image(
            "Spring Swiss — after round 3", "Tri-Ominos · Swiss · 40 players", HEADINGS, rows(40)
        )
    assert image.width == WIDTH
    assert image.height >= 40 * ROW
    smallest = min(text.height for text in drawn)
    assert phone_px(smallest) >= MIN_PHONE_TEXT, phone_px(smallest)


def test_long_names_are_shortened_and_the_picture_is_a_png() -> None:
    with recording_text() as drawn:
        standings_image("T", "S", HEADINGS, rows(5))
    texts = [text.text for text in drawn]
    assert any(text.endswith("…") for text in texts), "the long Greek name is cut"
    assert "Łukasz 🎲" in texts, "names keep their emoji (drawn in colour)"
    png = standings_png("T", "S", HEADINGS, rows(3), 1)
    assert png.startswith(b"\x89PNG")
