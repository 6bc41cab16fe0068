"""`@kernel`: how every game's numba functions (and the search's and the engine's) are compiled —
cached on disk, without the GIL, and once per argument *type* rather than once per constant
value or integer width.

numba compiles a separate specialisation of a jitted function for every literal constant it is
called with (`count(st, p, PARK)` and `count(st, p, HOSPITAL)` would be two compilations) and for
every integer width, and it links every function with all the code it calls and optimises the
whole again, so each specialisation costs a compilation of everything under it. @kernel types a
call by its arguments' plain types, every integer as int64, so those calls share one compilation;
where a hot loop dispatches on a constant (a decision point's id), the games write an if-chain
calling one small function per case (e.g. Notre Dame's policies.greedy_choice_at).

A step of a game called from one place is `@kernel(inline=True)`, compiled as part of its caller
instead of once on its own and again in every module that links it. Together the two cut each
game's first compile by roughly 40 to 50% (benchmarks/compile_profile.py shows where it goes;
simcore/compile_cache.py keeps the cache and turns LLVM's vectorisers off).
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
