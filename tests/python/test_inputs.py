"""Bad input from Python (docs/errors.md, the Python rows): each a PETSc.Error whose text names the argument and what was
expected, never a crash; and the lifetimes of what a Problem returns."""
import gc

import numpy as np
import pytest
import sbpmg
from sbpmg import PETSc

N = 16  # (N+1)^2 = 289 nodes
NODES = (N + 1) * (N + 1)


def expect_error(text, fn, *args, **kw):
    with pytest.raises(PETSc.Error) as info:
        fn(*args, **kw)
    msg = str(info.value)
    assert text in msg, msg
    del info
    gc.collect()  # the traceback's frames hold the half-made objects
    return msg


def test_node_array_of_the_wrong_length():
    expect_error("mu: expected (Nr+1)(Ns+1) = 289 values or an array of shape (Ns+1, Nr+1) = (17, 17) in C order; got shape (288,)",
                 sbpmg.Problem, N, mu=np.full(NODES - 1, 2.0))


def test_node_array_of_the_wrong_dtype():
    expect_error("mu: expected dtype float64", sbpmg.Problem, N, mu=np.full(NODES, 2.0, dtype=np.float32))
    expect_error("mapping x: expected dtype float64", sbpmg.Problem, N, mapping=(np.zeros(NODES, dtype=np.int64), np.zeros(NODES)))


def test_node_array_transposed_and_in_fortran_order():
    x, y = np.meshgrid(np.linspace(-1, 1, 33), np.linspace(-1, 1, 17))  # Nr = 32, Ns = 16: shape (17, 33)
    expect_error("mapping x: expected shape (Ns+1, Nr+1) = (17, 33); got shape (33, 17) (transposed? node (i, j) is at [j, i])",
                 sbpmg.Problem, (32, 16), mapping=(x.T.copy(), y.T.copy()))
    expect_error("is in Fortran order; expected C order, node (i, j) at [j, i]", sbpmg.Problem, (32, 16), mapping=(np.asfortranarray(x), y))


def test_non_finite_values():
    mu = np.full(NODES, 2.0)
    mu[20] = np.nan
    expect_error("mu: value nan at node (i, j) = (3, 1) is not finite", sbpmg.Problem, N, mu=mu)
    expect_error("forcing: value inf at index (0, 0) of the callable's result is not finite", sbpmg.Problem, N,
                 forcing=lambda x, y: np.where((x == x.flat[0]) & (y == y.flat[0]), np.inf, 0.0))


def test_callables_that_raise_or_return_the_wrong_shape():
    msg = expect_error("forcing: the callable raised ZeroDivisionError: division by zero", sbpmg.Problem, N, forcing=lambda x, y: 1 / 0)
    assert "error code 83" in msg
    expect_error("mu: the callable returned shape (17,); expected shape (17, 17) (its arguments' shape)", sbpmg.Problem, N, mu=lambda x, y: x[0] + 2)
    expect_error("mapping: the callable must return 2 arrays of shape (17, 17); got ndarray", sbpmg.Problem, N, mapping=lambda r, s: r)
    expect_error("boundary[3]: the callable returned shape (16,); expected shape (17,)", sbpmg.Problem, N, boundary={3: lambda x, y, nx, ny: x[1:]})


def test_face_values_of_the_wrong_length():
    expect_error("boundary[2]: expected 17 values along face 2 (j = 0..Ns), shape (17,); got shape (16,)", sbpmg.Problem, N,
                 boundary={2: np.zeros(16)})
    expect_error("face 5 does not exist: faces are 1..4", sbpmg.Problem, N, boundary={5: np.zeros(17)})


def test_sources_that_do_not_compile():
    msg = expect_error("SbpProblemSetMuSource:1:", sbpmg.Problem, N, mu="double sbp_user_mu(double x, double y) { return x +; }\n")
    assert "build log" in msg
    with sbpmg.Problem(N) as p:
        p.set_forcing("double sbp_user_forcing(double x, double y) { return undefined_name; }\n")
        b = p.create_vector()
        expect_error("SbpProblemSetForcingSource", p.rhs, b)
        b.destroy()


def test_bad_arguments_of_the_problem():
    expect_error("bc: expected one letter D or N per face 1..4", sbpmg.Problem, N, bc="DNX")
    expect_error("backend: expected one of auto, device, host; got 'gpu'", sbpmg.Problem, N, backend="gpu")
    expect_error("n: expected N or (Nr, Ns), integers; got 'big'", sbpmg.Problem, "big")
    expect_error("the coefficient mu must be positive and finite", sbpmg.Problem, N, mu=-1.0)  # the library's own message
    expect_error("-sbp_order 5: the SBP-SAT order must be 2, 4 or 6", sbpmg.Problem, 32, order=5)
    expect_error("order: expected 2, 4 or 6; got '4'", sbpmg.Problem, 32, order="4")
    expect_error("SBP order 6 needs at least 17 intervals", sbpmg.Problem, 16, order=6)


def test_a_destroyed_problem_is_named():
    p = sbpmg.Problem(N)
    p.destroy()
    expect_error("the SBP-SAT problem has been destroyed", p.operator)


def test_matrices_keep_the_problem_alive():
    p = sbpmg.Problem(N)
    A = p.operator()
    H = p.norm("H")
    ue = p.exact_solution()
    u, b = A.createVecs()
    p.rhs(b)
    p.destroy()  # A holds the problem's C object: it stays valid
    del p
    gc.collect()
    ksp = PETSc.KSP().create()
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.getPC().setType("sbpmg")
    ksp.setTolerances(rtol=1e-10)
    ksp.solve(b, u)
    u.axpy(-1.0, ue)
    t = u.duplicate()
    H.mult(u, t)
    assert ksp.getConvergedReason() > 0
    assert 1e-4 < u.dot(t) ** 0.5 < 1e-1  # the discretisation error of N = 16, not garbage
    for o in (ksp, A, H, ue, u, b, t):
        o.destroy()


def test_error_against_arrays_and_callables_equals_the_library():
    """error(u, exact) in Python (the norm matrices) against SbpProblemComputeError (the manufactured solution), also all-Neumann."""
    for bc in ("DDNN", "NNNN"):
        with sbpmg.Problem(N, bc=bc) as p:
            A = p.operator()
            u, b = A.createVecs()
            p.rhs(b)
            ksp = PETSc.KSP().create()
            ksp.setOperators(A)
            ksp.setType("cg")
            ksp.getPC().setType("sbpmg")
            ksp.setTolerances(rtol=1e-12)
            ksp.solve(b, u)
            ref = p.error(u)
            x, y = p.coordinates()
            if bc == "NNNN":
                u.shift(3.0)  # modulo the constants
            got = p.error(u, exact=lambda x, y: np.sin(np.pi * x) * np.cos(np.pi * y))
            got2 = p.error(u, exact=np.sin(np.pi * x) * np.cos(np.pi * y))
            assert got == pytest.approx(ref, rel=1e-11)
            assert got2 == pytest.approx(ref, rel=1e-11)
            for o in (ksp, A, u, b):
                o.destroy()


def test_face_callable_and_exact_source_on_a_source_grid():
    src = "void sbp_user_mapping(double r, double s, double X[6]) { X[0] = 2 * r; X[1] = s; X[2] = 2; X[3] = 0; X[4] = 0; X[5] = 1; }\n"
    usrc = "double sbp_user_exact(double x, double y) { return x * y; }\n"
    # the face's geometry from the device: face 2 is x = 2, its callable gives the same right-hand side as the values 2
    with sbpmg.Problem(N, mapping=src, backend="device", boundary={2: lambda x, y, nx, ny: x}) as p, \
            sbpmg.Problem(N, mapping=src, backend="device", boundary={2: np.full(N + 1, 2.0)}) as q:
        x, y, nx, ny = p.face_geometry(2)
        assert np.allclose(x, 2.0, rtol=0, atol=1e-14) and np.allclose(nx, 1.0, rtol=0, atol=1e-14)
        b, c = p.rhs(), q.rhs()
        assert np.linalg.norm(b.getArray() - c.getArray()) <= 1e-14 * np.linalg.norm(c.getArray())
        assert np.linalg.norm(c.getArray()) > 1
        # the exact solution as source, as a callable and as values: the same errors of b taken as a solution
        xx, yy = p.coordinates()
        e_src, e_fn, e_val = p.error(b, exact=usrc), p.error(b, exact=lambda x, y: x * y), p.error(b, exact=xx * yy)
        assert e_src == pytest.approx(e_fn, rel=1e-14) and e_val == pytest.approx(e_fn, rel=1e-14) and e_fn[0] > 1
        for o in (b, c):
            o.destroy()
    with sbpmg.Problem(N, mapping=src, mu=lambda x, y: 1 + x * x) as p:  # mu as a function on that grid works (a one-rank copy)
        x, y = p.coordinates()
        assert np.allclose(x[0], np.linspace(-2, 2, N + 1), rtol=0, atol=1e-14)
