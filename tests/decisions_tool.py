"""Driving a decision-point game (simcore/turns.py) by hand in tests: scripted choices and the
options a generator wrote."""


def script(st, *values):
    """The option values the next decisions (with 2+ options) take, in order."""
    st.n_script = len(values)
    st.script_pos = 0
    st.script_miss = 0
    for i, v in enumerate(values):
        st.script[i] = v


def options(st):
    """The options the last generator wrote, as a sorted list."""
    return sorted(int(v) for v in st.opts[:st.n_opts])
