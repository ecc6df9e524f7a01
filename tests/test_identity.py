"""Security primitives for accounts (golf.identity): passwords, tokens, recovery codes,
sign-in limits and usernames."""

from __future__ import annotations

import hashlib
import re
import statistics
import time
import unicodedata
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golf.errors import GolfError
from golf.identity import SIGN_IN_FAILED, IdentityError
from golf.identity.common_passwords import COMMON_PASSWORDS
from golf.identity.errors import (
    PasswordRejected,
    RecoveryCodeRejected,
    TokenRejected,
    UsernameRejected,
)
from golf.identity.origin import allowed_origins, normalise_origin, same_origin
from golf.identity.passwords import (
    DEFAULT_PARAMS,
    MAX_LENGTH,
    HashParams,
    Passwords,
    check_password,
)
from golf.identity.ratelimit import (
    ACCOUNT_POLICY,
    ADDRESS_POLICY,
    LimitPolicy,
    SignInLimiter,
    address_key,
)
from golf.identity.recovery import (
    ALPHABET,
    RECOVERY_CODE_COUNT,
    RecoveryCodes,
    code_digest,
    find_code,
    issue_recovery_codes,
    normalise_code,
)
from golf.identity.tokens import (
    SECRET_BYTES,
    hash_secret,
    issue_token,
    parse_token,
    secret_matches,
    token_matches,
)
from golf.identity.usernames import RESERVED, check_username, lookup_key, username_key

#: Argon2id at its smallest cost: for tests of behaviour, not of cost.
CHEAP = HashParams(time_cost=1, memory_cost=8, parallelism=1)
PROPS = settings(max_examples=100, deadline=None)


# --- password policy -------------------------------------------------------------------

@pytest.mark.parametrize(("password", "code", "message"), [
    ("abc123xyz", "too_short", "at least 10 characters (this one has 9)"),
    ("x" * (MAX_LENGTH + 1), "too_long", f"at most {MAX_LENGTH} characters"),
    ("abababababab", "too_repetitive", "at least 4 different characters"),
    ("Password123", "too_common", "commonly used passwords"),
    ("QWERTYUIOP", "too_common", "commonly used passwords"),
])
def test_password_policy_refuses_with_clear_reasons(password: str, code: str,
                                                    message: str) -> None:
    with pytest.raises(PasswordRejected, match=re.escape(message)) as e:
        check_password(password)
    assert (e.value.code, e.value.field) == (code, "password")
    assert isinstance(e.value, GolfError)


def test_password_policy_accepts_ten_characters_and_passphrases() -> None:
    check_password("tr0ub4dor&")
    check_password("correct horse battery staple")
    check_password("Kaffee und Kuchen, bitte")
    check_password("ünïcödé längé")


def test_length_counts_characters_after_normalisation() -> None:
    composed = "é" * 5 + "abcd"  # 9 characters however the accents are typed
    decomposed = unicodedata.normalize("NFD", composed)
    assert len(decomposed) == 14
    for text in (composed, decomposed):
        with pytest.raises(PasswordRejected, match="this one has 9"):
            check_password(text)


def test_the_username_may_not_be_in_the_password() -> None:
    with pytest.raises(PasswordRejected, match="must not contain the username") as e:
        check_password("my-Annabel-2024!", username="annabel")
    assert e.value.code == "contains_username"
    check_password("planning a trip", username="ann")  # too short a name to judge by


@pytest.mark.parametrize("password", sorted(COMMON_PASSWORDS))
def test_every_listed_password_is_refused(password: str) -> None:
    with pytest.raises(PasswordRejected):
        check_password(password)
    with pytest.raises(PasswordRejected):
        check_password(password.upper())


# --- hashing ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cheap() -> Passwords:
    return Passwords(CHEAP)


def test_hash_and_verify(cheap: Passwords) -> None:
    h = cheap.hash("correct horse battery")
    assert h.startswith("$argon2id$v=19$m=8,t=1,p=1$")
    assert "correct" not in h
    assert cheap.hash("correct horse battery") != h  # a fresh salt each time
    assert cheap.verify(h, "correct horse battery")
    assert not cheap.verify(h, "correct horse batterY")
    assert not cheap.verify("not a hash", "correct horse battery")
    assert not cheap.verify("", "")


def test_the_same_password_typed_composed_or_not_matches(cheap: Passwords) -> None:
    h = cheap.hash(unicodedata.normalize("NFC", "Grüße aus Köln"))
    assert cheap.verify(h, unicodedata.normalize("NFD", "Grüße aus Köln"))


def test_default_parameters_are_owasps_argon2id() -> None:
    assert (DEFAULT_PARAMS.time_cost, DEFAULT_PARAMS.memory_cost,
            DEFAULT_PARAMS.parallelism) == (2, 19456, 1)
    real = Passwords()
    h = real.hash("correct horse battery")
    assert h.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert not real.needs_rehash(h)
    assert real.needs_rehash(Passwords(CHEAP).hash("correct horse battery"))
    assert real.needs_rehash("garbage")


def test_unknown_user_is_refused_like_a_wrong_password(cheap: Passwords) -> None:
    h = cheap.hash("correct horse battery")
    assert cheap.verify_sign_in(None, "correct horse battery") is False
    assert cheap.verify_sign_in(h, "wrong password") is False
    assert cheap.verify_sign_in(h, "correct horse battery") is True
    assert "exist" not in SIGN_IN_FAILED and "unknown" not in SIGN_IN_FAILED


def _median_seconds(run: list[tuple[str, Callable[[], object]]], rounds: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name, _ in run}
    for _ in range(rounds):
        for name, call in run:  # interleaved: a load spike hits every kind alike
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def test_unknown_user_and_wrong_password_take_similar_time() -> None:
    real = Passwords()
    stored = real.hash("correct horse battery")
    medians = _median_seconds([
        ("unknown", lambda: real.verify_sign_in(None, "a wrong guess")),
        ("wrong", lambda: real.verify_sign_in(stored, "a wrong guess")),
        ("naive", lambda: None),  # what answering "no such user" at once would cost
    ], rounds=11)
    ratio = medians["unknown"] / medians["wrong"]
    print(f"median seconds: {medians}; unknown/wrong = {ratio:.2f}")
    assert 1 / 3 < ratio < 3.0  # loose: a loaded machine skews medians; naive is 20x off
    # The measurement can tell the difference that the dummy hash removes.
    assert medians["naive"] < 0.05 * medians["wrong"]


# --- tokens ----------------------------------------------------------------------------

def test_tokens_are_random_and_stored_hashed() -> None:
    tokens = [issue_token() for _ in range(500)]
    assert len({t.secret for t in tokens}) == len({t.selector for t in tokens}) == 500
    t = tokens[0]
    assert len(t.secret) >= SECRET_BYTES * 4 // 3
    assert t.digest == hashlib.sha256(t.secret.encode()).hexdigest() == hash_secret(t.secret)
    assert t.secret not in repr(t) and t.secret not in t.digest
    assert parse_token(t.cookie) == (t.selector, t.secret)
    assert token_matches(t.cookie, t.selector, t.digest)
    assert not token_matches(t.cookie, tokens[1].selector, t.digest)
    assert not token_matches(f"{t.selector}.{tokens[1].secret}", t.selector, t.digest)
    assert not secret_matches(t.secret[:-1], t.digest)


@pytest.mark.parametrize("text", ["", "nodot", ".secret", "selector.", "a.b.c", "a b.c",
                                  "sel.sec;ret", "x" * 60 + "." + "y" * 80, "é.x"])
def test_malformed_tokens_get_one_message(text: str) -> None:
    with pytest.raises(TokenRejected) as e:
        parse_token(text)
    assert e.value.message == "this sign-in has expired or is not valid; sign in again"
    assert not token_matches(text, "a", hash_secret("b"))


@PROPS
@given(st.text(max_size=200))
def test_any_cookie_parses_or_is_rejected(text: str) -> None:
    try:
        selector, secret = parse_token(text)
    except TokenRejected:
        return
    assert f"{selector}.{secret}" == text


# --- recovery codes --------------------------------------------------------------------

def test_ten_codes_shown_once_stored_hashed() -> None:
    issued = issue_recovery_codes()
    assert len(issued.codes) == RECOVERY_CODE_COUNT == 10
    assert len(set(issued.codes)) == 10
    for code, digest in zip(issued.codes, issued.digests, strict=True):
        assert re.fullmatch(r"([0-9A-HJKMNP-TV-Z]{4}-){3}[0-9A-HJKMNP-TV-Z]{4}", code)
        assert digest == code_digest(code) and code.replace("-", "") not in digest
    assert "codes=" not in repr(issued)
    assert len(ALPHABET) == len(set(ALPHABET)) == 32 and not set("ILOU") & set(ALPHABET)


def test_codes_are_single_use() -> None:
    issued = issue_recovery_codes()
    book = RecoveryCodes(issued.digests)
    after = book.redeem(issued.codes[0])
    assert after is not None and after.remaining == 9
    assert after.redeem(issued.codes[0]) is None  # used
    assert book.redeem(issued.codes[0]) is not None  # the old state is unchanged
    assert after.redeem(issued.codes[1]) is not None


def test_typed_codes_are_forgiving() -> None:
    code = "0123-4567-89AB-CDEF"
    assert normalise_code(" o123 4567 89ab cdef ") == "0123456789ABCDEF"
    assert normalise_code("0I23-4567-89AB-CDEF") == normalise_code("0123-4567-89AB-CDEF")
    assert find_code("oi23456789abcdef", [None, code_digest(code)]) == 1
    assert find_code(code, [None, code_digest("0123-4567-89AB-CDEG")]) is None


@pytest.mark.parametrize("text", ["", "0123-4567-89AB", "0123-4567-89AB-CDEU",
                                  "0123-4567-89AB-CDEF-0", "0123-4567-89AB-CDE!"])
def test_malformed_codes_say_what_a_code_is(text: str) -> None:
    with pytest.raises(RecoveryCodeRejected, match="16 letters and digits") as e:
        normalise_code(text)
    assert e.value.field == "code"


@settings(max_examples=20, deadline=None)
@given(st.permutations(range(RECOVERY_CODE_COUNT)))
def test_every_code_works_once_in_any_order(order: list[int]) -> None:
    issued = issue_recovery_codes()
    book: RecoveryCodes | None = RecoveryCodes(issued.digests)
    for i in order:
        assert book is not None
        book = book.redeem(issued.codes[i])
    assert book is not None and book.remaining == 0
    assert all(book.redeem(c) is None for c in issued.codes)


# --- usernames -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["ann", "Ann_Smith", "j.doe-2", "X9z", "a" * 24, "golfer7"])
def test_allowed_usernames(name: str) -> None:
    assert check_username(f" {name} ") == name


@pytest.mark.parametrize(("name", "code", "message"), [
    ("ab", "too_short", "at least 3 characters (this one has 2)"),
    ("a" * 25, "too_long", "at most 24 characters (this one has 25)"),
    ("ann smith", "bad_characters", "not ' '"),
    ("jürgen", "bad_characters", "not 'ü'"),
    ("аnn", "bad_characters", "not 'а'"),  # Cyrillic a
    ("_ann", "bad_shape", "starts and ends with a letter or digit"),
    ("ann-", "bad_shape", "starts and ends"),
    ("an__n", "bad_shape", "at most one"),
    ("Admin", "reserved", "reserved"),
    ("MEDIUM", "reserved", "reserved"),
])
def test_refused_usernames_say_why(name: str, code: str, message: str) -> None:
    with pytest.raises(UsernameRejected, match=re.escape(message)) as e:
        check_username(name)
    assert (e.value.code, e.value.field) == (code, "username")
    assert isinstance(e.value, IdentityError)


@pytest.mark.parametrize("hidden", ["\u202e", "\u2066", "\u200f", "\u200e", "\u061c",
                                    "\u200d", "\u200b", "\ufeff", "\u3164"])
def test_a_username_with_a_bidirectional_or_invisible_character_is_refused(
        hidden: str) -> None:
    # A username is ASCII: no right-to-left override can turn "ann.exe" around.
    for name in (f"ann{hidden}k", f"{hidden}annk", f"annk{hidden}"):
        with pytest.raises(UsernameRejected) as e:
            check_username(name)
        assert e.value.code == "bad_characters"


def test_usernames_are_unique_regardless_of_case() -> None:
    assert username_key(check_username("Ann.Smith")) == username_key(check_username("aNN.sMITH"))
    assert lookup_key("  ANN.smith ") == username_key("Ann.Smith")
    assert all(r == r.lower() for r in RESERVED)


@PROPS
@given(st.text(max_size=30))
def test_any_text_is_a_username_or_refused(text: str) -> None:
    try:
        name = check_username(text)
    except UsernameRejected:
        return
    assert check_username(name) == name
    assert username_key(name).isascii() and username_key(name) == lookup_key(text)
    assert username_key(name) not in RESERVED


# --- sign-in limits --------------------------------------------------------------------

class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_free_failures_then_growing_delays_to_a_cap() -> None:
    clock = Clock()
    limiter = SignInLimiter(clock)
    waits: list[float] = []
    for _ in range(ACCOUNT_POLICY.free_failures + 14):
        limiter.failed("ann", f"192.0.2.{len(waits)}")  # a new address each time
        waits.append(limiter.wait("ann", "198.51.100.9"))
    free = ACCOUNT_POLICY.free_failures
    assert waits[:free] == [0.0] * free
    assert waits[free:free + 5] == [1.0, 2.0, 4.0, 8.0, 16.0]
    assert max(waits) == waits[-1] == ACCOUNT_POLICY.max_delay == 900.0


def test_the_wait_runs_down_with_the_clock() -> None:
    clock = Clock()
    limiter = SignInLimiter(clock)
    for _ in range(ACCOUNT_POLICY.free_failures + 3):
        limiter.failed("ann", "192.0.2.1")
    assert limiter.wait("ann", "192.0.2.1") == 4.0
    clock.now += 3.0
    assert limiter.wait("ann", "192.0.2.1") == 1.0
    clock.now += 1.0
    assert limiter.wait("ann", "192.0.2.1") == 0.0
    clock.now += ACCOUNT_POLICY.forget_after
    assert limiter.failures("ann", "192.0.2.1") == (0, 0)  # forgotten after a quiet day


def test_usernames_are_limited_alike_whether_or_not_they_exist() -> None:
    # The limiter is keyed by the text tried; it has no way to know which names exist.
    clock = Clock()
    limiter = SignInLimiter(clock)
    for name in ("ann", "nobody-has-this"):
        for _ in range(ACCOUNT_POLICY.free_failures + 1):
            limiter.failed(name, f"203.0.113.{len(name)}")
    assert limiter.wait("ann", "x") == limiter.wait("nobody-has-this", "x") == 1.0
    assert limiter.wait("ANN", "x") == 1.0  # the key ignores case, as usernames do


def test_one_address_guessing_many_usernames_is_slowed() -> None:
    clock = Clock()
    limiter = SignInLimiter(clock)
    for i in range(ADDRESS_POLICY.free_failures + 1):
        limiter.failed(f"user{i}", "192.0.2.50")
    assert limiter.wait("someone-new", "192.0.2.50") == 1.0
    assert limiter.wait("someone-new", "192.0.2.51") == 0.0


def test_success_forgets_the_account_not_the_address() -> None:
    clock = Clock()
    limiter = SignInLimiter(clock)
    for _ in range(ADDRESS_POLICY.free_failures + 2):
        limiter.failed("ann", "192.0.2.7")
    clock.now += 10_000
    limiter.succeeded("ann", "192.0.2.7")
    assert limiter.failures("ann", "192.0.2.7") == (0, ADDRESS_POLICY.free_failures + 2)


def test_ipv6_addresses_are_limited_by_their_64() -> None:
    clock = Clock()
    limiter = SignInLimiter(clock)
    for i in range(ADDRESS_POLICY.free_failures + 1):
        limiter.failed(f"user{i}", f"2001:db8:1:2::{i:x}")
    assert limiter.wait("new", "2001:db8:1:2:ffff::1") == 1.0
    assert limiter.wait("new", "2001:db8:1:3::1") == 0.0
    assert address_key("not an address") == "not an address"


def test_memory_is_bounded() -> None:
    clock = Clock()
    limiter = SignInLimiter(clock, max_keys=50)
    for i in range(200):
        limiter.failed(f"user{i}", f"192.0.2.{i % 250}")
    assert limiter.failures("user199", "192.0.2.199") == (1, 1)
    assert limiter.failures("user0", "192.0.2.0") == (0, 0)  # the oldest went first


@PROPS
@given(st.lists(st.tuples(st.sampled_from(["ann", "bob"]), st.sampled_from(["a", "b"]),
                          st.floats(0, 5000)), max_size=60))
def test_waits_stay_within_the_caps(events: list[tuple[str, str, float]]) -> None:
    clock = Clock()
    policy = LimitPolicy(free_failures=2, base_delay=0.5, factor=3.0, max_delay=60.0,
                         forget_after=3600.0)
    limiter = SignInLimiter(clock, account=policy, address=policy)
    for user, address, gap in events:
        clock.now += gap
        before = limiter.wait(user, address)
        assert 0.0 <= before <= policy.max_delay
        if before == 0.0:  # only an attempt that may be checked can fail
            limiter.failed(user, address)
            assert limiter.wait(user, address) >= before


# --- cross-site requests ---------------------------------------------------------------

SITE = allowed_origins(["https://golf.example", "http://127.0.0.1:8000", "http://[::1]:8000"])


@pytest.mark.parametrize(("origin", "referer", "ok"), [
    ("https://golf.example", None, True),
    ("HTTPS://GOLF.EXAMPLE:443", None, True),
    ("http://[::1]:8000", None, True),
    (None, "https://golf.example/tables/7?seat=1", True),
    ("https://evil.example", "https://golf.example/", False),  # Origin decides
    ("null", "https://golf.example/", False),
    (None, None, False),
    ("http://golf.example", None, False),  # another scheme is another origin
    ("https://golf.example:8443", None, False),
    ("https://golf.example.evil.example", None, False),
    ("https://golf.example@evil.example", None, False),
    (None, "https://evil.example/?next=https://golf.example", False),
    ("https://golf.example:99999", None, False),
    ("javascript:alert(1)", None, False),
])
def test_state_changing_requests_must_come_from_the_site(origin: str | None,
                                                         referer: str | None,
                                                         ok: bool) -> None:
    assert same_origin(origin, referer, SITE) is ok


def test_configured_origins_must_be_origins() -> None:
    with pytest.raises(ValueError, match="not an http"):
        allowed_origins(["golf.example"])
    assert normalise_origin("http://127.0.0.1:80/") == "http://127.0.0.1"


# --- docs/identity.md states the code's figures --------------------------------------------

def test_the_docs_figures_are_the_codes() -> None:
    from pathlib import Path

    from golf.identity import passwords, ratelimit, recovery, tokens, usernames

    text = (Path(__file__).resolve().parents[1] / "docs" / "identity.md").read_text()
    text = " ".join(text.split())  # lines wrap anywhere
    p = DEFAULT_PARAMS
    for phrase in [
        f"at least **{passwords.MIN_LENGTH}** and at most **{passwords.MAX_LENGTH}** "
        "characters",
        f"at least **{passwords.MIN_DISTINCT}** different characters",
        f"usernames of {passwords.MIN_USERNAME_IN_PASSWORD} characters or more",
        f"**{p.memory_cost // 1024} MiB** of memory, **{p.time_cost}** passes, "
        f"**{p.parallelism}** lane, a **{p.salt_len}**-byte random salt and a "
        f"**{p.hash_len}**-byte hash",
        f"a public random id of **{tokens.SELECTOR_BYTES}** bytes",
        f"the secret **{tokens.SECRET_BYTES}** random bytes",
        f"**{recovery.RECOVERY_CODE_COUNT}** one-time codes of **{recovery.CODE_LENGTH}** "
        f"symbols of Crockford's base32 ({recovery.CODE_LENGTH * 5} random bits",
        f"at most {ratelimit.MAX_KEYS:,} keys".replace(",", " "),
        f"{usernames.MIN_LENGTH} to {usernames.MAX_LENGTH} characters",
        f'"{SIGN_IN_FAILED}"',
    ]:
        assert phrase in text, phrase
    assert p.memory_cost % 1024 == 0
    for name, policy in (("username", ACCOUNT_POLICY), ("address", ADDRESS_POLICY)):
        longest = (f"{policy.max_delay / 60:g} min" if policy.max_delay < 3600
                   else f"{policy.max_delay / 3600:g} h")
        row = (f"| {name} | {policy.free_failures} | {policy.base_delay:g} s | "
               f"{policy.factor:g} | {longest} | {policy.forget_after / 3600:g} h quiet |")
        assert row in re.sub(r" +", " ", text), row
