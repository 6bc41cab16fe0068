"""`@kernel`: how simcore compiles a function for numba — cached on disk, without the GIL, and
compiled once per argument *type*, never per constant value.

numba compiles a separate specialisation of a jitted function for every literal constant it is
called with (`decide(st, tt, p, DP_BRIBE, 0)` and `decide(st, tt, p, DP_DONATION, 0)` become two
compilations), and every specialisation re-optimises all the code it calls. A game whose decision
points call into one large policy then compiles the policy dozens of times. Typing every call by
its arguments' plain types (`types.unliteral`) compiles it once; the constants are still known
where it matters, inside the function.
"""
from numba import njit
from numba.core import types


def kernel(fn):
    dispatcher = njit(cache=True, nogil=True)(fn)
    if not hasattr(dispatcher, "get_call_template"):       # NUMBA_DISABLE_JIT=1: a plain function
        return dispatcher
    typed_by_literals = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed_by_literals(tuple(types.unliteral(a) for a in args),
                                 {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher
