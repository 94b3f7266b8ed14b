"""The checks that compare a campaign with recent delivery in the statistics store: targeting that matched none
of the advertiser's delivery of the last 7 days, and a bid below what comparable delivery cleared at. Both read
the same rows (Subject.recent_delivery: one grouped query, a few hundred rows at most, whatever the store's size).

"Comparable" is the advertiser's own delivery: the store answers a user only inside their row scope, and one
advertiser's rows keep the query within the 200 ms the check is allowed at 10M rows (bench/diagnosis.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.campaigns.diagnosis.checks import CHECKS, PLACEMENT_KEYS, RECENT_DAYS, Subject, reason
from app.campaigns.diagnosis.schemas import Reason
from app.kernel.i18n.catalog import Message
from app.kernel.money import dollars
from app.reference import metadata
from app.warehouse.base import StatsRow, whole

NO_MATCH = ("None of the advertiser's delivery of the last {days} days matched this targeting ({targeting}): there "
            "may be little or no inventory for it.")
WIDEN = "Widen the targeting"
BID_LOW = ("The bid of ${bid} {strategy} is below the ${median} that comparable delivery cleared at in the last "
           "{days} days: it will win few auctions.")
RAISE_BID = "Raise the bid"
# Where the bid is compared: delivery on the campaign's exchanges and countries (what prices an auction most).
COMPARABLE_KEYS = ("exchange", "country")


def targeted(subject: Subject) -> dict[str, set[str]]:
    """The campaign's targeting on the store's placement dimensions, as the store names the values (exchanges
    and operating systems by name); a dimension left open is not in it."""
    targeting = subject.campaign.targeting or {}
    reference_ids = [int(i) for key in ("exchanges", "operating_systems") for i in targeting.get(key) or []]
    named = metadata.names_by_id(subject.db, reference_ids)
    wanted: dict[str, set[str]] = {}
    for key, store_key in PLACEMENT_KEYS.items():
        values = targeting.get(key) or []
        if values:
            wanted[store_key] = {named.get(int(v), f"#{v}") for v in values} if key in ("exchanges", "operating_systems") \
                else {str(v) for v in values}
    return wanted


def _matches(row: Mapping[str, Any], wanted: Mapping[str, set[str]]) -> bool:
    return all(row.get(key) in values for key, values in wanted.items())


def targeting(subject: Subject) -> list[Reason]:
    wanted, rows = targeted(subject), subject.recent_delivery
    if not wanted or not rows or any(_matches(row, wanted) for row in rows):
        return []  # nothing narrowed, no history to judge by, or some delivery matched
    seen = {key: {row.get(key) for row in rows} for key in wanted}
    never_seen = sorted(f"{key}:{value}" for key, values in wanted.items() for value in values - seen[key])
    shown = "; ".join(f"{key} {', '.join(sorted(values))}" for key, values in sorted(wanted.items()))
    return [reason("targeting_no_delivery", "limiting", Message(NO_MATCH, days=RECENT_DAYS, targeting=shown),
                   subject.fix(Message(WIDEN), "campaign.edit"), never_seen=never_seen,
                   **{key: sorted(values) for key, values in wanted.items()})]


def weighted_percentiles(samples: Sequence[tuple[float, int]], points: Sequence[float]) -> list[float]:
    """The values at `points` (0..1) of samples (value, weight): the smallest value whose cumulative weight
    reaches each point. Hand-written: a dozen lines over a few hundred grouped rows, where numpy would weigh
    more than the rest of the check."""
    ordered = sorted(samples)
    total = sum(weight for _, weight in ordered)
    answers = []
    for point in points:
        reached = 0
        for value, weight in ordered:
            reached += weight
            if reached >= point * total:
                answers.append(value)
                break
    return answers


def _prices(rows: Sequence[StatsRow], strategy: str) -> list[tuple[float, int]]:
    """(price in micro-dollars, weight) per row: CPM over impressions, CPC over clicks."""
    per, count_key = (1000, "impressions") if strategy == "cpm" else (1, "clicks")
    return [(whole(row.get("spend_micros")) * per / whole(row.get(count_key)), whole(row.get(count_key)))
            for row in rows if whole(row.get(count_key)) > 0]


def bid(subject: Subject) -> list[Reason]:
    campaign = subject.campaign
    wanted = {key: values for key, values in targeted(subject).items() if key in COMPARABLE_KEYS}
    samples = _prices([row for row in subject.recent_delivery if _matches(row, wanted)], campaign.bid_strategy)
    if not samples:
        return []
    p25, median, p75 = (round(value) for value in weighted_percentiles(samples, (0.25, 0.5, 0.75)))
    if campaign.bid_micros >= median:
        return []
    strategy = campaign.bid_strategy.upper()
    return [reason("bid_below_market", "limiting",
                   Message(BID_LOW, bid=dollars(campaign.bid_micros), strategy=strategy, median=dollars(median),
                           days=RECENT_DAYS),
                   subject.fix(Message(RAISE_BID), "campaign.edit"), bid=dollars(campaign.bid_micros),
                   strategy=strategy, p25=dollars(p25), median=dollars(median), p75=dollars(p75),
                   samples=sum(weight for _, weight in samples))]


def delivery(subject: Subject) -> list[Reason]:
    return [*targeting(subject), *bid(subject)]


CHECKS.register("delivery", delivery)
