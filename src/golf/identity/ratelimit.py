"""Sign-in rate limits per account and per address, with growing delays.

Each failed sign-in counts against the username tried (whether or not an account has
it, so the limit itself tells nothing about which names exist) and against the
address it came from. After a number of free failures, each further failure makes
the next attempt wait: ``base``, then twice that, doubling up to a cap. An attempt
during the wait is refused without checking the password and does not count.
Failures are forgotten after a quiet spell; a success forgets the account's failures,
never the address's (else an attacker with one account of their own could reset
their address between guesses on others).

:class:`SignInLimiter` is pure: it reads time from an injected clock and keeps its
state in memory, bounded to :data:`MAX_KEYS` keys (the least recently failed go
first). The server keeps the same counts in its database instead (golf.server.players.limits),
shared by every process of a cluster, with the same policies, keys (:func:`limit_keys`)
and waits (:meth:`LimitPolicy.wait`); there an attempt is *reserved* before its password
is verified (the check and the count are one step, a success gives it back), else a
burst of guesses sent at once would all pass the check before the first failed.

>>> now = [0.0]
>>> limiter = SignInLimiter(lambda: now[0])
>>> for _ in range(ACCOUNT_POLICY.free_failures + 1):
...     limiter.failed("ann", "192.0.2.7")
>>> limiter.wait("ann", "192.0.2.7"), limiter.wait("bob", "192.0.2.7")
(1.0, 0.0)
>>> now[0] = 1.0
>>> limiter.wait("Ann", "198.51.100.1")
0.0
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from .usernames import lookup_key

__all__ = ["ACCOUNT_POLICY", "ADDRESS_POLICY", "MAX_KEYS", "LimitPolicy", "SignInLimiter",
           "address_key", "limit_keys"]

#: Keys (usernames and addresses) a limiter remembers at most.
MAX_KEYS = 100_000


@dataclass(frozen=True)
class LimitPolicy:
    """How failures turn into waits: ``free_failures`` cost nothing; the next makes
    the following attempt wait ``base_delay`` seconds, each further one ``factor``
    times longer, at most ``max_delay``; ``forget_after`` seconds without a failure
    clear the count."""

    free_failures: int
    base_delay: float
    factor: float
    max_delay: float
    forget_after: float

    def delay(self, failures: int) -> float:
        """The wait after ``failures`` counted failures.

        >>> [ACCOUNT_POLICY.delay(n) for n in (0, 5, 6, 7, 8)]
        [0.0, 0.0, 1.0, 2.0, 4.0]
        >>> ACCOUNT_POLICY.delay(40)
        900.0
        """
        over = failures - self.free_failures
        if over < 1:
            return 0.0
        # Capped before the power so that a huge count cannot overflow a float.
        return float(min(self.max_delay, self.base_delay * self.factor ** min(over - 1, 64)))

    def wait(self, failures: int, last: float, now: float) -> float:
        """Seconds still to wait at ``now`` after ``failures`` counted, the last at
        ``last`` (0 once they are forgotten).

        >>> ACCOUNT_POLICY.wait(7, 100.0, 101.5), ACCOUNT_POLICY.wait(7, 100.0, 103.0)
        (0.5, 0.0)
        """
        if now - last >= self.forget_after:
            return 0.0
        return max(0.0, last + self.delay(failures) - now)


#: Per username: five free failures (typos), then 1 s doubling to 15 minutes.
ACCOUNT_POLICY = LimitPolicy(free_failures=5, base_delay=1.0, factor=2.0, max_delay=900.0,
                             forget_after=24 * 3600.0)
#: Per address: more free failures (a household or school shares one address), then
#: 1 s doubling to an hour.
ADDRESS_POLICY = LimitPolicy(free_failures=20, base_delay=1.0, factor=2.0,
                             max_delay=3600.0, forget_after=24 * 3600.0)


def address_key(address: str) -> str:
    """The key an address is limited by: an IPv4 address itself, an IPv6 address's
    /64 network (one subscriber usually holds a whole /64). Text that is no address
    is its own key.

    >>> address_key("2001:db8::1"), address_key("2001:db8::2:3"), address_key("::ffff:192.0.2.1")
    ('2001:db8::/64', '2001:db8::/64', '192.0.2.1')
    """
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def limit_keys(username: str, address: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """The two keys an attempt counts against: the username's lookup key (any case,
    whether or not an account has it) and the address's key.

    >>> limit_keys("Ann", "2001:db8::1")
    (('account', 'ann'), ('address', '2001:db8::/64'))
    """
    return ("account", lookup_key(username)), ("address", address_key(address))


@dataclass
class _Count:
    failures: int
    last: float


class SignInLimiter:
    """Counts failed sign-ins per username and per address, and says how long the next
    attempt must wait."""

    def __init__(self, clock: Callable[[], float], account: LimitPolicy = ACCOUNT_POLICY,
                 address: LimitPolicy = ADDRESS_POLICY, max_keys: int = MAX_KEYS) -> None:
        self.clock = clock
        self.account = account
        self.address = address
        self.max_keys = max_keys
        self._counts: OrderedDict[tuple[str, str], _Count] = OrderedDict()

    def _keys(self, username: str, address: str) -> tuple[tuple[str, str], tuple[str, str]]:
        return limit_keys(username, address)

    def _policy(self, key: tuple[str, str]) -> LimitPolicy:
        return self.account if key[0] == "account" else self.address

    def _live(self, key: tuple[str, str], now: float) -> _Count | None:
        count = self._counts.get(key)
        if count is not None and now - count.last >= self._policy(key).forget_after:
            del self._counts[key]
            return None
        return count

    def wait(self, username: str, address: str) -> float:
        """Seconds before a sign-in for ``username`` from ``address`` may be checked;
        0 when it may be checked now."""
        now = self.clock()
        out = 0.0
        for key in self._keys(username, address):
            count = self._live(key, now)
            if count is not None:
                out = max(out, self._policy(key).wait(count.failures, count.last, now))
        return out

    def failed(self, username: str, address: str) -> None:
        """Count a failed sign-in (wrong password, or no such username)."""
        now = self.clock()
        for key in self._keys(username, address):
            count = self._live(key, now) or _Count(0, now)
            self._counts[key] = _Count(count.failures + 1, now)
            self._counts.move_to_end(key)
        while len(self._counts) > self.max_keys:
            self._counts.popitem(last=False)

    def succeeded(self, username: str, address: str) -> None:
        """A sign-in succeeded: the username's failures are forgotten (the address's
        are not)."""
        self._counts.pop(self._keys(username, address)[0], None)

    def failures(self, username: str, address: str) -> tuple[int, int]:
        """The failures counted now for the username and for the address."""
        now = self.clock()
        a, b = (self._live(k, now) for k in self._keys(username, address))
        return (a.failures if a else 0, b.failures if b else 0)
