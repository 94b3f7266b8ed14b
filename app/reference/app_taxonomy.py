"""The smart-app taxonomy (spec section 3: category, category_id, genre, genre_id, subgenre, subgenre_id) as
reference data, declared once here.

Sources: Apple's App Store genre ids, as its iTunes Search/genre service publishes them (the store's root genre
"App Store" is 36; its categories are 6000-6027; Games 6014 has the subgenres 7001-7019, 7010 retired), and
Google Play's category constants, as its developer console and the Play Store URLs
(play.google.com/store/apps/category/<ID>) name them (the GAME_* categories are Games' subgenres).

Category is the store, genre a store category, subgenre a game genre. A genre with no subgenres is chosen on
its own (subgenre_id ""). Ids are text: Apple's are numbers, Google's are constants.
"""

from __future__ import annotations

from typing import Any

Node = tuple[str, str]  # (id, name)

_APPLE_GAMES: tuple[Node, ...] = (
    ("7001", "Action"), ("7002", "Adventure"), ("7003", "Casual"), ("7004", "Board"), ("7005", "Card"),
    ("7006", "Casino"), ("7007", "Dice"), ("7008", "Educational"), ("7009", "Family"), ("7011", "Music"),
    ("7012", "Puzzle"), ("7013", "Racing"), ("7014", "Role Playing"), ("7015", "Simulation"), ("7016", "Sports"),
    ("7017", "Strategy"), ("7018", "Trivia"), ("7019", "Word"))
_APPLE: tuple[tuple[str, str, tuple[Node, ...]], ...] = (
    ("6018", "Books", ()), ("6000", "Business", ()), ("6022", "Catalogs", ()), ("6026", "Developer Tools", ()),
    ("6017", "Education", ()), ("6016", "Entertainment", ()), ("6015", "Finance", ()), ("6023", "Food & Drink", ()),
    ("6014", "Games", _APPLE_GAMES), ("6027", "Graphics & Design", ()), ("6013", "Health & Fitness", ()),
    ("6012", "Lifestyle", ()), ("6021", "Magazines & Newspapers", ()), ("6020", "Medical", ()), ("6011", "Music", ()),
    ("6010", "Navigation", ()), ("6009", "News", ()), ("6008", "Photo & Video", ()), ("6007", "Productivity", ()),
    ("6006", "Reference", ()), ("6024", "Shopping", ()), ("6005", "Social Networking", ()), ("6004", "Sports", ()),
    ("6025", "Stickers", ()), ("6003", "Travel", ()), ("6002", "Utilities", ()), ("6001", "Weather", ()))

_GOOGLE_GAMES: tuple[Node, ...] = tuple((f"GAME_{key}", name) for key, name in (
    ("ACTION", "Action"), ("ADVENTURE", "Adventure"), ("ARCADE", "Arcade"), ("BOARD", "Board"), ("CARD", "Card"),
    ("CASINO", "Casino"), ("CASUAL", "Casual"), ("EDUCATIONAL", "Educational"), ("MUSIC", "Music"),
    ("PUZZLE", "Puzzle"), ("RACING", "Racing"), ("ROLE_PLAYING", "Role Playing"), ("SIMULATION", "Simulation"),
    ("SPORTS", "Sports"), ("STRATEGY", "Strategy"), ("TRIVIA", "Trivia"), ("WORD", "Word")))
_GOOGLE: tuple[tuple[str, str, tuple[Node, ...]], ...] = (
    ("ART_AND_DESIGN", "Art & Design", ()), ("AUTO_AND_VEHICLES", "Auto & Vehicles", ()), ("BEAUTY", "Beauty", ()),
    ("BOOKS_AND_REFERENCE", "Books & Reference", ()), ("BUSINESS", "Business", ()), ("COMICS", "Comics", ()),
    ("COMMUNICATION", "Communication", ()), ("DATING", "Dating", ()), ("EDUCATION", "Education", ()),
    ("ENTERTAINMENT", "Entertainment", ()), ("EVENTS", "Events", ()), ("FINANCE", "Finance", ()),
    ("FOOD_AND_DRINK", "Food & Drink", ()), ("GAME", "Games", _GOOGLE_GAMES),
    ("HEALTH_AND_FITNESS", "Health & Fitness", ()), ("HOUSE_AND_HOME", "House & Home", ()),
    ("LIBRARIES_AND_DEMO", "Libraries & Demo", ()), ("LIFESTYLE", "Lifestyle", ()),
    ("MAPS_AND_NAVIGATION", "Maps & Navigation", ()), ("MEDICAL", "Medical", ()),
    ("MUSIC_AND_AUDIO", "Music & Audio", ()), ("NEWS_AND_MAGAZINES", "News & Magazines", ()),
    ("PARENTING", "Parenting", ()), ("PERSONALIZATION", "Personalization", ()), ("PHOTOGRAPHY", "Photography", ()),
    ("PRODUCTIVITY", "Productivity", ()), ("SHOPPING", "Shopping", ()), ("SOCIAL", "Social", ()),
    ("SPORTS", "Sports", ()), ("TOOLS", "Tools", ()), ("TRAVEL_AND_LOCAL", "Travel & Local", ()),
    ("VIDEO_PLAYERS", "Video Players & Editors", ()), ("WEATHER", "Weather", ()))

CATEGORIES: tuple[tuple[str, str, tuple[tuple[str, str, tuple[Node, ...]], ...]], ...] = (
    ("36", "Apple App Store", _APPLE),
    ("GOOGLE_PLAY", "Google Play", _GOOGLE),
)
_BY_ID = {cid: (name, {gid: (gname, dict(subs)) for gid, gname, subs in genres}) for cid, name, genres in CATEGORIES}


def categories() -> list[dict[str, str]]:
    return [{"category_id": cid, "category": name} for cid, name, _genres in CATEGORIES]


def genres(category_id: str) -> list[dict[str, Any]]:
    """The genres of a category (none for an unknown one), each saying whether it has subgenres."""
    _name, found = _BY_ID.get(category_id, ("", {}))
    return [{"genre_id": gid, "genre": name, "has_subgenres": bool(subs)} for gid, (name, subs) in found.items()]


def subgenres(category_id: str, genre_id: str) -> list[dict[str, str]]:
    _name, found = _BY_ID.get(category_id, ("", {}))
    _genre, subs = found.get(genre_id, ("", {}))
    return [{"subgenre_id": sid, "subgenre": name} for sid, name in subs.items()]


def describe(category_id: str, genre_id: str, subgenre_id: str) -> dict[str, str] | None:
    """The six taxonomy fields of a choice, or None when the choice is not a path of the taxonomy. The subgenre
    is optional: none means the whole genre (all games)."""
    category, found = _BY_ID.get(category_id, ("", {}))
    genre, subs = found.get(genre_id, ("", {}))
    if not category or not genre or (subgenre_id and subgenre_id not in subs):
        return None
    return {"category_id": category_id, "category": category, "genre_id": genre_id, "genre": genre,
            "subgenre_id": subgenre_id, "subgenre": subs.get(subgenre_id, "")}
