"""Per-game random streams: SplitMix64 seeds a xoshiro256** generator.

The stream of game i is derived from (seed, i, stream) alone, so a game's result does not
depend on batch size, chunking, thread or worker count. A game keeps two streams:
CHANCE (shuffles) and DECISION (policies), so policies compared on the same seed see the
same tiles and cards (common random numbers).

A generator is a uint64[4] array, usually a field of the game's state record.
All arithmetic stays in uint64: in numba, mixing uint64 with a signed int gives float64.
"""
import numpy as np
from numba import njit

CHANCE = 0
DECISION = 1

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True, nogil=True)
def splitmix64(x):
    """One SplitMix64 step on x (uint64); returns the mixed value."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def seed_stream(gen, seed, game_index, stream):
    """Fill gen (uint64[4]) with the stream `stream` of game `game_index` under `seed`."""
    key = splitmix64(np.uint64(seed))
    key = splitmix64(key ^ splitmix64(np.uint64(game_index)))
    key = splitmix64(key ^ (np.uint64(stream + 1) * _STREAM))
    for i in range(4):
        key = splitmix64(key)
        gen[i] = key
    if gen[0] == 0 and gen[1] == 0 and gen[2] == 0 and gen[3] == 0:
        gen[0] = _GOLDEN


@njit(cache=True, nogil=True)
def copy_stream(dst, src):
    """dst = src, a generator's state, word by word: `dst[:] = src` would compile numba's
    shape-mismatch error with its string formatting, about 2 s of a game's first compile."""
    for i in range(4):
        dst[i] = src[i]


@njit(cache=True, nogil=True)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, nogil=True)
def next_u64(gen):
    """xoshiro256**: the next 64 random bits."""
    result = _rotl(gen[1] * np.uint64(5), 7) * np.uint64(9)
    t = gen[1] << np.uint64(17)
    gen[2] ^= gen[0]
    gen[3] ^= gen[1]
    gen[1] ^= gen[2]
    gen[0] ^= gen[3]
    gen[2] ^= t
    gen[3] = _rotl(gen[3], 45)
    return result


@njit(cache=True, nogil=True)
def below(gen, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 (multiply-shift; bias below 2**-32)."""
    hi = next_u64(gen) >> np.uint64(32)
    return np.int64((hi * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, nogil=True)
def shuffle(gen, items, start, stop):
    """Fisher–Yates shuffle of items[start:stop] in place."""
    for i in range(stop - 1, start, -1):
        j = start + below(gen, i - start + 1)
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
