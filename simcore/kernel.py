"""`@kernel`: how the games' functions are compiled by numba — cached on disk, without the GIL,
and once per argument *type* rather than once per constant value or integer width.

numba compiles a separate specialisation of a jitted function for every literal constant it is
called with (`count(st, p, PARK)` and `count(st, p, HOSPITAL)` are two compilations), and for
every integer width (a caller passing an int8 and one passing an int64), and every specialisation
re-optimises all the code it calls: numba links each function's callees into its own module and
optimises and compiles the whole again. Typing calls by their arguments' plain types
(`types.unliteral`) cut Notre Dame's first compile from 117 s to 89 s; typing every integer as
int64 too, and Carcassonne's kernels moving from plain `@njit` to `@kernel`, cut Carcassonne's
from 222 s to 134 s with the search's code out of the plain batch kernel (both on a loaded
machine; Carcassonne's games per second unchanged). Where a function dispatched on a constant in a hot
loop (a decision point's id), that dispatch is now an if-chain calling one small function per
point (Notre Dame's greedy: policies.greedy_choice_at), not numba's per-constant copies of the
whole valuation.

numba links every function with the whole code it calls and optimises it again, so a step of a
game that is called from one place costs a compilation of everything under it for nothing:
such steps are `@kernel(inline=True)`, compiled as part of their caller. Together these cut the
first compile of Notre Dame from 128 s to 62 s, of Strasbourg from 53 s to 33 s and of
Principato from 85 s to 47 s (quiet machine, benchmarks/compile_profile.py finds where it goes);
turning LLVM's vectorisers off (simcore/compile_cache.py) cuts a little more.
"""
from numba import njit
from numba.core import types


def plain_type(t):
    """The type a @kernel function is compiled for: a constant's plain type, and an integer of any
    width as int64 (numba computes with int64 anyway; a uint64, a bit mask, stays as it is), so
    that callers passing an int8, a uint8, an int32 or a constant share one compilation."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and (t.signed or t.bitwidth < 64):
        return types.int64
    return t


def kernel(fn=None, *, inline=False):
    """@kernel, or @kernel(inline=True) for a step of a game with a single caller (compiled as part
    of that caller: numba then optimises it once, inside its caller, instead of once on its own and
    once more in every module that links it)."""
    if fn is None:
        return lambda f: kernel(f, inline=inline)
    dispatcher = njit(cache=True, nogil=True, inline="always" if inline else "never")(fn)
    if not hasattr(dispatcher, "get_call_template"):   # NUMBA_DISABLE_JIT=1
        return dispatcher
    typed_by_literals = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed_by_literals(tuple(plain_type(a) for a in args), {k: plain_type(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher
