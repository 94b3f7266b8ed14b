"""Password hashes: argon2id at OWASP's cost; hashes made with other parameters still sign in and are
upgraded on the way."""

from __future__ import annotations

from argon2 import PasswordHasher

from app.access.passwords import hash_password, needs_rehash, verify_password
from app.accounts import service as accounts
from app.demo.seed import DEMO_PASSWORD
from tests.helpers import user_by_email


def test_new_hashes_use_owasp_argon2id_parameters() -> None:
    encoded = hash_password("s3cret-Pass")
    assert encoded.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert verify_password(encoded, "s3cret-Pass")
    assert not verify_password(encoded, "s3cret-Pass!")
    assert not verify_password(None, "s3cret-Pass")


def test_an_older_hash_signs_in_and_is_upgraded(db) -> None:  # type: ignore[no-untyped-def]
    user = user_by_email(db, "agency@demo.example")
    user.password_hash = PasswordHasher(time_cost=3, memory_cost=65_536, parallelism=4).hash(DEMO_PASSWORD)
    db.add(user)
    db.flush()
    assert needs_rehash(user.password_hash)
    accounts.login(db, email="agency@demo.example", password=DEMO_PASSWORD, kind="browser")
    db.flush()
    db.refresh(user)
    assert not needs_rehash(user.password_hash)
    assert verify_password(user.password_hash, DEMO_PASSWORD)
