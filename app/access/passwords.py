"""Password hashing (argon2id) and the password strength rule."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# OWASP's argon2id configuration (Password Storage Cheat Sheet: 19 MiB, 2 iterations, 1 lane). Measured on
# a 2-core machine: 33 ms of one core per check, against 255 ms spread over every core for argon2-cffi's
# default (64 MiB, 3 iterations, 4 lanes), which let ten sign-ins a second take the whole machine and stall
# everyone's clicks (bench/loop_stall.py). Hashes made with other parameters still verify and are
# upgraded at the next sign-in (`needs_rehash`).
_hasher = PasswordHasher(time_cost=2, memory_cost=19_456, parallelism=1)
# Verifying against this keeps the time of "unknown e-mail" equal to "wrong password".
_DUMMY_HASH = _hasher.hash("not-a-real-password")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def needs_rehash(password_hash: str) -> bool:
    """True when the hash was made with other parameters than today's."""
    try:
        return _hasher.check_needs_rehash(password_hash)
    except InvalidHashError:
        return True


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False
