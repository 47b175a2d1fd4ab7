"""The checks of what a Python user brings (docs/errors.md, the Python rows): arrays of the right length, dtype, shape and order,
finite; callables that return what they should. Each failure is a PETSc.Error through PETSc's error handler, naming the argument
and what was expected."""
import numpy as np
from petsc4py import PETSc

from . import _sbpmg as _C

ERR_ARG_SIZ, ERR_ARG_WRONG, ERR_ARG_OUTOFRANGE, ERR_FP, ERR_USER = 60, 62, 63, 72, 83


def fail(code, caller, message, cause=None):
    """Raise PETSc.Error(code) whose text (str(error)) carries message."""
    try:
        _C.raise_error(code, caller, message)
    except PETSc.Error as e:
        if cause is not None:
            raise e from cause
        raise


def _as_float64(name, values, expect):
    if isinstance(values, np.ndarray):
        if values.dtype != np.float64:
            fail(ERR_ARG_WRONG, "sbpmg", f"{name}: expected dtype float64 ({expect}); got dtype {values.dtype}")
        return values
    try:
        a = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        fail(ERR_ARG_WRONG, "sbpmg", f"{name}: expected float64 values ({expect}); got {type(values).__name__}", exc)
    return a


def _check_finite(name, a, where):
    bad = np.flatnonzero(~np.isfinite(a.ravel()))
    if bad.size:
        k = int(bad[0])
        fail(ERR_FP, "sbpmg", f"{name}: value {a.ravel()[k]} at {where(k)} is not finite ({bad.size} non-finite values)")


def node_values(name, values, Nr, Ns):
    """A flat float64 array of (Nr+1)(Ns+1) node values in natural order from a flat array or a C-ordered (Ns+1, Nr+1) one."""
    expect = f"(Nr+1)(Ns+1) = {(Nr + 1) * (Ns + 1)} values or an array of shape (Ns+1, Nr+1) = ({Ns + 1}, {Nr + 1}) in C order"
    a = _as_float64(name, values, expect)
    if a.ndim == 2:
        if a.shape != (Ns + 1, Nr + 1):
            hint = " (transposed? node (i, j) is at [j, i])" if a.shape == (Nr + 1, Ns + 1) else ""
            fail(ERR_ARG_SIZ, "sbpmg", f"{name}: expected shape (Ns+1, Nr+1) = ({Ns + 1}, {Nr + 1}); got shape {a.shape}{hint}")
        if not a.flags.c_contiguous and a.flags.f_contiguous:
            fail(ERR_ARG_WRONG, "sbpmg", f"{name}: the array of shape {a.shape} is in Fortran order; expected C order, node (i, j) at [j, i] "
                 "(numpy.ascontiguousarray() makes a C-ordered copy)")
    elif a.ndim != 1 or a.size != (Nr + 1) * (Ns + 1):
        fail(ERR_ARG_SIZ, "sbpmg", f"{name}: expected {expect}; got shape {a.shape}")
    flat = np.ascontiguousarray(a).ravel()
    _check_finite(name, flat, lambda k: f"node (i, j) = ({k % (Nr + 1)}, {k // (Nr + 1)})")
    return flat


def face_values(name, values, n, face):
    """A face's n values along it, float64, finite."""
    along = "j = 0..Ns" if face <= 2 else "i = 0..Nr"
    a = _as_float64(name, values, f"{n} values along the face, {along}")
    if a.ndim != 1 or a.size != n:
        fail(ERR_ARG_SIZ, "sbpmg", f"{name}: expected {n} values along face {face} ({along}), shape ({n},); got shape {a.shape}")
    a = np.ascontiguousarray(a)
    _check_finite(name, a, lambda k: f"face node {k}")
    return a


def evaluate(name, fn, args, shape, outputs=1):
    """fn(*args) once, vectorised: an array of the given shape (a number is broadcast), or outputs such arrays."""
    try:
        out = fn(*args)
    except Exception as exc:  # the user's code: its error becomes the PETSc.Error, chained
        fail(ERR_USER, "sbpmg", f"{name}: the callable raised {type(exc).__name__}: {exc}", exc)
    want = args[0].shape if shape is None else shape
    if outputs > 1:
        if not isinstance(out, (tuple, list)) or len(out) != outputs:
            fail(ERR_ARG_SIZ, "sbpmg", f"{name}: the callable must return {outputs} arrays of shape {want}; got {type(out).__name__}")
        return tuple(_result(name, o, want) for o in out)
    return _result(name, out, want)


def _result(name, out, want):
    try:
        a = np.asarray(out, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        fail(ERR_ARG_WRONG, "sbpmg", f"{name}: the callable returned {type(out).__name__}, not float64 values of shape {want}", exc)
    if a.ndim == 0:
        a = np.full(want, float(a))
    if a.shape != tuple(want):
        fail(ERR_ARG_SIZ, "sbpmg", f"{name}: the callable returned shape {a.shape}; expected shape {tuple(want)} (its arguments' shape)")
    _check_finite(name, a, lambda k: f"index {np.unravel_index(k, a.shape)} of the callable's result")
    return np.ascontiguousarray(a)
