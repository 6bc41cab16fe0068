"""`@kernel`: how Notre Dame's functions are compiled by numba — cached on disk, without the GIL,
and once per argument *type* rather than once per constant value.

numba compiles a separate specialisation of a jitted function for every literal constant it is
called with (`count(st, p, PARK)` and `count(st, p, HOSPITAL)` are two compilations), and every
specialisation re-optimises all the code it calls. Typing calls by their arguments' plain types
(`types.unliteral`) cut Notre Dame's first compile from 117 s to 89 s. The few functions that
dispatch on a constant in a hot loop (a decision point's id) keep numba's specialisation,
`@kernel(per_constant=True)`: without it random games ran 25% slower and greedy ones 35%.
(Carcassonne's kernels predate this and use plain `@njit(cache=True, nogil=True)`, which is the
same as `@kernel(per_constant=True)`.)
"""
from numba import njit
from numba.core import types


def kernel(fn=None, *, per_constant=False):
    """@kernel, or @kernel(per_constant=True) for the few functions whose speed depends on being
    compiled for each constant they are called with (a decision point's dispatch on its id)."""
    if fn is None:
        return lambda f: kernel(f, per_constant=per_constant)
    dispatcher = njit(cache=True, nogil=True)(fn)
    if per_constant or not hasattr(dispatcher, "get_call_template"):   # or NUMBA_DISABLE_JIT=1
        return dispatcher
    typed_by_literals = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed_by_literals(tuple(types.unliteral(a) for a in args),
                                 {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher
